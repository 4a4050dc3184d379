/**
 * The pieces a hunt, a replay and the minimiser share: the suite context of a variant (or of the
 * reference semantics), and judging one case with a suite's own `check`.
 */
import type { Lattice } from '../lattice/lattice.ts';
import { referenceCtx, type LlmbdaCtx } from './context.ts';
import type { PairCase, SingleCase } from '../generators/pairs.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import type { PrimTable } from '../semantics/model.ts';
import { resolveVariant } from '../variants/catalogue.ts';
import { deriveSkipping, skippingRefusal, variantSemantics, variantSkipping, type Variant } from '../variants/variant.ts';
import { UserError } from '../util/absurd.ts';
import { withPrims } from './prims.ts';
import { REFERENCE } from '../semantics/rules.ts';

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
  const skipping: Semantics = variantSkipping(v);
  return referenceCtx(lat, ext
    ? { semantics: withPrims(semantics, ext.prims), skipping: withPrims(skipping, ext.prims), reference: withPrims(REFERENCE, ext.prims) }
    : { semantics, skipping });
}

/** The reference context, with the same primitive extension as a variant context (for replays). */
export function referenceCtxWith<L>(lat: Lattice<L>, ext?: PrimExtension): LlmbdaCtx<L> {
  return variantCtx(lat, REFERENCE_VARIANT, ext);
}

/**
 * Why a suite cannot judge a variant, or `undefined` when it can: a suite that needs ⇓♯ refuses a variant
 * whose ⇓♯ cannot be derived (see `deriveSkipping`). A suite that needs `peval` (Theorem 3 and its
 * adapter form: ⟦·⟧ against an independent interpreter of the *reference* rules) is a differential check
 * under a variant — "this semantics differs from the reference", never a leak — so it runs only when the
 * suite is asked for by name (`named`), and is left out of `all` and of the default check, where a sound
 * variant's mere difference would read as a failure. Never a false alarm.
 */
export function suiteRefusal(suite: { readonly name: string; readonly needs?: readonly string[] }, v: Variant, opts: { readonly named?: boolean } = {}): string | undefined {
  const needs = suite.needs ?? [];
  if (needs.includes('skipping')) {
    const { missing } = deriveSkipping(v);
    if (missing.length > 0) return skippingRefusal(suite.name, v, missing);
  }
  if (needs.includes('peval') && !opts.named && (Object.keys(v.rules).length > 0 || v.decisions !== undefined)) {
    return `suite ${suite.name} compares ⟦·⟧ with peval, an independent interpreter of the reference rules; under ${v.name} it is only a differential check (name it with --suite ${suite.name} to run it as one)`;
  }
  return undefined;
}

/** A pair case (two runs) rather than a single case. */
export function isPairCase<L>(c: PairCase<L> | SingleCase<L>): c is PairCase<L> {
  return 'skeleton' in c;
}

