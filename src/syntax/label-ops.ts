/**
 * What the syntax needs to know about labels: the few lattice operations the parser, printer and
 * helpers use. Every `Lattice<L>` (src/lattice) is a `LabelOps<L>`; declaring the narrow interface here
 * keeps the syntax below the lattices in the dependency order (a lattice encodes its labels as syntax
 * values, so `src/lattice` imports `src/syntax/ast.ts`, never the other way round).
 */
import type { PlainValue } from './ast.ts';

export interface LabelOps<L> {
  readonly bottom: L;
  join(a: L, b: L): L;
  equals(a: L, b: L): boolean;
  /** Canonical rendering in surface syntax (the printer writes labels with it). */
  show(l: L): string;
  /** Decode a label-free value as a label, `undefined` when it is not one (the parser's static labels). */
  toLabel(v: PlainValue): L | undefined;
}
