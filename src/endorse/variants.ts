/**
 * Constrained endorse (paper, Appendix E): `robust_endorse` and `bounded_endorse` are prelude
 * definitions, not rules, so their breaking variants are *prelude variants*: the standard prelude with one
 * definition replaced. The prelude belongs to the model `M` (spec §4), so a prelude variant is run by
 * giving the model that prelude source (`standardModel(…, { preludeSource })`); the rule table stays the
 * reference one. Each entry says in one sentence what it breaks and which suite catches it.
 */
import { STANDARD_PRELUDE_SOURCE } from '../semantics/prelude.ts';
import { UserError } from '../util/absurd.ts';

/** The endorse suites (properties/endorse-*.ts). */
export type EndorseSuiteName = 'endorse-no-cascade' | 'endorse-bounded';

/** A prelude with one definition replaced. */
export interface PreludeVariant {
  readonly name: string;
  /** One sentence: what it changes and why that is wrong. */
  readonly description: string;
  /** The definition replaced. */
  readonly replaces: 'robust_endorse' | 'bounded_endorse';
  /** The new right-hand side, in LLMbda. */
  readonly definition: string;
  /** The suite expected to catch it. */
  readonly caughtBy: EndorseSuiteName;
}

/** The standard prelude with `let name = …` (one line) replaced by `let name = definition`. */
export function preludeWith(name: string, definition: string, source: string = STANDARD_PRELUDE_SOURCE): string {
  const re = new RegExp(`^let ${name} = .*$`, 'm');
  if (!re.test(source)) throw new UserError(`the prelude has no one-line definition of ${name}`);
  return source.replace(re, () => `let ${name} = ${definition}`);
}

/** The shipped prelude variants. */
export const PRELUDE_VARIANTS: readonly PreludeVariant[] = [
  {
    name: 'robust-endorse-no-e-check',
    description: 'robust_endorse forgets the E check: endorsed data (and anything derived from it) is endorsed again, so endorsement cascades',
    replaces: 'robust_endorse',
    definition: '\\x. endorse ["E"] x',
    caughtBy: 'endorse-no-cascade',
  },
  {
    name: 'robust-endorse-no-mark',
    description: 'robust_endorse endorses to [] instead of ["E"]: the result is not marked, so the E check never fires downstream',
    replaces: 'robust_endorse',
    definition: '\\x. let _ = assert ["U","S"] shape(x) in endorse [] x',
    caughtBy: 'endorse-no-cascade',
  },
  {
    name: 'robust-endorse-shallow-check',
    description: 'robust_endorse checks only the top-level label of x: a container holding endorsed data is endorsed again',
    replaces: 'robust_endorse',
    definition: '\\x. let _ = assert ["U","S"] x in endorse ["E"] x',
    caughtBy: 'endorse-no-cascade',
  },
  {
    name: 'bounded-endorse-unbounded',
    description: 'bounded_endorse endorses x itself without looking at the domain: all of x crosses',
    replaces: 'bounded_endorse',
    definition: '\\dom. \\x. endorse [] x',
    caughtBy: 'endorse-bounded',
  },
  {
    name: 'bounded-endorse-fallback',
    description: 'bounded_endorse falls back to endorsing x when it is not in the domain: every value outside the domain crosses',
    replaces: 'bounded_endorse',
    definition: '\\dom. \\x. fix (\\go. \\i. if i == shape(dom).length then endorse [] x else if endorse [] (dom.[i] == x) then dom.[i] else go (i + 1)) 0',
    caughtBy: 'endorse-bounded',
  },
];

/** A prelude variant by name. */
export function preludeVariantByName(name: string): PreludeVariant | undefined {
  return PRELUDE_VARIANTS.find((v) => v.name === name);
}

/** The prelude source of a variant (the standard one for `reference`). */
export function preludeSourceOf(name: string): string {
  if (name === 'reference') return STANDARD_PRELUDE_SOURCE;
  const v = preludeVariantByName(name);
  if (!v) throw new UserError(`unknown prelude variant ${JSON.stringify(name)}; expected reference or ${PRELUDE_VARIANTS.map((x) => x.name).join(', ')}`);
  return preludeWith(v.replaces, v.definition);
}
