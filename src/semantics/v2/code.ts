/**
 * Evaluator v2, part 1: compiled code. An `Expr` is compiled once into a `Code` tree whose variables are
 * resolved to environment slots (flat closures: slot 0 is the lambda's parameter, slots 1… its captured
 * free variables, in `freeVars` order). Every node gets a global numeric id (its identity in memo and
 * frontier keys) and the list of slots it reads (`uses`), so a key mentions only the variables the code
 * can see — configurations that differ in unused variables merge, as their substituted forms would.
 */
import type { Expr, LamE } from '../../syntax/ast.ts';
import { freeVars } from '../../syntax/helpers.ts';
import { absurd } from '../../util/absurd.ts';

interface Base {
  /** Global identity of this compiled node. */
  readonly id: number;
  /** Environment slots read by this node (sorted, no duplicates). */
  readonly uses: readonly number[];
  /** Deterministic, conversation-preserving and cheap: evaluated inline without a task (see `quick`). */
  readonly quick: boolean;
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
 * Every node gets every kind's fields, in this order (those of other kinds undefined): V8 then sees ONE
 * object shape for all code, so the evaluators' reads of `k`, `quick`, `fn`, … stay monomorphic instead of
 * megamorphic (≈ 17 % less CPU on a deterministic loop, docs/benchmarks.md "deterministic loops and depth").
 */
const UNIFORM = {
  k: '', slot: -1, name: '', src: undefined, body: undefined, caps: undefined, capNames: undefined, fn: undefined,
  arg: undefined, label: undefined, e: undefined, names: undefined, elems: undefined, target: undefined, index: undefined,
} as const;

/** Compiled closed expressions (the top-level program, parsed responses, lambdas inside values). */
const CLOSED = new WeakMap<object, Code<unknown>>();

/** Compile a closed (or open: free variables become stuck `free` nodes) expression in the empty scope. */
export function compileClosed<L>(e: Expr<L>): Code<L> {
  let hit = CLOSED.get(e) as Code<L> | undefined;
  if (!hit) { hit = compile(e, []); CLOSED.set(e, hit as Code<unknown>); }
  return hit;
}

/**
 * Compile `e` in a scope (`scope[i]` is the name held in slot `i`). Recursion follows the AST's depth,
 * which the parser and generators keep small; evaluation itself never recurses on the JS stack.
 */
function compile<L>(e: Expr<L>, scope: readonly string[]): Code<L> {
  const slotOf = (x: string): number => scope.indexOf(x);
  const usesOf = (): number[] => {
    const out: number[] = [];
    for (const x of freeVars(e)) { const s = slotOf(x); if (s >= 0) out.push(s); }
    return out.sort((a, b) => a - b);
  };
  const mk = <C extends object>(c: C, quick: boolean): Code<L> =>
    Object.assign({ id: nextId++, uses: usesOf(), quick, ...UNIFORM }, c) as unknown as Code<L>;
  const sub = (x: Expr<L>): Code<L> => compile(x, scope);
  switch (e.kind) {
    case 'var': {
      const s = slotOf(e.name);
      return s >= 0 ? mk({ k: 'var', slot: s, name: e.name }, true) : mk({ k: 'free', name: e.name }, true);
    }
    case 'lam': {
      const capNames = [...freeVars(e)].filter((x) => slotOf(x) >= 0);
      const body = compile(e.body, [e.param, ...capNames]);
      return mk({ k: 'lam', src: e, body, caps: capNames.map(slotOf), capNames }, true);
    }
    case 'app': return mk({ k: 'app', fn: sub(e.fn), arg: sub(e.arg) }, false);
    case 'send': return mk({ k: 'send', arg: sub(e.arg) }, false);
    case 'recv': return mk({ k: 'recv' }, false);
    case 'fork': return mk({ k: 'fork', body: sub(e.body) }, false);
    case 'clear': return mk({ k: 'clear' }, false);
    case 'label': { const body = sub(e.body); return mk({ k: 'label', label: e.label, body }, body.quick); }
    case 'dynlabel': case 'test': case 'assert': case 'endorse':
      return mk({ k: e.kind, label: sub(e.label), body: sub(e.body) }, false);
    case 'num': case 'str': case 'bool': case 'null': return mk({ k: 'scalar', e }, true);
    case 'prim': { const arg = sub(e.arg); return mk({ k: 'prim', name: e.name, arg }, arg.quick); }
    case 'record': {
      const elems = e.fields.map((f) => sub(f.expr));
      return mk({ k: 'record', names: e.fields.map((f) => f.name), elems }, elems.every((c) => c.quick));
    }
    case 'array': { const elems = e.elems.map(sub); return mk({ k: 'array', elems }, elems.every((c) => c.quick)); }
    case 'field': { const target = sub(e.target); return mk({ k: 'field', target, name: e.name }, target.quick); }
    case 'index': {
      const target = sub(e.target), index = sub(e.index);
      return mk({ k: 'index', target, index }, target.quick && index.quick);
    }
    default: return absurd(e);
  }
}
