/**
 * Variants: the reference rule table with some rules replaced, plus a name and one sentence saying
 * what changes. Users write them in their own `.ts` file (see examples/my-variant.ts and docs/variants.md).
 */
import { importUserModule } from '../util/user-module.ts';
import { describeReturn, guardUserFn } from '../util/user-code.ts';
import type { RuleTable, Semantics } from '../semantics/rules-types.ts';
import { REFERENCE_RULES } from '../semantics/rules.ts';
import { SKIPPING, SKIPPING_RULES } from '../skipping/skipping.ts';
import { UserError } from '../util/absurd.ts';
import { RULE_NAMES } from '../semantics/config.ts';

/** What a variant is expected to do, per lattice (used by the catalogue's tests and the benchmarks). */
export interface Expectation {
  /** Lattices on which the suites must find a counterexample. */
  readonly leaksOn: readonly string[];
  /** Lattices on which it must survive (controls). */
  readonly soundOn: readonly string[];
  /** The suite expected to catch it (default `tipni`). */
  readonly caughtBy?: string;
}

/** A variant semantics: the reference rule table with some rules replaced, named and described. */
export interface Variant {
  /** Command-line name, e.g. `send-no-nsu`. */
  readonly name: string;
  /** One sentence: what the variant changes. */
  readonly description: string;
  /** The replaced rules, by paper name. */
  readonly rules: Partial<RuleTable>;
  /**
   * Replaced rules of the skipping semantics `⇓♯` (rarely needed): `rules` replace only the reference
   * semantics; the skipping suites use `⇓♯` with these replacements.
   */
  readonly skippingRules?: Partial<RuleTable>;
  readonly expected?: Expectation;
}

/** Identity helper so user files get type checking: `export default defineVariant({ … })`. */
export function defineVariant(v: Variant): Variant {
  return v;
}

/** The semantics a variant denotes: the reference table with its rules replaced. */
export function variantSemantics(v: Variant): Semantics {
  for (const k of Object.keys(v.rules)) {
    if (!(RULE_NAMES as readonly string[]).includes(k)) {
      throw new UserError(`variant ${v.name}: unknown rule ${JSON.stringify(k)}; rules are ${RULE_NAMES.join(', ')}`);
    }
  }
  return { name: v.name, description: v.description, rules: { ...REFERENCE_RULES, ...v.rules } };
}

/** The skipping semantics `⇓♯` under a variant: the skipping table with the variant's `skippingRules`. */
export function variantSkipping(v: Variant): Semantics {
  return { ...SKIPPING, rules: { ...SKIPPING_RULES, ...(v.skippingRules ?? {}) } };
}

/** Validate an object loaded from a user file as a Variant. */
export function validateVariant(file: string, x: unknown): Variant {
  const o = x as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) throw new UserError(`${file}: the default export must be a variant object (see docs/variants.md)`);
  if (typeof o['name'] !== 'string' || o['name'] === '') throw new UserError(`${file}: variant.name must be a non-empty string`);
  if (typeof o['description'] !== 'string') throw new UserError(`${file}: variant.description must be a one-sentence string`);
  if (typeof o['rules'] !== 'object' || o['rules'] === null) throw new UserError(`${file}: variant.rules must be an object of replaced rules`);
  for (const [k, f] of Object.entries(o['rules'] as object)) {
    if (!(RULE_NAMES as readonly string[]).includes(k)) throw new UserError(`${file}: unknown rule ${JSON.stringify(k)}; rules are ${RULE_NAMES.join(', ')}`);
    if (typeof f !== 'function') throw new UserError(`${file}: rule ${k} must be a function`);
  }
  return o as unknown as Variant;
}

/** Load a variant from a user `.ts`/`.js` file (default export, or export named `variant`). */
export async function loadVariantFile(file: string): Promise<Variant> {
  const mod = await importUserModule(file, 'variant file');
  return guardVariant(file, validateVariant(file, mod['default'] ?? mod['variant']));
}

/** Is `r` a distribution over outcomes (what a rule returns)? Duck-typed: the user's copy of the class may differ. */
function ruleResultProblem(r: unknown): string | undefined {
  return typeof r === 'object' && r !== null && (r as { map?: unknown }).map instanceof Map ? undefined : `returned ${describeReturn(r)}, not a distribution (ODist)`;
}

/** The variant with every rule guarded (exceptions and wrong results are the user's, with file and line). */
export function guardVariant(file: string, v: Variant): Variant {
  const guard = (t: Partial<RuleTable> | undefined): Partial<RuleTable> =>
    Object.fromEntries(Object.entries(t ?? {}).map(([k, f]) => [k, guardUserFn(f as (...a: never[]) => unknown, file, k, ruleResultProblem)])) as Partial<RuleTable>;
  return { ...v, rules: guard(v.rules), ...(v.skippingRules ? { skippingRules: guard(v.skippingRules) } : {}) };
}

