/**
 * Theorem 2 (Insulated TIPNI): `IMaximal(m) ⟹ TIPNI(m)`, endorse included.
 */
import type { PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { pairStats } from '../src/llmbda/pair-eval.ts';
import { checkCompatible } from './tipni.ts';

export const insulatedTipni: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'insulated-tipni',
  caseKind: 'pair',
  title: 'Theorem 2 (Insulated TIPNI): I-maximal observers, endorse included',
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: true, iMaximalOnly: true, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => checkCompatible(ctx, c),
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => pairStats(ctx, c),
  thresholds: { 'raw outcomes differ': 1 / 3, 'positive mass': 1 / 2 },
};
