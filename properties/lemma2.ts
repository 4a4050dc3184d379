/**
 * Lemma 2: the total mass of `⟦·⟧` is at most 1. We also check our bookkeeping: for `IsDist` models the
 * final mass plus the reported missing mass (stuck, out of fuel) is exactly 1.
 */
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { singleArb, type SingleCase } from '../src/generators/pairs.ts';
import { runSingle, showSingle, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { isDistSpec } from '../src/generators/models.ts';

export const lemma2: PropertySuite<SingleCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'lemma2',
  caseKind: 'single',
  title: 'Lemma 2: the denotation has mass ≤ 1 (and mass + missing = 1 for IsDist models)',
  arbitrary: (ctx) => singleArb({ lat: ctx.lat, endorse: true, profile: ctx.profile, subModels: false, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const res = runSingle(ctx, c);
    if (Q.lt(Q.ONE, res.mass)) return fails(`mass ${Q.show(res.mass)} > 1`);
    if (isDistSpec(c.model) && !Q.isZero(res.modelDeficit)) {
      return fails(`IsDist model but mass ${Q.show(res.mass)} + missing ≠ 1 (unaccounted ${Q.show(res.modelDeficit)})`);
    }
    return HOLDS;
  },
  show: (c, ctx) => showSingle(ctx, c),
  stats: (c, ctx) => ({ 'positive mass': Q.lt(Q.ZERO, runSingle(ctx, c).mass) }),
  thresholds: { 'positive mass': 1 / 2 },
};
