/**
 * `peval`: an ordinary deterministic interpreter driven by an oracle (spec §6, Theorem 3). It shares no
 * rule code with the distribution evaluator (`ev.ts`/`rules.ts`) on purpose: Theorem 3 compares the two.
 * It shares only the spec's helpers (substitution, labels), the lattice and the model.
 */
import type { Expr, Field, PlainValue, Value } from '../syntax/ast.ts';
import * as Q from '../distributions/rational.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { pairOf, integrityOf, confidentialityOf } from '../lattice/lattice.ts';
import { deepLabel, stripLabels, subst, wrapValues } from '../syntax/helpers.ts';
import { absurd } from '../util/absurd.ts';
import { showPlain } from './serialise.ts';
import { StackLimitError } from './errors.ts';
import type { Conversation } from './config.ts';
import type { PModel } from './model.ts';
import { loadPrelude, parsedResponse, type Prelude } from './prelude.ts';

/** `o(i, c)`: the answer to the `i`-th `recv` of the run, given the messages so far. */
export type Oracle = (i: number, messages: readonly string[]) => string;

export type PevalResult<L> =
  | { readonly kind: 'ok'; readonly conv: Conversation<L>; readonly value: Value<L>; readonly next: number; readonly trace: readonly string[] }
  | { readonly kind: 'error'; readonly reason: string; readonly next: number; readonly trace: readonly string[] }
  | { readonly kind: 'fuel'; readonly next: number; readonly trace: readonly string[] };

/** Thrown inside the interpreter to unwind a failed run; never escapes `peval`. */
class Halt {
  constructor(readonly kind: 'error' | 'fuel', readonly reason: string) {}
}

/**
 * Run `e` at `pc` from conversation `conv`, answering the i-th `recv` with `oracle(i, messages)`,
 * starting at oracle index `start`. Fuel is derivation depth, as in the evaluator.
 */
export function peval<L>(
  model: PModel, lat: Lattice<L>, oracle: Oracle, start: number, fuel: number,
  pc: L, conv: Conversation<L>, e: Expr<L>, prelude: Prelude<L> = loadPrelude(lat, model.preludeSource),
): PevalResult<L> {
  let index = start;
  const trace: string[] = [];
  let c: Conversation<L> = conv;

  const val = (label: L, body: Value<L>['body']): Value<L> => ({ kind: 'label', label, body });
  const unit = (label: L): Value<L> => val(label, { kind: 'record', fields: [] });
  const stuck = (reason: string): never => { throw new Halt('error', reason); };
  const decode = (v: Value<L>): { n: L; l: L } => {
    const n = deepLabel(lat, v);
    const l = lat.toLabel(stripLabels(v) as PlainValue);
    if (l === undefined) return stuck(`not a label: ${showPlain(stripLabels(v) as PlainValue)}`);
    return { n, l };
  };

  const run = (pc: L, e: Expr<L>, k: number): Value<L> => {
    if (k <= 0) throw new Halt('fuel', 'out of fuel');
    const k1 = k - 1;
    switch (e.kind) {
      case 'var': return stuck(`unbound variable ${e.name}`);
      case 'lam': return val(pc, e);
      case 'num': case 'str': case 'bool': case 'null': return val(pc, e);
      case 'app': {
        const f = run(pc, e.fn, k1);
        const a = run(pc, e.arg, k1);
        if (f.body.kind !== 'lam') return stuck('application of a non-function');
        return run(f.label, subst(f.body.body, f.body.param, a), k1);
      }
      case 'send': {
        const v = run(pc, e.arg, k1);
        if (!lat.leq(pc, c.label)) return stuck('send: no-sensitive-upgrade');
        c = { label: lat.join(c.label, deepLabel(lat, v)), messages: [...c.messages, model.serialise(stripLabels(v) as PlainValue)] };
        return unit(pc);
      }
      case 'recv': {
        if (!lat.leq(pc, c.label)) return stuck('recv: no-sensitive-upgrade');
        const r = oracle(index, c.messages);
        index++;
        trace.push(r);
        c = { label: c.label, messages: [...c.messages, r] };
        return run(c.label, parsedResponse(r, lat, prelude), k1);
      }
      case 'fork': {
        const saved = c;
        const v = run(pc, e.body, k1);
        c = saved;
        return v;
      }
      case 'clear': {
        if (!lat.leq(pc, c.label)) return stuck('clear: no-sensitive-upgrade');
        c = { label: pc, messages: [] };
        return unit(pc);
      }
      case 'label': return run(lat.join(pc, e.label), e.body, k1);
      case 'dynlabel': {
        const { n, l } = decode(run(pc, e.label, k1));
        return run(lat.join(lat.join(pc, n), l), e.body, k1);
      }
      case 'test': {
        const { n, l } = decode(run(pc, e.label, k1));
        const v2 = run(lat.join(pc, n), e.body, k1);
        return val(lat.join(lat.join(pc, n), l), { kind: 'bool', value: lat.leq(v2.label, l) });
      }
      case 'assert': {
        const v1 = run(pc, e.label, k1);
        if (!lat.leq(deepLabel(lat, v1), pc)) return stuck('assert: label of the policy is above pc');
        const { l } = decode(v1);
        const v2 = run(pc, e.body, k1);
        if (!lat.leq(v2.label, l)) return stuck('assert: policy violation');
        return unit(pc);
      }
      case 'endorse': {
        const { n, l } = decode(run(pc, e.label, k1));
        const v2 = run(lat.join(pc, n), e.body, k1);
        return val(lat.join(pc, pairOf(lat, integrityOf(lat, l), confidentialityOf(lat, v2.label))), v2.body);
      }
      case 'prim': {
        const v = run(pc, e.arg, k1);
        const f = model.prims[e.name];
        if (!f) return stuck(`unknown primitive ${e.name}`);
        const r = f(stripLabels(v) as PlainValue);
        if (!r.ok) return stuck(r.reason);
        return val(lat.join(pc, deepLabel(lat, v)), wrapValues(lat, r.value));
      }
      case 'record': {
        const fields: Field<Value<L>>[] = [];
        for (const f of e.fields) fields.push({ name: f.name, expr: run(pc, f.expr, k1) });
        return val(pc, { kind: 'record', fields });
      }
      case 'array': {
        const elems: Value<L>[] = [];
        for (const x of e.elems) elems.push(run(pc, x, k1));
        return val(pc, { kind: 'array', elems });
      }
      case 'field': {
        const r = run(pc, e.target, k1);
        if (r.body.kind !== 'record') return stuck('field access on a non-record');
        const f = r.body.fields.find((x) => x.name === e.name);
        if (!f) return stuck(`missing field ${e.name}`);
        return val(lat.join(r.label, f.expr.label), f.expr.body);
      }
      case 'index': {
        const a = run(pc, e.target, k1);
        const i = run(pc, e.index, k1);
        if (a.body.kind !== 'array') return stuck('indexing a non-array');
        if (i.body.kind !== 'num' || !Q.isInteger(i.body.value)) return stuck('index is not an integer');
        const n = Number(Q.numerator(i.body.value));
        const x = a.body.elems[n];
        if (n < 0 || x === undefined) return stuck('index out of bounds');
        return val(lat.join(lat.join(a.label, i.label), x.label), x.body);
      }
      default: return absurd(e);
    }
  };

  try {
    const value = run(pc, e, fuel);
    return { kind: 'ok', conv: c, value, next: index, trace };
  } catch (x) {
    if (x instanceof Halt) return x.kind === 'fuel' ? { kind: 'fuel', next: index, trace } : { kind: 'error', reason: x.reason, next: index, trace };
    if (x instanceof RangeError && /call stack/i.test(x.message)) {
      throw new StackLimitError(`peval nested deeper than the JavaScript stack allows (fuel ${fuel}); raise the stack with --stack-mb N`);
    }
    throw x;
  }
}
