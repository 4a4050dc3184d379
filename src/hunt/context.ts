/**
 * The pieces a hunt, a replay and the minimiser share: the suite context of a variant (or of the
 * reference semantics), and judging one case with a suite's own `check`.
 */
import fc from 'fast-check';
import type { Lattice } from '../lattice/lattice.ts';
import { referenceCtx, type LlmbdaCtx } from '../check/context.ts';
import type { CaseOutcome } from '../check/suite.ts';
import type { PairCase, SingleCase } from '../generators/pairs.ts';
import { SKIPPING } from '../skipping/skipping.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import type { PrimTable } from '../semantics/model.ts';
import { resolveVariant } from '../variants/catalogue.ts';
import { variantSemantics, variantSkippingRules, type Variant } from '../variants/variant.ts';
import { LLMBDA_SUITES, llmbdaSuiteByName, type LlmbdaSuite } from '../../properties/index.ts';
import { UserError } from '../util/absurd.ts';
import { withPrims } from './prims.ts';

/** The reference semantics as a (trivial) variant: no rule replaced. */
export const REFERENCE_VARIANT: Variant = {
  name: 'reference',
  description: 'The reference semantics itself (no rule replaced): hunting it checks the theorems, e.g. with new primitives.',
  rules: {},
};

/** `--variant NAME|FILE.ts|reference`. */
export async function loadVariant(spec: string): Promise<Variant> {
  if (spec === 'reference') return REFERENCE_VARIANT;
  try {
    return await resolveVariant(spec);
  } catch (e) {
    if (e instanceof UserError && e.message.startsWith('unknown variant')) throw new UserError(`${e.message}, or "reference" for the reference semantics`);
    throw e;
  }
}

/** Extra primitives to add to every model (`--prims FILE.ts`). */
export interface PrimExtension {
  readonly prims: PrimTable;
}

/** The suite context of a variant: its rule table for `⇓`, the skipping table with its `skippingRules`. */
export function variantCtx<L>(lat: Lattice<L>, v: Variant, ext?: PrimExtension): LlmbdaCtx<L> {
  const semantics: Semantics = variantSemantics(v);
  const skipping: Semantics = { ...SKIPPING, rules: variantSkippingRules(v) };
  return referenceCtx(lat, ext ? { semantics: withPrims(semantics, ext.prims), skipping: withPrims(skipping, ext.prims) } : { semantics, skipping });
}

/** The reference context, with the same primitive extension as a variant context (for replays). */
export function referenceCtxWith<L>(lat: Lattice<L>, ext?: PrimExtension): LlmbdaCtx<L> {
  return variantCtx(lat, REFERENCE_VARIANT, ext);
}

/** A pair case (two runs) rather than a single case. */
export function isPairCase<L>(c: PairCase<L> | SingleCase<L>): c is PairCase<L> {
  return 'skeleton' in c;
}

/** The LLMbda suite of that name, or a `UserError` listing them. */
export function suiteNamed(name: string): LlmbdaSuite {
  const s = llmbdaSuiteByName(name);
  if (!s) throw new UserError(`unknown suite ${JSON.stringify(name)}; the LLMbda suites are ${allSuiteNames().join(', ')} (or all)`);
  return s;
}

/** Every LLMbda suite name, in `llmbda check` order. */
export function allSuiteNames(): string[] {
  return LLMBDA_SUITES.map((s) => s.name);
}

/** Whether a suite judges pairs (two runs) or single runs: read off one generated case. */
export function suiteCaseKind<L>(suite: LlmbdaSuite, ctx: LlmbdaCtx<L>): 'pair' | 'single' {
  const [c] = fc.sample(suite.arbitrary(ctx as LlmbdaCtx<unknown>), { numRuns: 1, seed: 0 });
  return typeof c === 'object' && c !== null && 'skeleton' in c ? 'pair' : 'single';
}

/** The verdict of a suite's `check` on one case: an exception is a failure too (with its message). */
export type Judgement = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly crashed: boolean };

/** Judge one case with a suite's own check; a discarded case (over the step budget) is reported as such. */
export function judge<L>(suite: LlmbdaSuite, ctx: LlmbdaCtx<L>, c: PairCase<L> | SingleCase<L>): Judgement | { readonly ok: 'discarded'; readonly reason: string } {
  let out: CaseOutcome;
  try {
    out = suite.check(c, ctx as LlmbdaCtx<unknown>);
  } catch (e) {
    if ((e as { discard?: unknown } | null)?.discard === true) return { ok: 'discarded', reason: (e as Error).message };
    return { ok: false, reason: `exception: ${e instanceof Error ? e.message : String(e)}`, crashed: true };
  }
  return out.ok ? { ok: true } : { ok: false, reason: out.reason, crashed: false };
}
