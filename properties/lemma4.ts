/**
 * Lemma 4 on actual program pairs: `μ ⌣ ν` with both masses 1 implies `μ = ν`, where μ, ν are the
 * m-observations of two related runs.
 */
import * as Q from '../src/distributions/rational.ts';
import { equals, mass } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair, pairStats } from '../src/llmbda/pair-eval.ts';
import { compare, observe } from '../src/observe/indist.ts';
import { showObserved } from '../src/llmbda/observed.ts';

export const lemma4: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'lemma4',
  caseKind: 'pair',
  title: 'Lemma 4: compatible observations of total mass 1 are equal',
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: !ctx.lat.factoring, profile: ctx.profile, fuel: { min: 30, max: 50 }, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c);
    const mu = observe(ctx.lat, c.obs, e0.finals), nu = observe(ctx.lat, c.obs, e1.finals);
    const total = Q.eq(mass(mu), Q.ONE) && Q.eq(mass(nu), Q.ONE);
    if (!total) return HOLDS;
    const cmp = compare(mu, nu);
    if (!cmp.compatible) return fails(`both runs have mass 1 but are incompatible (Σ max = ${Q.show(cmp.maxSum)})\n${showObserved(mu, nu)}`);
    return equals(mu, nu) ? HOLDS : fails(`compatible with mass 1 on both sides, yet different\n${showObserved(mu, nu)}`);
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c);
    return { ...pairStats(ctx, c), 'both masses 1': Q.eq(e0.mass, Q.ONE) && Q.eq(e1.mass, Q.ONE) };
  },
  thresholds: { 'both masses 1': 1 / 10 },
};
