/**
 * Checking a primitive before shipping it. A primitive is an entry of the model's `primEval` table
 * (spec §4): a function from a label-free value to a label-free value, or a failure. The Prim rule
 * labels its result `pc ⊔ deepLabel(V)`, which is sound exactly when the primitive keeps its contract:
 * its result is a closed, label-free value that depends on its argument alone.
 *
 * Three tools, used by `llmbda hunt --prims FILE.ts` and the tests:
 * - `withPrims`: a semantics whose models have extra primitives (every rule, Prim included, unchanged);
 * - `injectPrimCalls`: generated programs that call the new primitives (else the suites never would);
 * - `primContract`: a property suite for the contract itself (label-free, closed, a pure function).
 */
import { importUserModule } from '../util/user-module.ts';
import { guardUserFn } from '../util/user-code.ts';
import fc from 'fast-check';
import * as Q from '../distributions/rational.ts';
import type { Expr, PlainValue } from '../syntax/ast.ts';
import { children, freeVars, withChildren } from '../syntax/helpers.ts';
import { showPlain } from '../semantics/serialise.ts';
import type { PrimResult, PrimTable } from '../semantics/model.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import type { Ev } from '../semantics/ev.ts';
import { fails, HOLDS, type PropertySuite } from '../runner/suite.ts';
import type { PairCase, SingleCase } from '../generators/pairs.ts';
import { absurd, UserError } from '../util/absurd.ts';

/** Where a value breaks the primEval contract, or undefined when it is a closed label-free value. */
export function contractViolation(v: unknown): string | undefined {
  const go = (x: Expr<unknown>, path: string): string | undefined => {
    switch (x.kind) {
      case 'num': case 'str': case 'bool': case 'null': return undefined;
      case 'lam': {
        const free = [...freeVars(x)];
        if (free.length > 0) return `${path || 'the result'} is a function with free variable(s) ${free.join(', ')}`;
        return labelInside(x, path);
      }
      case 'record': {
        for (const f of x.fields) { const r = go(f.expr, `${path}.${f.name}`); if (r) return r; }
        return undefined;
      }
      case 'array': {
        for (const [i, y] of x.elems.entries()) { const r = go(y, `${path}[${i}]`); if (r) return r; }
        return undefined;
      }
      case 'label': return `${path || 'the result'} carries a label: a primitive must return a label-free value (the Prim rule labels it)`;
      case 'var': case 'app': case 'send': case 'recv': case 'fork': case 'clear': case 'dynlabel': case 'test':
      case 'assert': case 'endorse': case 'prim': case 'field': case 'index':
        return `${path || 'the result'} is code (${x.kind}), not a value`;
      default: return absurd(x);
    }
  };
  if (typeof v !== 'object' || v === null || !('kind' in v)) return 'the result is not an LLMbda value';
  return go(v as Expr<unknown>, '');
}

/** A label node anywhere inside a lambda body. */
function labelInside(e: Expr<unknown>, path: string): string | undefined {
  if (e.kind === 'label') return `${path || 'the result'} is a function whose body contains a label`;
  for (const c of children(e)) { const r = labelInside(c, path); if (r) return r; }
  return undefined;
}

/** Raised when an added primitive breaks its contract during evaluation (the suites report it). */
export class PrimContractError extends Error {
  override readonly name = 'PrimContractError';
}

/**
 * `sem` with `prims` added to every model's primitive table: rules are untouched, only `ev.primEval`
 * looks in `prims` first. A result that breaks the contract raises `PrimContractError`, so a suite
 * run reports it as a counterexample instead of silently trusting it.
 */
export function withPrims(sem: Semantics, prims: PrimTable): Semantics {
  const views = new WeakMap<object, unknown>();
  const view = <L>(ev: Ev<L>): Ev<L> => {
    let v = views.get(ev) as Ev<L> | undefined;
    if (!v) {
      const primEval = (p: string, x: PlainValue): PrimResult => {
        const f = prims[p];
        if (!f) return ev.primEval(p, x);
        const r = f(x);
        if (r.ok) {
          const bad = contractViolation(r.value);
          if (bad) throw new PrimContractError(`primitive ${JSON.stringify(p)} broke the primEval contract on ${showPlain(x)}: ${bad}`);
        }
        return r;
      };
      // Every other member (the memo, the step counter, eval itself) is the evaluation's own.
      v = new Proxy(ev, { get: (t, k) => (k === 'primEval' ? primEval : Reflect.get(t, k, t)) }) as Ev<L>;
      views.set(ev, v);
    }
    return v;
  };
  return {
    ...sem,
    name: `${sem.name}+prims`,
    rules: { ...sem.rules, Prim: (ev, pc, conv, e, fuel) => sem.rules.Prim(prims[e.name] ? view(ev) : ev, pc, conv, e, fuel) },
  };
}

/** Replace the generated `toStr`/`shape` calls by calls to `names`, in turn (pre-order). */
export function callPrims<L>(e: Expr<L>, names: readonly string[]): Expr<L> {
  let i = 0;
  const go = (x: Expr<L>): Expr<L> => {
    const kids = children(x).map(go);
    const y = withChildren(x, kids);
    if (y.kind === 'prim' && (y.name === 'toStr' || y.name === 'shape') && names.length > 0) {
      return { kind: 'prim', name: names[i++ % names.length]!, arg: y.arg };
    }
    return y;
  };
  return go(e);
}

/**
 * A suite's generator, with programs that call the new primitives: every generated `toStr`/`shape`
 * call becomes a call to one of `names` (shrinking still works: it shrinks the original case).
 */
export function injectPrimCalls<C>(arb: fc.Arbitrary<C>, names: readonly string[]): fc.Arbitrary<C> {
  if (names.length === 0) return arb;
  return arb.map((c) => {
    const x = c as unknown as PairCase<unknown> | SingleCase<unknown>;
    if ('skeleton' in x) return { ...x, skeleton: callPrims(x.skeleton, names) } as unknown as C;
    return { ...x, expr: callPrims(x.expr, names) } as unknown as C;
  });
}

/** A `--prims FILE.ts` module: `export const prims: PrimTable` (or a default export). */
export async function loadPrimsFile(file: string): Promise<PrimTable> {
  const mod = await importUserModule(file, 'primitives file');
  const t = mod['prims'] ?? mod['default'];
  if (typeof t !== 'object' || t === null) throw new UserError(`${file}: export a primitive table: export const prims = { name: (v) => …, … }`);
  for (const [k, f] of Object.entries(t)) if (typeof f !== 'function') throw new UserError(`${file}: primitive ${JSON.stringify(k)} must be a function (v: PlainValue) => PrimResult`);
  return Object.fromEntries(Object.entries(t).map(([k, f]) => [k, guardUserFn(f as (...a: never[]) => unknown, file, k)])) as unknown as PrimTable;
}

// ---------------------------------------------------------------------------------------------
// The contract as a property suite

/** The context of the contract suite: the primitives under test. */
export interface PrimCtx {
  readonly prims: PrimTable;
}

/** One case: a primitive, two label-free arguments. */
export interface PrimCase {
  readonly name: string;
  readonly a: PlainValue;
  readonly b: PlainValue;
}

const num = (n: number, d = 1): PlainValue => ({ kind: 'num', value: Q.rat(n, d) });

/** Label-free values: scalars, small arrays and records (often the shapes primitives expect), a lambda. */
export const primArgumentArb: fc.Arbitrary<PlainValue> = fc.letrec<{ v: PlainValue }>((tie) => ({
  v: fc.oneof(
    { maxDepth: 3, depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 9 }).map((n) => num(n)) },
    { weight: 1, arbitrary: fc.constantFrom(num(1, 2), num(-2, 3)) },
    { weight: 3, arbitrary: fc.constantFrom('', 'a', 'secret', 'hello world').map((s): PlainValue => ({ kind: 'str', value: s })) },
    { weight: 1, arbitrary: fc.boolean().map((b): PlainValue => ({ kind: 'bool', value: b })) },
    { weight: 1, arbitrary: fc.constant<PlainValue>({ kind: 'null' }) },
    { weight: 1, arbitrary: fc.constant<PlainValue>({ kind: 'lam', param: 'x', body: { kind: 'var', name: 'x' } }) },
    { weight: 3, arbitrary: fc.array(tie('v'), { maxLength: 3 }).map((elems): PlainValue => ({ kind: 'array', elems })) },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.constantFrom('a', 'b'), tie('v')), { maxLength: 2 }).map((fs): PlainValue => ({ kind: 'record', fields: fs.map(([name, expr]) => ({ name, expr })) })) },
  ),
})).v;

const showResult = (r: PrimResult): string => (r.ok ? showPlain(r.value) : `failure (${r.reason})`);
const sameResult = (r: PrimResult, s: PrimResult): boolean =>
  r.ok === s.ok && (r.ok ? s.ok && showPlain(r.value) === showPlain(s.value) : true);

/**
 * The primEval contract: on label-free arguments a primitive returns a closed label-free value (or
 * fails), and it is a function of its argument: the same argument gives the same result, whatever was
 * computed in between. A primitive that breaks it can make the Prim rule's label too low.
 */
export const primContract: PropertySuite<PrimCase, PrimCtx> = {
  name: 'prim-contract',
  caseKind: 'prim-call',
  title: 'primEval contract: closed label-free results that depend on the argument alone',
  arbitrary: (ctx) => {
    const names = Object.keys(ctx.prims);
    if (names.length === 0) throw new UserError('the primitive table is empty');
    return fc.record({ name: fc.constantFrom(...names), a: primArgumentArb, b: primArgumentArb });
  },
  check: (c, ctx) => {
    const f = ctx.prims[c.name]!;
    const call = (x: PlainValue): PrimResult | string => {
      try { return f(x); } catch (e) { return `threw ${e instanceof Error ? e.message : String(e)}`; }
    };
    const first = call(c.a);
    if (typeof first === 'string') return fails(`${c.name}(${showPlain(c.a)}) ${first}: a primitive fails with a value, never an exception`);
    if (first.ok) {
      const bad = contractViolation(first.value);
      if (bad) return fails(`${c.name}(${showPlain(c.a)}): ${bad}`);
    }
    const other = call(c.b);
    const again = call(c.a);
    if (typeof other === 'string' || typeof again === 'string') return fails(`${c.name} threw on a second call`);
    if (!sameResult(first, again)) {
      return fails(`${c.name} is not a function of its argument: ${c.name}(${showPlain(c.a)}) gave ${showResult(first)}, then after ${c.name}(${showPlain(c.b)}) it gave ${showResult(again)}`);
    }
    return HOLDS;
  },
  show: (c) => `${c.name}(${showPlain(c.a)}), then ${c.name}(${showPlain(c.b)}), then ${c.name}(${showPlain(c.a)}) again`,
  stats: (c, ctx) => {
    let ok = false;
    try { ok = ctx.prims[c.name]!(c.a).ok; } catch { ok = false; }
    return { 'primitive succeeds': ok };
  },
  thresholds: { 'primitive succeeds': 0.1 },
};
