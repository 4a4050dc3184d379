/**
 * Evaluator v2, part 1: compiled code. An `Expr` is compiled once into a `Code` tree whose variables are
 * resolved to environment slots (flat closures: slot 0 is the lambda's parameter, slots 1… its captured
 * free variables, in `freeVars` order). Every node gets a global numeric id (its identity in memo and
 * frontier keys) and the list of slots it reads (`uses`), so a key mentions only the variables the code
 * can see — configurations that differ in unused variables merge, as their substituted forms would.
 */
import type { Expr, LamE } from '../../syntax/ast.ts';
import { absurd } from '../../util/absurd.ts';

interface Base {
  /** Global identity of this compiled node. */
  readonly id: number;
  /** Environment slots read by this node (sorted, no duplicates). */
  readonly uses: readonly number[];
  /** Deterministic, conversation-preserving and cheap: evaluated inline without a task (see `quick`). */
  readonly quick: boolean;
  /** The deterministic fast path's cache for this node (direct.ts: its fused shape), undefined until it looks. */
  fast: unknown;
  /**
   * The last machine that merged two next-round entries of this node, or two outcomes of a sub-derivation of it
   * (`Machine.addNextKeyed`, `addOut`): a depth-first
   * run of that machine, once it has branched, gives up here rather than enumerate paths that merge.
   */
  merged: unknown;
}

export type Code<L> = Base & (
  | { readonly k: 'var'; readonly slot: number; readonly name: string }
  | { readonly k: 'free'; readonly name: string }
  | { readonly k: 'lam'; readonly src: LamE<L>; readonly body: Code<L>; readonly caps: readonly number[]; readonly capNames: readonly string[] }
  | { readonly k: 'app'; readonly fn: Code<L>; readonly arg: Code<L> }
  | { readonly k: 'send'; readonly arg: Code<L> }
  | { readonly k: 'recv' }
  | { readonly k: 'fork'; readonly body: Code<L> }
  | { readonly k: 'clear' }
  | { readonly k: 'label'; readonly label: L; readonly body: Code<L> }
  | { readonly k: 'dynlabel' | 'test' | 'assert' | 'endorse'; readonly label: Code<L>; readonly body: Code<L> }
  | { readonly k: 'scalar'; readonly e: Expr<L> & { kind: 'num' | 'str' | 'bool' | 'null' } }
  | { readonly k: 'prim'; readonly name: string; readonly arg: Code<L> }
  | { readonly k: 'record'; readonly names: readonly string[]; readonly elems: readonly Code<L>[] }
  | { readonly k: 'array'; readonly elems: readonly Code<L>[] }
  | { readonly k: 'field'; readonly target: Code<L>; readonly name: string }
  | { readonly k: 'index'; readonly target: Code<L>; readonly index: Code<L> }
);

export type LamCode<L> = Code<L> & { readonly k: 'lam' };

let nextId = 1;

/**
 * Compiled closed expressions met during evaluation (parsed responses, lambdas inside values): one code per
 * expression, so that equal closures have equal code ids and their configurations merge.
 */
const CLOSED = new WeakMap<object, Code<unknown>>();

/** Compile a closed (or open: free variables become stuck `free` nodes) expression in the empty scope, cached. */
export function compileClosed<L>(e: Expr<L>): Code<L> {
  let hit = CLOSED.get(e) as Code<L> | undefined;
  if (!hit) {
    hit = compileProgram(e);
    CLOSED.set(e, hit as Code<unknown>);
  }
  return hit;
}

/**
 * Compile an evaluation's top-level program in the empty scope, NOT cached: its code lives as long as the
 * evaluation. Cached (keyed by the program, which a property runner keeps while it shrinks or reports), each
 * program's code outlived its evaluation, and with it the machine its nodes' `fast`/`merged` slots point to;
 * V8 then promotes code nodes to the old generation and allocates them there from then on. Suites evaluate a
 * fresh program per case: TIPNI on powerset-us took 22–30 % less CPU once warm without the cache (same cases,
 * docs/benchmarks.md, thirteenth round). Compiling again costs ≈ 2 µs for 25 nodes.
 */
export function compileProgram<L>(e: Expr<L>): Code<L> {
  const fv = new Map<Expr<L>, readonly string[]>();
  freeList(e, fv);
  return compile(e, [], fv);
}

const NONE: readonly string[] = [];

/**
 * The free variables of every subterm of `e`, into `fv`, each list in the order of `freeVars` (first
 * occurrence, children left to right). A local table rather than `freeVars`'s global cache: a program is
 * compiled once, and a global WeakMap entry per AST node is expensive for the garbage collector.
 */
function freeList<L>(e: Expr<L>, fv: Map<Expr<L>, readonly string[]>): readonly string[] {
  let out = fv.get(e);
  if (out !== undefined) return out; // a subterm shared by substitution (the AST may be a DAG)
  switch (e.kind) {
    case 'var': out = [e.name]; break;
    case 'lam': {
      const b = freeList(e.body, fv);
      out = b.includes(e.param) ? b.filter((x) => x !== e.param) : b;
      break;
    }
    case 'recv': case 'clear': case 'num': case 'str': case 'bool': case 'null': out = NONE; break;
    case 'app': out = union2(freeList(e.fn, fv), freeList(e.arg, fv)); break;
    case 'send': out = freeList(e.arg, fv); break;
    case 'fork': case 'label': out = freeList(e.body, fv); break;
    case 'dynlabel': case 'test': case 'assert': case 'endorse': out = union2(freeList(e.label, fv), freeList(e.body, fv)); break;
    case 'prim': out = freeList(e.arg, fv); break;
    case 'record': { let u = NONE; for (const f of e.fields) u = union2(u, freeList(f.expr, fv)); out = u; break; }
    case 'array': { let u = NONE; for (const x of e.elems) u = union2(u, freeList(x, fv)); out = u; break; }
    case 'field': out = freeList(e.target, fv); break;
    case 'index': out = union2(freeList(e.target, fv), freeList(e.index, fv)); break;
    default: return absurd(e);
  }
  fv.set(e, out);
  return out;
}

/** `a` then the names of `b` not in `a` (as a Set union keeps insertion order). */
function union2(a: readonly string[], b: readonly string[]): readonly string[] {
  if (b.length === 0 || a === b) return a;
  if (a.length === 0) return b;
  let out: string[] | undefined;
  for (const x of b) if (!a.includes(x)) (out ??= [...a]).push(x);
  return out ?? a;
}

/** The environment slots `e` reads in `scope`, sorted (its free variables that the scope binds). */
function usesOf<L>(e: Expr<L>, scope: readonly string[], fv: Map<Expr<L>, readonly string[]>): number[] {
  const out: number[] = [];
  for (const x of fv.get(e)!) { const s = scope.indexOf(x); if (s >= 0) out.push(s); }
  return out.length > 1 ? out.sort(bySlot) : out;
}

const bySlot = (a: number, b: number): number => a - b;

function compileAll<L>(xs: readonly Expr<L>[], scope: readonly string[], fv: Map<Expr<L>, readonly string[]>): Code<L>[] {
  const out = new Array<Code<L>>(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = compile(xs[i]!, scope, fv);
  return out;
}

function allQuick<L>(cs: readonly Code<L>[]): boolean {
  for (const c of cs) if (!c.quick) return false;
  return true;
}

/**
 * Compile `e` in a scope (`scope[i]` is the name held in slot `i`). Recursion follows the AST's depth,
 * which the parser and generators keep small; evaluation itself never recurses on the JS stack.
 * (No closures are created per call: compiling is on the path of every evaluation of a fresh program.)
 *
 * The node is built by ONE object literal at the end, with every kind's fields in one order (those of other
 * kinds undefined): V8 then sees one shape for all code, so the evaluators' reads of `k`, `quick`, `fn`, … stay
 * monomorphic instead of megamorphic (≈ 17 % less CPU on a deterministic loop, docs/benchmarks.md
 * "deterministic loops and depth"). One literal, not one per kind (or a helper called from every case), also keeps this
 * function small for V8's optimising compiler, which runs while a suite's first cases are evaluated
 * (docs/evaluator-v2.md, "Cold evaluations"). Its id is taken after its children's (post-order).
 */
function compile<L>(e: Expr<L>, scope: readonly string[], fv: Map<Expr<L>, readonly string[]>): Code<L> {
  let k: string, quick: boolean, slot = -1, name = '';
  let src: LamE<L> | undefined, body: Code<L> | undefined, caps: number[] | undefined, capNames: string[] | undefined;
  let fn: Code<L> | undefined, arg: Code<L> | undefined, label: unknown, lit: Expr<L> | undefined, names: string[] | undefined;
  let elems: Code<L>[] | undefined, target: Code<L> | undefined, index: Code<L> | undefined;
  switch (e.kind) {
    case 'var': {
      slot = scope.indexOf(e.name);
      k = slot >= 0 ? 'var' : 'free';
      name = e.name; quick = true;
      break;
    }
    case 'lam': {
      capNames = [];
      for (const x of fv.get(e)!) if (scope.indexOf(x) >= 0) capNames.push(x);
      body = compile(e.body, [e.param, ...capNames], fv);
      caps = new Array<number>(capNames.length);
      for (let i = 0; i < capNames.length; i++) caps[i] = scope.indexOf(capNames[i]!);
      k = 'lam'; src = e; quick = true;
      break;
    }
    case 'app': fn = compile(e.fn, scope, fv); arg = compile(e.arg, scope, fv); k = 'app'; quick = false; break;
    case 'send': arg = compile(e.arg, scope, fv); k = 'send'; quick = false; break;
    case 'recv': case 'clear': k = e.kind; quick = false; break;
    case 'fork': body = compile(e.body, scope, fv); k = 'fork'; quick = false; break;
    case 'label': body = compile(e.body, scope, fv); k = 'label'; label = e.label; quick = body.quick; break;
    case 'dynlabel': case 'test': case 'assert': case 'endorse':
      label = compile(e.label, scope, fv); body = compile(e.body, scope, fv); k = e.kind; quick = false;
      break;
    case 'num': case 'str': case 'bool': case 'null': k = 'scalar'; lit = e; quick = true; break;
    case 'prim': arg = compile(e.arg, scope, fv); k = 'prim'; name = e.name; quick = arg.quick; break;
    case 'record': {
      names = new Array<string>(e.fields.length);
      const exprs = new Array<Expr<L>>(e.fields.length);
      for (let i = 0; i < e.fields.length; i++) { names[i] = e.fields[i]!.name; exprs[i] = e.fields[i]!.expr; }
      elems = compileAll(exprs, scope, fv); k = 'record'; quick = allQuick(elems);
      break;
    }
    case 'array': elems = compileAll(e.elems, scope, fv); k = 'array'; quick = allQuick(elems); break;
    case 'field': target = compile(e.target, scope, fv); k = 'field'; name = e.name; quick = target.quick; break;
    case 'index':
      target = compile(e.target, scope, fv); index = compile(e.index, scope, fv); k = 'index'; quick = target.quick && index.quick;
      break;
    default: return absurd(e);
  }
  return {
    id: nextId++, uses: usesOf(e, scope, fv), quick, k, slot, name, src, body, caps, capNames, fn, arg, label, e: lit, names,
    elems, target, index, fast: undefined, merged: undefined,
  } as unknown as Code<L>;
}

/**
 * `c`, a lambda's body, moved into the lambda's enclosing environment: a copy that reads slot s ≥ 1 (the captured
 * value `caps[s − 1]` of the enclosing environment) from that slot directly, so that the body can run without an
 * environment of its own; undefined when it reads slot 0 (the lambda's parameter) or holds a lambda that captures
 * (its closure would have other code than the rules give it). Subtrees that read no slot are shared, not copied.
 * Used by the fast path for an `if`'s branches (direct.ts, IF).
 */
export function relocate<L>(c: Code<L>, caps: readonly number[]): Code<L> | undefined {
  if (c.uses.length === 0) return c;
  if (c.k === 'lam') return undefined;
  // Pushed, as `usesOf` makes them: a packed array, so that every code node's `uses` has one map (a holey one here
  // made the fast path's reads of `uses` deoptimise when relocated code first met them: docs/evaluator-v2.md,
  // "Measurements", twenty-seventh round).
  const uses: number[] = [];
  for (let i = 0; i < c.uses.length; i++) {
    const s = c.uses[i]!;
    if (s === 0) return undefined;
    uses.push(caps[s - 1]!);
  }
  if (uses.length > 1) uses.sort(bySlot);
  const n = c as Code<L> & { slot: number; fn?: Code<L>; arg?: Code<L>; body?: Code<L>; label?: unknown; elems?: readonly Code<L>[]; target?: Code<L>; index?: Code<L> };
  const sub = (x: Code<L> | undefined): Code<L> | undefined | null => (x === undefined ? undefined : relocate(x, caps) ?? null);
  const fn = sub(n.fn), arg = sub(n.arg), body = sub(n.body), target = sub(n.target), index = sub(n.index);
  const label = c.k === 'dynlabel' || c.k === 'test' || c.k === 'assert' || c.k === 'endorse' ? sub(c.label) : n.label;
  if (fn === null || arg === null || body === null || target === null || index === null || label === null) return undefined;
  let elems: Code<L>[] | undefined;
  if (n.elems !== undefined) {
    elems = new Array<Code<L>>(n.elems.length);
    for (let i = 0; i < elems.length; i++) { const x = relocate(n.elems[i]!, caps); if (x === undefined) return undefined; elems[i] = x; }
  }
  // (Spread first: the copy keeps the one field order every code node has — see `compile`.)
  return { ...c, id: nextId++, uses, slot: c.k === 'var' ? caps[c.slot - 1]! : n.slot, fn, arg, body, label, elems, target, index, fast: undefined, merged: undefined } as unknown as Code<L>;
}
