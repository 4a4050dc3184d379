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
import { RULE_NAMES, type RuleName } from '../semantics/config.ts';
import { REFERENCE_DECISIONS, RULE_LABEL_VARS, pointLabelVars, withDecisions, type DecisionChanges } from '../semantics/decisions.ts';

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
  /**
   * Changed label decisions of the reference rules (src/semantics/decisions.ts), e.g. a generated mutant.
   * Unlike replaced `rules`, these need no `skippingRules`: ⇓♯ calls the same helpers, so it follows them.
   */
  readonly decisions?: DecisionChanges;
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
  return { name: v.name, description: v.description, rules: { ...REFERENCE_RULES, ...v.rules }, ...(v.decisions ? { decisions: withDecisions(v.decisions) } : {}) };
}

/** The rules spec §7's construction changes: their ⇓♯ version is not the ⇓ rule (skips inside the rule). */
export const SKIP_CHANGED_RULES: readonly RuleName[] = RULE_NAMES.filter((k) => SKIPPING_RULES[k] !== REFERENCE_RULES[k]);

/**
 * The skipping semantics `⇓♯` of a variant, derived by spec §7's construction where it applies:
 * - a replaced rule that §7 leaves unchanged (Lam, Fork, Labelled, the literals, records, arrays) is lifted
 *   as it is: ⇓♯ is then that rule under the skip at entry, exactly as for the reference;
 * - changed label `decisions` carry over by themselves (⇓♯ calls the helpers that read them);
 * - a replaced rule that §7 changes needs the variant's own `skippingRules` entry: the skips sit inside
 *   the rule (after its first premise), and an arbitrary function cannot be split there.
 * `missing` names the rules of the last kind that the variant leaves without a ⇓♯ version.
 */
export function deriveSkipping(v: Variant): { readonly semantics: Semantics; readonly missing: readonly RuleName[] } {
  const rules: Record<string, unknown> = { ...SKIPPING_RULES };
  const missing: RuleName[] = [];
  for (const k of RULE_NAMES) {
    const own = v.skippingRules?.[k];
    const replaced = v.rules[k];
    if (own) rules[k] = own;
    else if (replaced === undefined || replaced === REFERENCE_RULES[k]) continue;
    else if (SKIP_CHANGED_RULES.includes(k)) { missing.push(k); rules[k] = refusingRule(v, k); }
    else rules[k] = replaced;
  }
  const semantics: Semantics = {
    ...SKIPPING, name: `skipping(${v.name})`, rules: rules as unknown as RuleTable, ...(v.decisions ? { decisions: withDecisions(v.decisions) } : {}),
  };
  return { semantics, missing };
}

/** What a suite that needs ⇓♯ says about a variant that gives no ⇓♯ version of a rule §7 changes. */
export function skippingRefusal(suite: string, v: Variant, missing: readonly string[]): string {
  return `suite ${suite} needs skipping rules for ${v.name}: it replaces ${missing.join(', ')}, which the m-skipping semantics ⇓♯ changes (spec §7), `
    + `and comparing the variant with the reference's ⇓♯ would report differences that are no leak; give skippingRules.${missing[0]} (docs/variants.md) or hunt the other suites`;
}

/** A rule that must never run: it stands for a ⇓♯ rule the variant does not give (the entry points refuse first). */
function refusingRule(v: Variant, k: RuleName): never {
  return ((): never => { throw new UserError(skippingRefusal('(a skipping suite)', v, [k])); }) as never;
}

/** The skipping semantics `⇓♯` under a variant (see `deriveSkipping`; rules it cannot derive throw a `UserError` when run). */
export function variantSkipping(v: Variant): Semantics {
  return deriveSkipping(v).semantics;
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
  if (o['skippingRules'] !== undefined) {
    if (typeof o['skippingRules'] !== 'object' || o['skippingRules'] === null) throw new UserError(`${file}: variant.skippingRules must be an object of replaced ⇓♯ rules`);
    for (const [k, f] of Object.entries(o['skippingRules'] as object)) {
      if (!(RULE_NAMES as readonly string[]).includes(k)) throw new UserError(`${file}: unknown skipping rule ${JSON.stringify(k)}; rules are ${RULE_NAMES.join(', ')}`);
      if (typeof f !== 'function') throw new UserError(`${file}: skipping rule ${k} must be a function`);
    }
  }
  if (o['decisions'] !== undefined) validateDecisions(file, o['decisions']);
  return o as unknown as Variant;
}

/** Check `decisions` against decisions.ts: known rules and points, booleans for checks, joins of in-scope variables. */
function validateDecisions(file: string, d: unknown): void {
  if (typeof d !== 'object' || d === null) throw new UserError(`${file}: variant.decisions must be an object (see src/semantics/decisions.ts)`);
  const ref = REFERENCE_DECISIONS as unknown as Record<string, Record<string, unknown>>;
  for (const [rule, points] of Object.entries(d)) {
    const r = ref[rule];
    if (!r) throw new UserError(`${file}: decisions: unknown rule ${JSON.stringify(rule)}; rules with decisions are ${Object.keys(ref).join(', ')}`);
    for (const [point, val] of Object.entries(points as object)) {
      const was = r[point];
      if (was === undefined) throw new UserError(`${file}: decisions.${rule}: unknown point ${JSON.stringify(point)}; it has ${Object.keys(r).join(', ')}`);
      const vars = pointLabelVars(rule as keyof typeof RULE_LABEL_VARS, point);
      const ok = typeof was === 'boolean' ? typeof val === 'boolean' : Array.isArray(val) && val.every((x) => vars.includes(x as string));
      if (!ok) throw new UserError(`${file}: decisions.${rule}.${point} must be ${typeof was === 'boolean' ? 'true or false' : `an array of label variables among ${vars.join(', ')}`}`);
    }
  }
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

