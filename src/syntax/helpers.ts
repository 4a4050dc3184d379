/**
 * Helpers over the core AST (spec §3 "Helpers") and the constructors of the derived forms (spec §2).
 *
 * Traversals use explicit stacks, so terms of any depth are fine (`wrapValues` alone recurses, once
 * per level of a label-free value). Substitution returns the same object (`===`) for every
 * subtree without a free occurrence, using free-variable sets cached per node.
 */
import { eq } from '../distributions/rational.ts';
import { absurd } from '../util/absurd.ts';
import type { LabelOps } from './label-ops.ts';
import * as A from './ast.ts';
import type { BareValue, Expr, ExprKind, PlainValue, Value } from './ast.ts';

// ---------------------------------------------------------------------------------------------
// Kinds and children

const KIND_TABLE: Readonly<Record<ExprKind, true>> = {
  var: true, lam: true, app: true, send: true, recv: true, fork: true, clear: true, label: true,
  dynlabel: true, test: true, assert: true, endorse: true, num: true, str: true, bool: true, null: true,
  prim: true, record: true, array: true, field: true, index: true,
};

/** Every constructor of the core grammar (the table above makes the compiler check it is complete). */
export const ALL_KINDS: readonly ExprKind[] = Object.keys(KIND_TABLE) as ExprKind[];

/** Call `f` on each immediate subexpression, left to right. */
export function forEachChild<L>(e: Expr<L>, f: (c: Expr<L>) => void): void {
  switch (e.kind) {
    case 'var': case 'recv': case 'clear': case 'num': case 'str': case 'bool': case 'null':
      return;
    case 'lam':
      return f(e.body);
    case 'app':
      f(e.fn);
      return f(e.arg);
    case 'send':
      return f(e.arg);
    case 'fork':
      return f(e.body);
    case 'label':
      return f(e.body);
    case 'dynlabel': case 'test': case 'assert': case 'endorse':
      f(e.label);
      return f(e.body);
    case 'prim':
      return f(e.arg);
    case 'record':
      for (const fl of e.fields) f(fl.expr);
      return;
    case 'array':
      for (const x of e.elems) f(x);
      return;
    case 'field':
      return f(e.target);
    case 'index':
      f(e.target);
      return f(e.index);
    default:
      return absurd(e);
  }
}

/** The immediate subexpressions, left to right. */
export function children<L>(e: Expr<L>): Expr<L>[] {
  const out: Expr<L>[] = [];
  forEachChild(e, (c) => out.push(c));
  return out;
}

/**
 * Rebuild `e` with each immediate subexpression replaced by `f(child)`; returns `e` itself when
 * every child comes back identical, so unchanged subtrees stay shared. Label nodes keep their label.
 */
export function mapChildren<L>(e: Expr<L>, f: (c: Expr<L>) => Expr<L>): Expr<L> {
  switch (e.kind) {
    case 'var': case 'recv': case 'clear': case 'num': case 'str': case 'bool': case 'null':
      return e;
    case 'lam': {
      const b = f(e.body);
      return b === e.body ? e : A.lam(e.param, b);
    }
    case 'app': {
      const a = f(e.fn);
      const b = f(e.arg);
      return a === e.fn && b === e.arg ? e : A.app(a, b);
    }
    case 'send': {
      const a = f(e.arg);
      return a === e.arg ? e : A.send(a);
    }
    case 'fork': {
      const b = f(e.body);
      return b === e.body ? e : A.fork(b);
    }
    case 'label': {
      const b = f(e.body);
      return b === e.body ? e : A.labelled(e.label, b);
    }
    case 'dynlabel': case 'test': case 'assert': case 'endorse': {
      const l = f(e.label);
      const b = f(e.body);
      return l === e.label && b === e.body ? e : { kind: e.kind, label: l, body: b };
    }
    case 'prim': {
      const a = f(e.arg);
      return a === e.arg ? e : A.prim(e.name, a);
    }
    case 'record': {
      let changed = false;
      const fields = e.fields.map((fl) => {
        const x = f(fl.expr);
        if (x !== fl.expr) changed = true;
        return x === fl.expr ? fl : { name: fl.name, expr: x };
      });
      return changed ? A.record(fields) : e;
    }
    case 'array': {
      let changed = false;
      const elems = e.elems.map((x) => {
        const y = f(x);
        if (y !== x) changed = true;
        return y;
      });
      return changed ? A.array(elems) : e;
    }
    case 'field': {
      const t = f(e.target);
      return t === e.target ? e : A.field(t, e.name);
    }
    case 'index': {
      const t = f(e.target);
      const i = f(e.index);
      return t === e.target && i === e.index ? e : A.index(t, i);
    }
    default:
      return absurd(e);
  }
}

/** `e` with its immediate subexpressions replaced by `kids` (in `forEachChild` order), shared when unchanged. */
export function withChildren<L>(e: Expr<L>, kids: readonly Expr<L>[]): Expr<L> {
  let i = 0;
  return mapChildren(e, () => kids[i++] as Expr<L>);
}

/**
 * Bottom-up rebuild with an explicit stack (no recursion, so any depth): `leaf(e)` gives the
 * final result for `e` without visiting it, or undefined to visit its children; `combine` then
 * builds the result for `e` from its children's results.
 */
function rebuild<L, M>(
  root: Expr<L>,
  leaf: (e: Expr<L>) => Expr<M> | undefined,
  combine: (e: Expr<L>, kids: Expr<M>[]) => Expr<M>,
): Expr<M> {
  const first = leaf(root);
  if (first !== undefined) return first;
  const frames: { node: Expr<L>; kids: Expr<L>[]; done: Expr<M>[] }[] = [{ node: root, kids: children(root), done: [] }];
  for (;;) {
    const f = frames[frames.length - 1] as { node: Expr<L>; kids: Expr<L>[]; done: Expr<M>[] };
    if (f.done.length === f.kids.length) {
      frames.pop();
      const r = combine(f.node, f.done);
      const parent = frames[frames.length - 1];
      if (!parent) return r;
      parent.done.push(r);
      continue;
    }
    const c = f.kids[f.done.length] as Expr<L>;
    const r = leaf(c);
    if (r !== undefined) f.done.push(r);
    else frames.push({ node: c, kids: children(c), done: [] });
  }
}

// ---------------------------------------------------------------------------------------------
// Size, values, equality

/** Number of AST nodes (record fields are not nodes; their expressions are). */
export function size<L>(e: Expr<L>): number {
  let n = 0;
  const stack: Expr<L>[] = [e];
  const push = (c: Expr<L>): void => {
    stack.push(c);
  };
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    n++;
    forEachChild(x, push);
  }
  return n;
}

/** `V ::= l:v`: a label node whose body is a scalar, a lambda, or a record/array of values. */
export function isValue<L>(e: Expr<L>): e is Value<L> {
  const stack: Expr<L>[] = [e];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (x.kind !== 'label') return false;
    const b = x.body;
    switch (b.kind) {
      case 'num': case 'str': case 'bool': case 'null': case 'lam':
        continue;
      case 'record':
        for (const f of b.fields) stack.push(f.expr);
        continue;
      case 'array':
        for (const y of b.elems) stack.push(y);
        continue;
      default:
        return false;
    }
  }
  return true;
}

/** Where two ASTs first differ (pre-order), with the two differing subterms; undefined when equal. */
export interface ExprDifference<L> {
  /** Path from the root, e.g. `.fn.arg.elems[1]`; empty at the root. */
  readonly path: string;
  readonly left: Expr<L>;
  readonly right: Expr<L>;
}

/**
 * Structural comparison: labels by `lat.equals`, numbers by exact rational equality, record
 * fields in order. Returns the first difference, or undefined when the ASTs are equal.
 */
export function exprDiff<L>(lat: LabelOps<L>, a: Expr<L>, b: Expr<L>): ExprDifference<L> | undefined {
  const stack: [Expr<L>, Expr<L>, string][] = [[a, b, '']];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [x, y, path] = top;
    if (x === y) continue;
    const diff: ExprDifference<L> = { path, left: x, right: y };
    if (x.kind !== y.kind) return diff;
    // The pairs are pushed in reverse so the first difference in reading order is found first.
    const sub: [Expr<L>, Expr<L>, string][] = [];
    switch (x.kind) {
      case 'var':
        if (x.name !== (y as A.VarE).name) return diff;
        break;
      case 'recv': case 'clear': case 'null':
        break;
      case 'num':
        if (!eq(x.value, (y as A.NumE).value)) return diff;
        break;
      case 'str':
        if (x.value !== (y as A.StrE).value) return diff;
        break;
      case 'bool':
        if (x.value !== (y as A.BoolE).value) return diff;
        break;
      case 'lam': {
        const z = y as A.LamE<L>;
        if (x.param !== z.param) return diff;
        sub.push([x.body, z.body, `${path}.body`]);
        break;
      }
      case 'app': {
        const z = y as A.AppE<L>;
        sub.push([x.fn, z.fn, `${path}.fn`], [x.arg, z.arg, `${path}.arg`]);
        break;
      }
      case 'send':
        sub.push([x.arg, (y as A.SendE<L>).arg, `${path}.arg`]);
        break;
      case 'fork':
        sub.push([x.body, (y as A.ForkE<L>).body, `${path}.body`]);
        break;
      case 'label': {
        const z = y as A.LabelE<L>;
        if (!lat.equals(x.label, z.label)) return diff;
        sub.push([x.body, z.body, `${path}.body`]);
        break;
      }
      case 'dynlabel': case 'test': case 'assert': case 'endorse': {
        const z = y as A.DynLabelE<L>;
        sub.push([x.label, z.label, `${path}.label`], [x.body, z.body, `${path}.body`]);
        break;
      }
      case 'prim': {
        const z = y as A.PrimE<L>;
        if (x.name !== z.name) return diff;
        sub.push([x.arg, z.arg, `${path}.arg`]);
        break;
      }
      case 'record': {
        const z = y as A.RecordE<L>;
        if (x.fields.length !== z.fields.length) return diff;
        for (let i = 0; i < x.fields.length; i++) {
          const f = x.fields[i] as A.Field<Expr<L>>;
          const g = z.fields[i] as A.Field<Expr<L>>;
          if (f.name !== g.name) return { path: `${path}.fields[${i}].name`, left: x, right: z };
          sub.push([f.expr, g.expr, `${path}.fields[${i}]`]);
        }
        break;
      }
      case 'array': {
        const z = y as A.ArrayE<L>;
        if (x.elems.length !== z.elems.length) return diff;
        x.elems.forEach((e, i) => sub.push([e, z.elems[i] as Expr<L>, `${path}.elems[${i}]`]));
        break;
      }
      case 'field': {
        const z = y as A.FieldE<L>;
        if (x.name !== z.name) return diff;
        sub.push([x.target, z.target, `${path}.target`]);
        break;
      }
      case 'index': {
        const z = y as A.IndexE<L>;
        sub.push([x.target, z.target, `${path}.target`], [x.index, z.index, `${path}.index`]);
        break;
      }
      default:
        return absurd(x);
    }
    for (let i = sub.length - 1; i >= 0; i--) stack.push(sub[i] as [Expr<L>, Expr<L>, string]);
  }
  return undefined;
}

/** Structural equality (labels via `lat.equals`, numbers via exact rational equality). */
export function exprEquals<L>(lat: LabelOps<L>, a: Expr<L>, b: Expr<L>): boolean {
  return exprDiff(lat, a, b) === undefined;
}

// ---------------------------------------------------------------------------------------------
// Free variables and substitution

const EMPTY: ReadonlySet<string> = new Set();
const FREE_VARS = new WeakMap<object, ReadonlySet<string>>();

function unionOf(sets: ReadonlySet<string>[]): ReadonlySet<string> {
  let only: ReadonlySet<string> = EMPTY;
  let many: Set<string> | undefined;
  for (const s of sets) {
    if (s.size === 0 || s === only) continue;
    if (only.size === 0) {
      only = s;
      continue;
    }
    many ??= new Set(only);
    for (const x of s) many.add(x);
  }
  return many ?? only;
}

function freeVarsFromChildren<L>(e: Expr<L>): ReadonlySet<string> {
  if (e.kind === 'var') return new Set([e.name]);
  if (e.kind === 'lam') {
    const b = FREE_VARS.get(e.body) as ReadonlySet<string>;
    if (!b.has(e.param)) return b;
    const s = new Set(b);
    s.delete(e.param);
    return s.size === 0 ? EMPTY : s;
  }
  const sets: ReadonlySet<string>[] = [];
  forEachChild(e, (c) => sets.push(FREE_VARS.get(c) as ReadonlySet<string>));
  return unionOf(sets);
}

/**
 * The `var` nodes of `e` that are free occurrences of one of `names` (every such node, in no
 * particular order). Descends only into subterms where one of the names is still free, so the cost
 * is the size of the paths to those occurrences, at any depth.
 */
export function freeOccurrences<L>(e: Expr<L>, names: ReadonlySet<string>): A.VarE[] {
  const out: A.VarE[] = [];
  const stack: [Expr<L>, ReadonlySet<string>][] = [[e, names]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [x, wanted] = top;
    const free = freeVars(x);
    if (![...wanted].some((n) => free.has(n))) continue;
    if (x.kind === 'var') { out.push(x); continue; }
    let inner = wanted;
    if (x.kind === 'lam' && wanted.has(x.param)) {
      const s = new Set(wanted);
      s.delete(x.param);
      inner = s;
    }
    forEachChild(x, (c) => stack.push([c, inner]));
  }
  return out;
}

/** The free variables of `e` (cached per node; the returned set must not be modified). */
export function freeVars<L>(e: Expr<L>): ReadonlySet<string> {
  const known = FREE_VARS.get(e);
  if (known) return known;
  // Post-order with an explicit stack: children's sets exist before their parent's is built.
  const stack: [Expr<L>, boolean][] = [[e, false]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [x, ready] = top;
    if (FREE_VARS.has(x)) continue;
    if (ready) {
      FREE_VARS.set(x, freeVarsFromChildren(x));
      continue;
    }
    stack.push([x, true]);
    forEachChild(x, (c) => {
      if (!FREE_VARS.has(c)) stack.push([c, false]);
    });
  }
  return FREE_VARS.get(e) as ReadonlySet<string>;
}

/** No free variables. */
export function isClosed<L>(e: Expr<L>): boolean {
  return freeVars(e).size === 0;
}

/**
 * `e[x := V]` for a CLOSED `V` (so no capture can happen): replaces free occurrences of `x`, stops
 * under binders of `x`, and returns the same object for every subtree where `x` is not free.
 */
export function subst<L>(e: Expr<L>, x: string, V: Expr<L>): Expr<L> {
  freeVars(e); // fills the cache for every subtree at once
  // A binder of x is never visited: x is free in every visited node, so no lambda on the way binds it.
  return rebuild<L, L>(
    e,
    (n) => (!(FREE_VARS.get(n) as ReadonlySet<string>).has(x) ? n : n.kind === 'var' ? V : undefined),
    withChildren,
  );
}

/**
 * Simultaneous substitution of closed expressions for free variables (e.g. loading the prelude).
 * Throws (internal invariant) if a substituted expression is not closed.
 */
export function substMany<L>(e: Expr<L>, s: ReadonlyMap<string, Expr<L>>): Expr<L> {
  for (const [x, V] of s) {
    if (!isClosed(V)) throw new Error(`internal error: substMany needs closed expressions, but ${x}'s has free variables`);
  }
  return substManyClosed(e, s);
}

function substManyClosed<L>(e: Expr<L>, s: ReadonlyMap<string, Expr<L>>): Expr<L> {
  freeVars(e);
  const leaf = (n: Expr<L>): Expr<L> | undefined => {
    const fv = FREE_VARS.get(n) as ReadonlySet<string>;
    let hit = false;
    for (const x of s.keys()) if (fv.has(x)) hit = true;
    if (!hit) return n;
    if (n.kind === 'var') return s.get(n.name) ?? n;
    if (n.kind === 'lam' && s.has(n.param)) {
      // Each such nested call drops a name, so this recursion is at most |s| deep.
      const inner = new Map(s);
      inner.delete(n.param);
      return withChildren(n, [substManyClosed(n.body, inner)]);
    }
    return undefined;
  };
  return rebuild<L, L>(e, leaf, withChildren);
}

// ---------------------------------------------------------------------------------------------
// Labels: deepLabel, stripLabels, flatten, wrapValues

// Lambda bodies are code shared by many values, so their results are cached per node.
const DEEP_LABEL = new WeakMap<object, WeakMap<object, unknown>>();
const STRIPPED = new WeakMap<object, Expr<never>>();

/** `deepLabel(e)`: the join of every label anywhere inside `e` (fields, elements, lambda bodies). */
export function deepLabel<L>(lat: LabelOps<L>, e: Expr<L>): L {
  let cache = DEEP_LABEL.get(lat) as WeakMap<object, L> | undefined;
  if (!cache) DEEP_LABEL.set(lat, (cache = new WeakMap()));
  const known = cache;
  // Each lambda met at this level is computed once (its inner lambdas inline) and cached.
  let acc = lat.bottom;
  const stack: Expr<L>[] = [e];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (x.kind === 'lam') {
      let l = known.get(x);
      if (l === undefined) known.set(x, (l = joinLabelsInside(lat, x, known)));
      acc = lat.join(acc, l);
      continue;
    }
    if (x.kind === 'label') acc = lat.join(acc, x.label);
    forEachChild(x, (c) => stack.push(c));
  }
  return acc;
}

/** The join of all labels in `e`, using (but not filling) the cache for inner lambdas. */
function joinLabelsInside<L>(lat: LabelOps<L>, e: Expr<L>, known: WeakMap<object, L>): L {
  let acc = lat.bottom;
  const stack: Expr<L>[] = [e];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    const l = x !== e && x.kind === 'lam' ? known.get(x) : undefined;
    if (l !== undefined) {
      acc = lat.join(acc, l);
      continue;
    }
    if (x.kind === 'label') acc = lat.join(acc, x.label);
    forEachChild(x, (c) => stack.push(c));
  }
  return acc;
}

/** `stripLabels(e)`: erase every static label node (`l:e` becomes `e`) everywhere, lambda bodies included. */
export function stripLabels<L>(e: Expr<L>): Expr<never> {
  return rebuild<L, never>(
    e,
    (n) => (n.kind === 'lam' ? STRIPPED.get(n) : undefined),
    (n, kids) => {
      if (n.kind === 'label') return kids[0] as Expr<never>;
      // With no label below, withChildren returns the same node, which is then label-free.
      const r = withChildren(n as Expr<never>, kids);
      if (n.kind === 'lam') STRIPPED.set(n, r);
      return r;
    },
  );
}

/** `stripLabels` on a value: its label-free content. */
export function stripValue<L>(V: Value<L>): PlainValue {
  return stripLabels(V) as PlainValue;
}

/** `flatten(V) = deepLabel(V):stripLabels(V)`. */
export function flatten<L>(lat: LabelOps<L>, V: Value<L>): { readonly label: L; readonly value: PlainValue } {
  return { label: deepLabel(lat, V), value: stripValue(V) };
}

/** `wrapValues(v)`: put ⊥ on every nested field and element of a label-free value (lambda bodies untouched). */
export function wrapValues<L>(lat: LabelOps<L>, v: PlainValue): BareValue<L> {
  switch (v.kind) {
    case 'num': case 'str': case 'bool': case 'null': case 'lam':
      return v;
    case 'record': {
      const fields: A.Field<Value<L>>[] = [];
      for (const f of v.fields) fields.push({ name: f.name, expr: A.value(lat.bottom, wrapValues(lat, f.expr)) });
      return { kind: 'record', fields };
    }
    case 'array': {
      const elems: Value<L>[] = [];
      for (const x of v.elems) elems.push(A.value(lat.bottom, wrapValues(lat, x)));
      return { kind: 'array', elems };
    }
    default:
      return absurd(v);
  }
}

// ---------------------------------------------------------------------------------------------
// Derived forms (spec §2): the exact shapes the parser produces and prettyPrint re-sugars.

/** Operators expanded to `prim "binop_⊕" [e1, e2]`. */
export const BINOPS = ['+', '-', '*', '/', '%', '==', '<', '>', '<=', '>='] as const;
/** One of `BINOPS`. */
export type BinOp = (typeof BINOPS)[number];

/** `e1 ⊕ e2 ≜ prim "binop_⊕" [e1, e2]` */
export const binop = <L>(op: BinOp, a: Expr<L>, b: Expr<L>): Expr<L> => A.prim(`binop_${op}`, A.array([a, b]));

/** `if e1 then e2 else e3 ≜ (prim "fromBool" e1) (λ_. e2) (λ_. e3) {}` */
export const ifThenElse = <L>(c: Expr<L>, t: Expr<L>, f: Expr<L>): Expr<L> =>
  A.app(A.app(A.app(A.prim('fromBool', c), A.lam('_', t)), A.lam('_', f)), A.record([]));

/** `let x = e1 in e2 ≜ (λx. e2) e1` */
export const letIn = <L>(x: string, rhs: Expr<L>, body: Expr<L>): Expr<L> => A.app(A.lam(x, body), rhs);

/** `@e ≜ (λ_. recv) (send e)` */
export const ask = <L>(e: Expr<L>): Expr<L> => A.app(A.lam('_', A.recv), A.send(e));

/** `not e ≜ if e then false else true` */
export const logicalNot = <L>(e: Expr<L>): Expr<L> => ifThenElse(e, A.bool(false), A.bool(true));

/** `e1 && e2 ≜ if e1 then e2 else false` */
export const logicalAnd = <L>(a: Expr<L>, b: Expr<L>): Expr<L> => ifThenElse(a, b, A.bool(false));

/** `e1 || e2 ≜ if e1 then true else e2` */
export const logicalOr = <L>(a: Expr<L>, b: Expr<L>): Expr<L> => ifThenElse(a, A.bool(true), b);

/** `e1 != e2 ≜ if e1 == e2 then false else true` */
export const notEqual = <L>(a: Expr<L>, b: Expr<L>): Expr<L> => logicalNot(binop('==', a, b));

/** `e.s := e' ≜ prim "recordUpdate" [e, "s", e']` */
export const recordUpdate = <L>(target: Expr<L>, name: string, e: Expr<L>): Expr<L> =>
  A.prim('recordUpdate', A.array([target, A.str(name), e]));

/** `str(e) ≜ prim "toStr" e` */
export const toStr = <L>(e: Expr<L>): Expr<L> => A.prim('toStr', e);

/** `shape(e) ≜ prim "shape" e` */
export const shapeOf = <L>(e: Expr<L>): Expr<L> => A.prim('shape', e);

/**
 * An interpolated string from its pieces in order (texts and interpolated expressions):
 * `"a{e}b" ≜ "a" + str(e) + "b"`. Empty texts are omitted; the remaining parts are joined with
 * `binop_+` nested to the left; a single part stands alone (`"{e}"` is `str(e)`); no parts is `""`.
 */
export function interpolate<L>(pieces: readonly (string | Expr<L>)[]): Expr<L> {
  const parts: Expr<L>[] = [];
  for (const p of pieces) {
    if (typeof p !== 'string') parts.push(toStr(p));
    else if (p !== '') parts.push(A.str(p));
  }
  let acc = parts[0];
  if (acc === undefined) return A.str('');
  for (let i = 1; i < parts.length; i++) acc = binop('+', acc, parts[i] as Expr<L>);
  return acc;
}
