/**
 * The adapter for env-interpreter.ts: an async, environment-based, AST-built interpreter made into a
 * toolkit target (docs/targets.md walks through it). It maps the toolkit's core AST onto the
 * interpreter's constructors, the interpreter's values back to toolkit values (closures read back by
 * substituting their environment), lends it the model's primitives and serialisation, and turns its
 * outcomes into the target protocol's. `llmbda check --target examples/targets/env-target.ts`.
 *
 * `makeEnvTarget(lattice, faults)` plants the port's faults; the default export is the correct one, and
 * `examples/targets/env-target-faulty.ts` exports the one with all three faults.
 */
import type { Expr, PlainValue, Value, BareValue } from '../../src/syntax/ast.ts';
import type { Lattice } from '../../src/lattice/lattice.ts';
import { pairOf, integrityOf, confidentialityOf } from '../../src/lattice/lattice.ts';
import { powersetUS } from '../../src/lattice/instances.ts';
import * as Q from '../../src/distributions/rational.ts';
import { stripLabels, substMany, wrapValues } from '../../src/syntax/helpers.ts';
import { STANDARD_PRIMS } from '../../src/semantics/prims.ts';
import { serialise } from '../../src/semantics/serialise.ts';
import type { Target, TargetOracle } from '../../src/targets/target.ts';
import { freeVars, lookup, run, type Body, type Faults, type Host, type IExpr, type LabelOps, type Val } from './env-interpreter.ts';

/** Toolkit AST → the interpreter's AST (`(λx.e2) e1` becomes its `let`, which it treats specially). */
function toI<L>(e: Expr<L>): IExpr<L> {
  switch (e.kind) {
    case 'var': return { k: 'var', x: e.name };
    case 'lam': return { k: 'lam', x: e.param, body: toI(e.body) };
    case 'app': return e.fn.kind === 'lam' ? { k: 'let', x: e.fn.param, e1: toI(e.arg), e2: toI(e.fn.body) } : { k: 'app', f: toI(e.fn), a: toI(e.arg) };
    case 'num': return { k: 'lit', v: { t: 'num', n: Q.show(e.value) } };
    case 'str': return { k: 'lit', v: { t: 'str', s: e.value } };
    case 'bool': return { k: 'lit', v: { t: 'bool', b: e.value } };
    case 'null': return { k: 'lit', v: { t: 'null' } };
    case 'label': return { k: 'labelled', l: e.label, e: toI(e.body) };
    case 'dynlabel': return { k: 'dyn', op: 'flow', l: toI(e.label), e: toI(e.body) };
    case 'test': case 'assert': case 'endorse': return { k: 'dyn', op: e.kind, l: toI(e.label), e: toI(e.body) };
    case 'send': return { k: 'send', e: toI(e.arg) };
    case 'recv': return { k: 'recv' };
    case 'fork': return { k: 'fork', e: toI(e.body) };
    case 'clear': return { k: 'clear' };
    case 'prim': return { k: 'prim', p: e.name, e: toI(e.arg) };
    case 'array': return { k: 'arr', es: e.elems.map(toI) };
    case 'record': return { k: 'rec', fs: e.fields.map((f) => [f.name, toI(f.expr)]) };
    case 'field': return { k: 'get', e: toI(e.target), name: e.name };
    case 'index': return { k: 'at', e: toI(e.target), i: toI(e.index) };
  }
}

/** The interpreter's AST → toolkit AST (for closure bodies). */
function fromI<L>(e: IExpr<L>): Expr<L> {
  switch (e.k) {
    case 'var': return { kind: 'var', name: e.x };
    case 'lam': return { kind: 'lam', param: e.x, body: fromI(e.body) };
    case 'let': return { kind: 'app', fn: { kind: 'lam', param: e.x, body: fromI(e.e2) }, arg: fromI(e.e1) };
    case 'app': return { kind: 'app', fn: fromI(e.f), arg: fromI(e.a) };
    case 'lit': return scalar(e.v);
    case 'labelled': return { kind: 'label', label: e.l, body: fromI(e.e) };
    case 'dyn': return { kind: e.op === 'flow' ? 'dynlabel' : e.op, label: fromI(e.l), body: fromI(e.e) };
    case 'send': return { kind: 'send', arg: fromI(e.e) };
    case 'recv': case 'clear': return { kind: e.k };
    case 'fork': return { kind: 'fork', body: fromI(e.e) };
    case 'prim': return { kind: 'prim', name: e.p, arg: fromI(e.e) };
    case 'arr': return { kind: 'array', elems: e.es.map(fromI) };
    case 'rec': return { kind: 'record', fields: e.fs.map(([name, x]) => ({ name, expr: fromI(x) })) };
    case 'get': return { kind: 'field', target: fromI(e.e), name: e.name };
    case 'at': return { kind: 'index', target: fromI(e.e), index: fromI(e.i) };
  }
}

const scalar = (s: Extract<Body<unknown>, { t: 'num' | 'str' | 'bool' | 'null' }>): Expr<never> =>
  s.t === 'num' ? { kind: 'num', value: Q.parseRational(s.n)! } : s.t === 'str' ? { kind: 'str', value: s.s } : s.t === 'bool' ? { kind: 'bool', value: s.b } : { kind: 'null' };

/** Read back an interpreter value as a toolkit value: a closure's free variables are substituted from its environment. */
function readback<L>(v: Val<L>): Value<L> {
  const b = v.b;
  const body: BareValue<L> = b.t === 'arr' ? { kind: 'array', elems: b.es.map(readback) }
    : b.t === 'rec' ? { kind: 'record', fields: b.fs.map(([name, x]) => ({ name, expr: readback(x) })) }
    : b.t === 'clo' ? (() => {
      const s = new Map<string, Expr<L>>();
      for (const x of freeVars(b.body, new Set([b.x]))) { const y = lookup(b.env, x); if (y) s.set(x, readback(y)); }
      return { kind: 'lam', param: b.x, body: substMany(fromI(b.body), s) } as const;
    })()
    : scalar(b) as BareValue<L>;
  return { kind: 'label', label: v.l, body };
}

/** A toolkit bare value (from a primitive) as an interpreter body; closures come back with an empty environment. */
function toBody<L>(b: BareValue<L>): Body<L> {
  switch (b.kind) {
    case 'array': return { t: 'arr', es: b.elems.map((x) => ({ l: x.label, b: toBody(x.body) })) };
    case 'record': return { t: 'rec', fs: b.fields.map((f) => [f.name, { l: f.expr.label, b: toBody(f.expr.body) }]) };
    case 'lam': return { t: 'clo', x: b.param, body: toI(b.body), env: { vars: new Map(), up: null } };
    case 'num': return { t: 'num', n: Q.show(b.value) };
    case 'str': return { t: 'str', s: b.value };
    case 'bool': return { t: 'bool', b: b.value };
    case 'null': return { t: 'null' };
  }
}

/** The interpreter as a target on `lattice`, with the given faults planted. */
export function makeEnvTarget<L>(lattice: Lattice<L>, faults: Faults = {}): Target<L> {
  const ops: LabelOps<L> = {
    bottom: lattice.bottom, join: (a, b) => lattice.join(a, b), leq: (a, b) => lattice.leq(a, b),
    endorse: (i, s) => pairOf(lattice, integrityOf(lattice, i), confidentialityOf(lattice, s)),
  };
  const plain = (v: Val<L>): PlainValue => stripLabels(readback(v)) as PlainValue;
  const planted = Object.entries(faults).filter(([, on]) => on).map(([k]) => k);
  return {
    name: `env-interpreter${planted.length ? ` (faults: ${planted.join(', ')})` : ''}`,
    lattice,
    async run(req, oracle: TargetOracle<L>) {
      const host: Host<L> = {
        prim: (p, v) => {
          const f = STANDARD_PRIMS[p];
          const r = f ? f(plain(v)) : { ok: false as const, reason: `unknown primitive ${p}` };
          return r.ok ? toBody(wrapValues(lattice, r.value)) : r.reason;
        },
        serialise: (v) => serialise(plain(v)),
        toLabel: (v) => lattice.toLabel(plain(v)),
        recv: async (messages) => { const a = oracle(messages); return { response: a.response, code: toI(a.code) }; },
      };
      const out = await run(ops, host, req.pc, { l: req.conv.label, msgs: [...req.conv.messages] }, toI(req.program), req.fuel, faults);
      if (out.ok) return { kind: 'ok', value: readback(out.value), conv: { label: out.conv.l, messages: out.conv.msgs } };
      return out.fuel ? { kind: 'fuel' } : { kind: 'stuck', reason: out.error };
    },
  };
}

export default makeEnvTarget(powersetUS);
