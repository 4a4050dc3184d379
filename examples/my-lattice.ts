/**
 * A user-defined lattice, written the way you would write your own (see docs/lattices.md):
 * a "diamond" of confidentiality levels for a company's documents,
 *
 *               restricted            (⊤: may see everything)
 *              /          \
 *         medical        legal        (two compartments, incomparable)
 *              \          /
 *                public               (⊥: unlabelled data)
 *
 * Check it with `llmbda check --lattice examples/my-lattice.ts`; use it with `--lattice` anywhere a
 * lattice name is accepted. In programs the labels are written `[]`, `["medical"]`, `["legal"]` and
 * `["restricted"]`, e.g. `["medical"]:"blood type A+"`.
 */
import type { Lattice } from 'llmbda-check/lattice';
import { readStrings, showStrings, stringsValue } from 'llmbda-check/lattice';

/** The four levels. A label can be any JS value; plain strings keep `equals` and `show` simple. */
type Level = 'public' | 'medical' | 'legal' | 'restricted';

const LEVELS: readonly Level[] = ['public', 'medical', 'legal', 'restricted'];

/** The atoms of a level's encoding: `[]` for ⊥ (so `[]:e` means unlabelled, as on every lattice). */
function atoms(l: Level): readonly string[] {
  return l === 'public' ? [] : [l];
}

const diamond: Lattice<Level> = {
  name: 'diamond',
  bottom: 'public',
  top: 'restricted',

  // Least upper bound: equal levels join to themselves, ⊥ is neutral, and the two compartments
  // (or anything with ⊤) meet only at the top.
  join(a, b) {
    if (a === b || b === 'public') return a;
    if (a === 'public') return b;
    return 'restricted';
  },

  // a ⊑ b: a may flow to b.
  leq: (a, b) => a === b || a === 'public' || b === 'restricted',

  equals: (a, b) => a === b,

  // The label's value in surface syntax; canonical (one text per label) and injective.
  show: (l) => showStrings(atoms(l)),

  // Labels are also language values: encode as an array of strings …
  fromLabel: (l) => stringsValue(atoms(l)),

  // … and decode exactly those arrays, rejecting everything else (returning undefined, never throwing).
  toLabel(v) {
    const xs = readStrings(v);
    if (xs === undefined) return undefined;
    if (xs.length === 0) return 'public';
    const [x] = xs;
    return xs.length === 1 && x !== 'public' && LEVELS.includes(x as Level) ? (x as Level) : undefined;
  },

  // Finite and small: list every element so the law checker can enumerate interesting pairs.
  elements: LEVELS,

  // No `factoring`: this is a pure confidentiality lattice (the trivial factoring 1 × L), so
  // `endorse` can do nothing and every observer is I-maximal.
};

export default diamond;
