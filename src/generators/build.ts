/**
 * Small constructors of raw generator terms (`#k` references, holes), shared by `programs.ts` and
 * `gadgets.ts`. Sugar is built exactly as the parser expands it, so printed programs read back.
 */
import * as Q from '../distributions/rational.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { eraseExpr } from '../observe/indist.ts';
import { holeNode } from './hole.ts';

export const num = (n: number, d = 1): Expr<never> => ({ kind: 'num', value: Q.rat(n, d) });
export const str = (s: string): Expr<never> => ({ kind: 'str', value: s });
export const bool = (b: boolean): Expr<never> => ({ kind: 'bool', value: b });
/** The `k`-th binder in scope (resolved modulo the scope's size by `resolve`). */
export const ref = (k: number): Expr<never> => ({ kind: 'var', name: `#${k}` });
export const lam = <L>(body: Expr<L>, used = true): Expr<L> => ({ kind: 'lam', param: used ? 'x' : '_', body });
export const app = <L>(fn: Expr<L>, arg: Expr<L>): Expr<L> => ({ kind: 'app', fn, arg });
export const prim = <L>(name: string, arg: Expr<L>): Expr<L> => ({ kind: 'prim', name, arg });
export const arr = <L>(...elems: Expr<L>[]): Expr<L> => ({ kind: 'array', elems });
export const rec = <L>(...fields: (readonly [string, Expr<L>])[]): Expr<L> => ({ kind: 'record', fields: fields.map(([name, expr]) => ({ name, expr })) });
export const labelled = <L>(label: L, body: Expr<L>): Expr<L> => ({ kind: 'label', label, body });
export const unit: Expr<never> = { kind: 'record', fields: [] };

/** A high hole `l:•` with the two sides' fillings. */
export const hole = holeNode;

/** Make the two fillings of a hole differ (an identical pair tests nothing). */
export function differing<L>(lat: Lattice<L>, top: L, a: Expr<L>, b: Expr<L>): [Expr<L>, Expr<L>] {
  if (eraseExpr(lat, top, a) !== eraseExpr(lat, top, b)) return [a, b];
  if (b.kind === 'bool') return [a, bool(!b.value)];
  if (b.kind === 'num') return [a, { kind: 'num', value: Q.add(b.value, Q.ONE) }];
  return [a, bool(!(a.kind === 'bool' && a.value))];
}

/** `let x = e1 in e2` as the parser expands it. */
export const letIn = <L>(e1: Expr<L>, e2: Expr<L>): Expr<L> => app(lam(e2), e1);
/** `if c then a else b` exactly as the parser expands it. */
export const ifThen = <L>(c: Expr<L>, a: Expr<L>, b: Expr<L>): Expr<L> =>
  app(app(app(prim('fromBool', c), { kind: 'lam', param: '_', body: a }), { kind: 'lam', param: '_', body: b }), unit);
/** `@e` ≜ `(λ_. recv) (send e)`. */
export const ask = <L>(e: Expr<L>): Expr<L> => app({ kind: 'lam', param: '_', body: { kind: 'recv' } }, { kind: 'send', arg: e });
export const binop = <L>(op: string, a: Expr<L>, b: Expr<L>): Expr<L> => prim(`binop_${op}`, arr(a, b));
