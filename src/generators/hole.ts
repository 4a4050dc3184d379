/**
 * The one owner of the hole encoding. A pair of runs is generated as one *skeleton* whose high holes
 * hold both runs' subterms: `l:(prim "__hole" [left, right])` with `l ⋢ m`. Everything that builds or
 * reads a hole (the generators, `resolve`, the skeleton printer, the minimiser, the PPMF bridge) goes
 * through these three names. A hole never reaches the evaluator: `resolve` picks a side first.
 */
import type { Expr } from '../syntax/ast.ts';

/** The primitive name that marks a hole. */
export const HOLE = '__hole';

/** The hole node `label:(prim "__hole" [left, right])`. */
export function holeNode<L>(label: L, left: Expr<L>, right: Expr<L>): Expr<L> {
  return { kind: 'label', label, body: { kind: 'prim', name: HOLE, arg: { kind: 'array', elems: [left, right] } } };
}

/** The parts of a hole node, or `undefined` when `e` is not one. */
export function holeParts<L>(e: Expr<L>): { readonly label: L; readonly left: Expr<L>; readonly right: Expr<L> } | undefined {
  if (e.kind !== 'label' || e.body.kind !== 'prim' || e.body.name !== HOLE || e.body.arg.kind !== 'array') return undefined;
  const [left, right] = e.body.arg.elems;
  return left !== undefined && right !== undefined && e.body.arg.elems.length === 2 ? { label: e.label, left, right } : undefined;
}
