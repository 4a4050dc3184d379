/**
 * Lemma 11 (Stripping): `IMaximal(m) ⟹ ⟦·⟧ₘ ≤ ⟦·⟧♯ₘ` pointwise — the skipping semantics only adds
 * mass to every `∼m` class. Checked on both sides of generated pairs.
 */
import * as Q from '../src/distributions/rational.ts';
import { leq } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair } from '../src/llmbda/pair-eval.ts';
import { observe } from '../src/observe/indist.ts';
import { showObserved } from '../src/llmbda/observed.ts';

/** Shared by the skipping suites: I-maximal observers, endorse included. */
export function skippingPairArb(ctx: LlmbdaCtx<unknown>) {
  // Sub-distribution models make a restored Recv sampling visible (mass the skip would not lose).
  return pairArb({ lat: ctx.lat, endorse: true, iMaximalOnly: true, subModels: 'mixed', profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) });
}

export const stripping: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'stripping',
  caseKind: 'pair',
  title: 'Lemma 11 (Stripping): ⟦·⟧ₘ ≤ ⟦·⟧♯ₘ pointwise for I-maximal m',
  arbitrary: skippingPairArb,
  needs: ['skipping'],
  check: (c, ctx) => {
    const ref = evalPair(ctx, c);
    const skip = evalPair(ctx, c, true);
    for (const side of [0, 1] as const) {
      const mu = observe(ctx.lat, c.obs, (side === 0 ? ref.e0 : ref.e1).finals);
      const sharp = observe(ctx.lat, c.obs, (side === 0 ? skip.e0 : skip.e1).finals);
      if (!leq(mu, sharp)) return fails(`run ${side}: ⟦·⟧ₘ is not below ⟦·⟧♯ₘ (left: ⇓, right: ⇓♯)\n${showObserved(mu, sharp)}`);
    }
    return HOLDS;
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => {
    const ref = evalPair(ctx, c);
    const skip = evalPair(ctx, c, true);
    return {
      'positive mass': Q.lt(Q.ZERO, ref.e0.mass),
      'skipping adds mass': Q.lt(ref.e0.mass, skip.e0.mass),
    };
  },
  thresholds: { 'positive mass': 1 / 2 },
};
