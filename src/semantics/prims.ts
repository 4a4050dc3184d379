/**
 * The standard primitive table `primEval` (spec §4), exact rational arithmetic throughout.
 * Every primitive takes and returns label-free values; failure is a value (the run is stuck).
 */
import type { Field, PlainValue } from '../syntax/ast.ts';
import * as Q from '../distributions/rational.ts';
import type { PrimResult, PrimTable } from './model.ts';
import { serialise, showPlain } from './serialise.ts';
import { absurd } from '../util/absurd.ts';

const ok = (value: PlainValue): PrimResult => ({ ok: true, value });
const fail = (reason: string): PrimResult => ({ ok: false, reason });
const num = (q: Q.Rational): PlainValue => ({ kind: 'num', value: q });
const bool = (b: boolean): PlainValue => ({ kind: 'bool', value: b });
const str = (s: string): PlainValue => ({ kind: 'str', value: s });

/** The two operands of a `binop_⊕` call (`prim "binop_+" [a, b]`). */
function operands(p: string, v: PlainValue): [PlainValue, PlainValue] | string {
  if (v.kind !== 'array' || v.elems.length !== 2) return `${p} expects a two-element array, got ${showPlain(v)}`;
  return [v.elems[0]!, v.elems[1]!];
}

function arith(p: string, f: (a: Q.Rational, b: Q.Rational) => PrimResult): (v: PlainValue) => PrimResult {
  return (v) => {
    const xs = operands(p, v);
    if (typeof xs === 'string') return fail(xs);
    const [a, b] = xs;
    if (a.kind !== 'num' || b.kind !== 'num') return fail(`${p} expects numbers, got ${showPlain(a)} and ${showPlain(b)}`);
    return f(a.value, b.value);
  };
}

const compare = (p: string, test: (c: number) => boolean) => arith(p, (a, b) => ok(bool(test(Q.cmp(a, b)))));

/** `λt.λf.λu. t u` (true) or `λt.λf.λu. f u` (false): the Church booleans `if` expands through. */
function church(pick: 't' | 'f'): PlainValue {
  return {
    kind: 'lam', param: 't',
    body: { kind: 'lam', param: 'f', body: { kind: 'lam', param: 'u', body: { kind: 'app', fn: { kind: 'var', name: pick }, arg: { kind: 'var', name: 'u' } } } },
  };
}

/**
 * A string's length in Unicode code points (spec §4): an astral character counts once, a lone surrogate
 * once. A string's iterator walks exactly those: a surrogate pair as one, any other unit as one.
 */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** `shape(v)`: a record describing the outer shape of a value. */
export function shapeOf(v: PlainValue): PlainValue {
  const rec = (fields: Field<PlainValue>[]): PlainValue => ({ kind: 'record', fields });
  const ty = (t: string): Field<PlainValue> => ({ name: 'type', expr: str(t) });
  switch (v.kind) {
    case 'num': return rec([ty('number')]);
    case 'str': return rec([ty('string'), { name: 'length', expr: num(Q.rat(codePointLength(v.value))) }]);
    case 'bool': return rec([ty('boolean')]);
    case 'null': return rec([ty('null')]);
    case 'lam': return rec([ty('function')]);
    case 'array': return rec([ty('array'), { name: 'length', expr: num(Q.rat(v.elems.length)) }]);
    case 'record': return rec([ty('record'), { name: 'fields', expr: { kind: 'array', elems: v.fields.map((f) => str(f.name)) } }]);
    default: return absurd(v);
  }
}

/** The two results of `fromBool`, built once (the AST is immutable; evaluators cache per node). */
const CHURCH_TRUE: PrimResult = ok(church('t'));
const CHURCH_FALSE: PrimResult = ok(church('f'));

/** The standard primitive table. */
export const STANDARD_PRIMS: PrimTable = {
  'binop_+': (v) => {
    const xs = operands('binop_+', v);
    if (typeof xs === 'string') return fail(xs);
    const [a, b] = xs;
    if (a.kind === 'num' && b.kind === 'num') return ok(num(Q.add(a.value, b.value)));
    if (a.kind === 'str' && b.kind === 'str') return ok(str(a.value + b.value));
    if (a.kind === 'array' && b.kind === 'array') return ok({ kind: 'array', elems: [...a.elems, ...b.elems] });
    return fail(`binop_+ expects two numbers, strings or arrays, got ${showPlain(a)} and ${showPlain(b)}`);
  },
  'binop_-': arith('binop_-', (a, b) => ok(num(Q.sub(a, b)))),
  'binop_*': arith('binop_*', (a, b) => ok(num(Q.mul(a, b)))),
  'binop_/': arith('binop_/', (a, b) => (Q.isZero(b) ? fail('binop_/: division by zero') : ok(num(Q.div(a, b))))),
  'binop_%': arith('binop_%', (a, b) => (Q.isZero(b) ? fail('binop_%: modulo by zero') : ok(num(Q.mod(a, b))))),
  'binop_<': compare('binop_<', (c) => c < 0),
  'binop_>': compare('binop_>', (c) => c > 0),
  'binop_<=': compare('binop_<=', (c) => c <= 0),
  'binop_>=': compare('binop_>=', (c) => c >= 0),
  'binop_==': (v) => {
    const xs = operands('binop_==', v);
    if (typeof xs === 'string') return fail(xs);
    const [a, b] = xs;
    if (a.kind !== b.kind) return fail(`binop_== compares scalars of the same kind, got ${showPlain(a)} and ${showPlain(b)}`);
    switch (a.kind) {
      case 'num': return ok(bool(Q.eq(a.value, (b as typeof a).value)));
      case 'str':
      case 'bool': return ok(bool(a.value === (b as typeof a).value));
      case 'null': return ok(bool(true));
      default: return fail(`binop_== compares scalars, got ${showPlain(a)}`);
    }
  },
  fromBool: (v) => (v.kind === 'bool' && !v.value ? CHURCH_FALSE : CHURCH_TRUE),
  toStr: (v) => ok(str(serialise(v))),
  shape: (v) => ok(shapeOf(v)),
  recordUpdate: (v) => {
    if (v.kind !== 'array' || v.elems.length !== 3) return fail(`recordUpdate expects [record, "field", value], got ${showPlain(v)}`);
    const [r, s, x] = v.elems as [PlainValue, PlainValue, PlainValue];
    if (r.kind !== 'record' || s.kind !== 'str') return fail(`recordUpdate expects [record, "field", value], got ${showPlain(v)}`);
    const at = r.fields.findIndex((f) => f.name === s.value);
    const fields = at < 0 ? [...r.fields, { name: s.value, expr: x }] : r.fields.map((f, i) => (i === at ? { name: f.name, expr: x } : f));
    return ok({ kind: 'record', fields });
  },
};
