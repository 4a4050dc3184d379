/**
 * A deliberately BROKEN user lattice, kept to show that `llmbda check --lattice` catches it.
 *
 * What is wrong: the join of the three middle labels is "rock, paper, scissors" (A ⊔ B = B,
 * B ⊔ C = C, C ⊔ A = A), so it is commutative and idempotent with ⊥ as unit and ⊤ absorbing, and
 * `leq` is defined from it, yet it is not associative: (A ⊔ B) ⊔ C = C but A ⊔ (B ⊔ C) = A.
 * The check reports a three-label counterexample naming associativity.
 */
import type { Lattice } from 'llmbda-check/lattice';
import { readStrings, showStrings, stringsValue } from 'llmbda-check/lattice';

type Rps = 'none' | 'A' | 'B' | 'C' | 'all';

const ELEMENTS: readonly Rps[] = ['none', 'A', 'B', 'C', 'all'];

/** Who "beats" whom among the middle labels: the (cyclic, hence wrong) join. */
const BEATS: Readonly<Record<'A' | 'B' | 'C', 'A' | 'B' | 'C'>> = { A: 'B', B: 'C', C: 'A' };

function join(a: Rps, b: Rps): Rps {
  if (a === b || b === 'none') return a;
  if (a === 'none') return b;
  if (a === 'all' || b === 'all') return 'all';
  return BEATS[a] === b ? b : a; // the bug: a cycle is not an order
}

const atoms = (l: Rps): readonly string[] => (l === 'none' ? [] : [l]);

const broken: Lattice<Rps> = {
  name: 'rock-paper-scissors',
  bottom: 'none',
  top: 'all',
  join,
  leq: (a, b) => join(a, b) === b,
  equals: (a, b) => a === b,
  show: (l) => showStrings(atoms(l)),
  fromLabel: (l) => stringsValue(atoms(l)),
  toLabel(v) {
    const xs = readStrings(v);
    if (xs === undefined) return undefined;
    if (xs.length === 0) return 'none';
    const [x] = xs;
    return xs.length === 1 && x !== 'none' && ELEMENTS.includes(x as Rps) ? (x as Rps) : undefined;
  },
  elements: ELEMENTS,
};

export default broken;
