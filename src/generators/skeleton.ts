/**
 * Pairs as one skeleton with high holes, in both directions: from two surface programs back to the
 * generators' raw skeleton (so a saved or hand-written pair can be judged by the suites and shrunk
 * as a pair), and from a skeleton to a rendering with the differing high parts marked
 * `⟦l: run 0 | run 1⟧`.
 *
 * Raw form (src/generators/programs.ts): variables are `#k` references resolved against the binders
 * in scope, lambda parameters are renamed by `resolve`, and a hole is `l:(prim "__hole" [left, right])`.
 */
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { children, exprEquals, freeVars, size, withChildren } from '../syntax/helpers.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { resolve } from './programs.ts';
import { holeNode, holeParts } from './hole.ts';
import type { PairCase } from './pairs.ts';
import { programOf } from './pairs.ts';

/** A skeleton could not be built: the two programs are not related by one shared low skeleton. */
export interface NotRelated {
  readonly ok: false;
  /** Where the programs differ, as a path from the root (`.fn.arg`…). */
  readonly path: string;
  readonly reason: string;
}

/** The outcome of `mergePrograms`. */
export type MergeResult<L> = { readonly ok: true; readonly skeleton: Expr<L> } | NotRelated;

export { holeNode, holeParts } from './hole.ts';

/**
 * A closed named program in raw form: each variable becomes `#j`, `j` the index of its binder among
 * the named binders in scope (outermost first), which is exactly what `resolve` maps back. Parameters
 * named `_` that are never used stay `_` (resolve keeps them out of scope). Throws on a free variable:
 * close the program over the prelude first.
 */
export function toRaw<L>(e: Expr<L>): Expr<L> {
  const go = (x: Expr<L>, scope: readonly string[]): Expr<L> => {
    switch (x.kind) {
      case 'var': {
        const j = scope.lastIndexOf(x.name);
        if (j < 0) throw new Error(`internal error: toRaw needs a closed program; ${x.name} is free`);
        return { kind: 'var', name: `#${j}` };
      }
      case 'lam': {
        if (x.param === '_' && !freeVars(x.body).has('_')) return { kind: 'lam', param: '_', body: go(x.body, scope) };
        return { kind: 'lam', param: 'x', body: go(x.body, [...scope, x.param]) };
      }
      default:
        return withChildren(x, children(x).map((c) => go(c, scope)));
    }
  };
  return go(e, []);
}

/** Do two nodes agree on everything but their children (kind, name, literal, label, field names)? */
function sameHead<L>(lat: Lattice<L>, a: Expr<L>, b: Expr<L>): boolean {
  const ka = children(a), kb = children(b);
  if (a.kind !== b.kind || ka.length !== kb.length) return false;
  const blank: Expr<L>[] = ka.map(() => ({ kind: 'null' }));
  return exprEquals(lat, withChildren(a, blank), withChildren(b, blank));
}

/**
 * The shared skeleton of two closed programs `e0 ∼obs e1`: equal parts are shared, and every static
 * label node `l:…` with `l ⋢ obs` whose bodies differ becomes a hole. Anything else that differs means
 * the programs are not related by one low skeleton (the generators never produce such pairs).
 */
export function mergePrograms<L>(lat: Lattice<L>, obs: L, e0: Expr<L>, e1: Expr<L>): MergeResult<L> {
  for (const [i, e] of [e0, e1].entries()) {
    const free = [...freeVars(e)];
    if (free.length > 0) return { ok: false, path: '', reason: `program ${i} has unbound variable(s) ${free.join(', ')}` };
  }
  let failure: NotRelated | undefined;
  const go = (a: Expr<L>, b: Expr<L>, path: string): Expr<L> => {
    if (failure) return a;
    if (exprEquals(lat, a, b)) return a;
    if (a.kind === 'label' && b.kind === 'label' && !lat.leq(a.label, obs)) {
      if (!lat.equals(a.label, b.label)) {
        failure = { ok: false, path, reason: `high labels differ (${lat.show(a.label)} vs ${lat.show(b.label)}); a pair shares the label of each hole` };
        return a;
      }
      return holeNode(a.label, a.body, b.body);
    }
    if (!sameHead(lat, a, b)) {
      failure = { ok: false, path, reason: `the programs differ outside any label ⋢ ${lat.show(obs)}: ${prettyPrint(a, lat)} vs ${prettyPrint(b, lat)}` };
      return a;
    }
    const kb = children(b);
    return withChildren(a, children(a).map((c, i) => go(c, kb[i]!, `${path}/${i}`)));
  };
  const skeleton = go(toRaw(e0), toRaw(e1), '');
  return failure ?? { ok: true, skeleton };
}

/** AST nodes of both programs of a pair (the counterexample size the catalogue records). */
export function pairSize<L>(c: PairCase<L>): number {
  return size(programOf(c, 0)) + size(programOf(c, 1));
}

/** Prim name of a hole kept through `resolve` (an ordinary prim to it, so both fillings get resolved). */
const MARK = '__mark';

/** `resolve`, keeping the holes: every hole's two fillings are resolved in the hole's scope. */
export function resolveBoth<L>(skeleton: Expr<L>): Expr<L> {
  const rename = (e: Expr<L>): Expr<L> => {
    const h = holeParts(e);
    if (h) return { kind: 'label', label: h.label, body: { kind: 'prim', name: MARK, arg: { kind: 'array', elems: [rename(h.left), rename(h.right)] } } };
    return withChildren(e, children(e).map(rename));
  };
  const back = (e: Expr<L>): Expr<L> => {
    if (e.kind === 'label' && e.body.kind === 'prim' && e.body.name === MARK && e.body.arg.kind === 'array') {
      return holeNode(e.label, back(e.body.arg.elems[0]!), back(e.body.arg.elems[1]!));
    }
    return withChildren(e, children(e).map(back));
  };
  return back(resolve(rename(skeleton), 0));
}

/**
 * The pair in one line of surface syntax with each hole shown as `⟦l: run 0 | run 1⟧`
 * (`skeleton` raw, as in a `PairCase`).
 */
export function showSkeleton<L>(lat: Lattice<L>, skeleton: Expr<L>): string {
  const marks: string[] = [];
  const place = (e: Expr<L>): Expr<L> => {
    const h = holeParts(e);
    if (h) {
      marks.push(`⟦${lat.show(h.label)}: ${prettyPrint(h.left, lat)} | ${prettyPrint(h.right, lat)}⟧`);
      return { kind: 'var', name: `__hole${marks.length - 1}__` };
    }
    return withChildren(e, children(e).map(place));
  };
  const text = prettyPrint(place(resolveBoth(skeleton)), lat);
  return text.replace(/__hole(\d+)__/g, (_, i: string) => marks[Number(i)]!);
}

/** Number of holes in a skeleton (places where the two runs differ). */
export function holeCount<L>(skeleton: Expr<L>): number {
  if (holeParts(skeleton)) return 1;
  return children(skeleton).reduce((n, c) => n + holeCount(c), 0);
}
