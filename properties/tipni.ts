/**
 * Theorem 1 (TIPNI): for endorse-free programs (or the trivial factoring `1 × L`), every observer `m`
 * and every `pc`: `C0 ∼m C1` and `e0 ∼m e1` imply `⟦pc ⊢ C0,e0⟧ₘ ⌣ ⟦pc ⊢ C1,e1⟧ₘ`.
 */
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import type { LlmbdaCtx } from '../src/llmbda/context.ts';
import { showPair } from '../src/llmbda/context.ts';
import { evalPair, pairStats } from '../src/llmbda/pair-eval.ts';
import { compare, observe } from '../src/observe/indist.ts';
import { showObserved } from '../src/llmbda/observed.ts';

/** Check `⟦e0⟧ₘ ⌣ ⟦e1⟧ₘ` under the context's semantics. */
export function checkCompatible<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>) {
  const { e0, e1 } = evalPair(ctx, c);
  const mu0 = observe(ctx.lat, c.obs, e0.finals);
  const mu1 = observe(ctx.lat, c.obs, e1.finals);
  const cmp = compare(mu0, mu1);
  if (cmp.compatible) return HOLDS;
  return fails(`observer distributions are incompatible: Σ max = ${Q.show(cmp.maxSum)} > 1\n${showObserved(mu0, mu1)}`);
}

export const tipni: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'tipni',
  caseKind: 'pair',
  title: 'Theorem 1 (TIPNI): related inputs give compatible m-observations',
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: !ctx.lat.factoring, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => checkCompatible(ctx, c),
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => pairStats(ctx, c),
  thresholds: { 'raw outcomes differ': 1 / 3, 'positive mass': 1 / 2 },
};
