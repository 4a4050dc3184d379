/**
 * The label lattice interface (spec §1). A lattice is a join-semilattice with ⊥ and ⊤.
 * Labels are also language values: `fromLabel` encodes, `toLabel` decodes (and rejects non-labels).
 */
import type { PlainValue } from '../syntax/ast.ts';

/** Integrity × confidentiality factoring `L ≅ I × S` (spec §1). */
export interface Factoring<L> {
  /** `l←`: the integrity part, as an element of L (with ⊥ confidentiality). */
  toI(l: L): L;
  /** `l→`: the confidentiality part, as an element of L (with ⊥ integrity). */
  toS(l: L): L;
  /** `⟨i, s⟩`: combine the integrity part of `i` with the confidentiality part of `s`. */
  pair(i: L, s: L): L;
}

/** A label lattice (spec §1): a join-semilattice with ⊥ and ⊤, whose labels are also language values. */
export interface Lattice<L> {
  /** Name used on the command line, e.g. `powerset-us`, `chain(3)`. */
  readonly name: string;
  readonly bottom: L;
  readonly top: L;
  join(a: L, b: L): L;
  /** `a ⊑ b`: may `a` flow to `b`. */
  leq(a: L, b: L): boolean;
  equals(a: L, b: L): boolean;
  /**
   * Canonical, injective rendering in surface syntax (e.g. `["U","S"]`); also used as the label's key
   * in canonical serialisations, so equal labels must show identically.
   */
  show(l: L): string;
  /** Encode a label as a label-free language value. */
  fromLabel(l: L): PlainValue;
  /** Decode a label-free value; `undefined` when it is not a label of this lattice. */
  toLabel(v: PlainValue): L | undefined;
  /**
   * Every element, when the lattice is finite and small enough to enumerate (used by generators and
   * exhaustive law checks). Omit for large lattices and provide `sample` instead.
   */
  readonly elements?: readonly L[];
  /** Integrity × confidentiality factoring; absent means the trivial factoring `1 × L`. */
  readonly factoring?: Factoring<L>;
}

/** A lattice of unknown label type (what registries and CLIs pass around). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyLattice = Lattice<any>;

/**
 * `IMaximal(m)`: `l← ⊑ m←` for every label `l`, i.e. the integrity part of `m` is the top of `I`.
 * Under the trivial factoring `1 × L` every observer is I-maximal.
 */
export function isIMaximal<L>(lat: Lattice<L>, m: L): boolean {
  const f = lat.factoring;
  if (!f) return true;
  return lat.leq(f.toI(lat.top), f.toI(m));
}

/** The integrity projection under the lattice's factoring (⊥ under the trivial one). */
export function integrityOf<L>(lat: Lattice<L>, l: L): L {
  return lat.factoring ? lat.factoring.toI(l) : lat.bottom;
}

/** The confidentiality projection under the lattice's factoring (`l` itself under the trivial one). */
export function confidentialityOf<L>(lat: Lattice<L>, l: L): L {
  return lat.factoring ? lat.factoring.toS(l) : l;
}

/** `⟨i←, s→⟩` under the lattice's factoring (`s` under the trivial one). */
export function pairOf<L>(lat: Lattice<L>, i: L, s: L): L {
  return lat.factoring ? lat.factoring.pair(i, s) : s;
}

/** Join of a list of labels (⊥ for none). */
export function joinAll<L>(lat: Lattice<L>, ls: Iterable<L>): L {
  let acc = lat.bottom;
  for (const l of ls) acc = lat.join(acc, l);
  return acc;
}
