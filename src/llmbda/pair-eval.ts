/**
 * Evaluations of a pair case, cached for the last few case objects: a suite's `stats` and `check` see the
 * same case object one after the other, so each side is evaluated once.
 */
import * as Q from '../distributions/rational.ts';
import { equals } from '../distributions/subdist.ts';
import type { Evaluation } from '../semantics/evaluate.ts';
import { conversationOf, type PairCase } from '../generators/pairs.ts';
import { hasHole } from '../generators/programs.ts';
import { runSide, type LlmbdaCtx } from './context.ts';
import { Recent } from '../runner/recent.ts';

interface Both<L> { readonly e0: Evaluation<L>; readonly e1: Evaluation<L> }

/** Per semantics (long-lived objects), the last few cases' evaluations (see `Recent` for why not a WeakMap per case). */
const cache = new WeakMap<object, Recent<object, Both<unknown>>>();

/** Both sides under the context's semantics (or the skipping one). */
export function evalPair<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>, skipping = false): Both<L> {
  const sem = skipping ? ctx.skipping : ctx.semantics;
  let perSem = cache.get(sem);
  if (!perSem) { perSem = new Recent(); cache.set(sem, perSem); }
  const hit = perSem.get(c) as Both<L> | undefined;
  if (hit) return hit;
  const e0 = runSide(ctx, c, 0, skipping);
  // A skeleton without holes and the same conversation on both sides: the two runs are the same
  // configuration, so the same (pure) evaluation (about one case in six of the tuned generator).
  const both = { e0, e1: sameSides(ctx, c) ? e0 : runSide(ctx, c, 1, skipping) };
  perSem.set(c, both as Both<unknown>);
  return both;
}

/** Do both sides of the case start from the same configuration (no hole in the skeleton, equal conversations)? */
export function sameSides<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>): boolean {
  const a = conversationOf(c, 0), b = conversationOf(c, 1);
  if (!ctx.lat.equals(a.label, b.label) || a.messages.length !== b.messages.length) return false;
  for (let i = 0; i < a.messages.length; i++) if (a.messages[i] !== b.messages[i]) return false;
  return !hasHole(c.skeleton);
}

/** The non-vacuity statistics every pair suite reports. */
export function pairStats<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>): Record<string, boolean> {
  const { e0, e1 } = evalPair(ctx, c);
  return {
    'raw outcomes differ': !equals(e0.finals, e1.finals),
    'positive mass': Q.lt(Q.ZERO, e0.mass) && Q.lt(Q.ZERO, e1.mass),
  };
}
