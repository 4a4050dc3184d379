/**
 * Lemma 13: the total mass of `⟦·⟧♯` is at most 1.
 */
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import type { PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair } from '../src/llmbda/pair-eval.ts';
import { skippingPairArb } from './stripping.ts';

export const lemma13: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'lemma13',
  caseKind: 'pair',
  title: 'Lemma 13: the skipping denotation has mass ≤ 1',
  arbitrary: skippingPairArb,
  needs: ['skipping'],
  check: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c, true);
    for (const [i, e] of [e0, e1].entries()) if (Q.lt(Q.ONE, e.mass)) return fails(`run ${i}: ⟦·⟧♯ has mass ${Q.show(e.mass)} > 1`);
    return HOLDS;
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => ({ 'positive mass': Q.lt(Q.ZERO, evalPair(ctx, c, true).e0.mass) }),
  thresholds: { 'positive mass': 1 / 2 },
};
