/**
 * Lemma 5 on actual program pairs: the leak is bounded by the average divergence,
 * `Δ(μ0, μ1) ≤ (div μ0 + div μ1)/2`, for the m-observations of two related runs.
 */
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair, pairStats } from '../src/llmbda/pair-eval.ts';
import { compare, observe } from '../src/observe/indist.ts';
import { showObserved } from '../src/llmbda/observed.ts';

export const lemma5: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'lemma5',
  caseKind: 'pair',
  title: 'Lemma 5: Δ(μ0, μ1) ≤ (div μ0 + div μ1)/2 on related runs',
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: !ctx.lat.factoring, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c);
    const mu = observe(ctx.lat, c.obs, e0.finals), nu = observe(ctx.lat, c.obs, e1.finals);
    const cmp = compare(mu, nu);
    if (Q.le(cmp.distance, cmp.bound)) return HOLDS;
    return fails(`leak Δ = ${Q.show(cmp.distance)} exceeds the average divergence ${Q.show(cmp.bound)}\n${showObserved(mu, nu)}`);
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c);
    return { ...pairStats(ctx, c), 'some divergence': Q.lt(e0.mass, Q.ONE) || Q.lt(e1.mass, Q.ONE) };
  },
  thresholds: { 'positive mass': 1 / 2 },
};
