/**
 * The JSON encoding of programs, values, labels and conversations that targets exchange with the toolkit
 * (docs/targets.md, schema in docs/targets.schema.json). Expressions keep the core AST's shape (`kind` plus
 * the same field names); only two things change: a number's exact value is the string `"p/q"` (or `"n"`),
 * and a static label is the label's language value encoded as JSON (`labelToJson`). Values are expressions
 * (`{"kind":"label","label":…,"body":…}`), so one codec serves programs, responses and results.
 */
import * as Q from '../distributions/rational.ts';
import type { Expr, Field, PlainValue, Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import type { Conversation } from '../semantics/config.ts';
import { isValue } from '../syntax/helpers.ts';
import { absurd } from '../util/absurd.ts';

/** A JSON value. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [k: string]: Json };

/** Malformed input from a target (bad JSON shape): the run's outcome becomes `garbage` with this message. */
export class WireError extends Error {
  override readonly name = 'WireError';
}

/** A label-free value as JSON: numbers `{"num":"p/q"}`, strings, booleans, null, arrays, records `{"record":[[name, v], …]}`. */
export function plainToJson(v: PlainValue): Json {
  switch (v.kind) {
    case 'num': return { num: Q.show(v.value) };
    case 'str': return v.value;
    case 'bool': return v.value;
    case 'null': return null;
    case 'array': return v.elems.map(plainToJson);
    case 'record': return { record: v.fields.map((f) => [f.name, plainToJson(f.expr)]) };
    case 'lam': throw new WireError('a label is never a function');
    default: return absurd(v);
  }
}

/** Inverse of `plainToJson` (label-free data only). */
export function plainFromJson(j: unknown): PlainValue {
  if (j === null) return { kind: 'null' };
  if (typeof j === 'boolean') return { kind: 'bool', value: j };
  if (typeof j === 'string') return { kind: 'str', value: j };
  if (typeof j === 'number') {
    if (!Number.isSafeInteger(j)) throw new WireError(`number ${j} is not a safe integer: send exact numbers as {"num":"p/q"}`);
    return { kind: 'num', value: Q.rat(j) };
  }
  if (Array.isArray(j)) return { kind: 'array', elems: j.map(plainFromJson) };
  if (typeof j === 'object') {
    const o = j as Record<string, unknown>;
    if (typeof o['num'] === 'string') return { kind: 'num', value: rationalFromJson(o['num']) };
    if (Array.isArray(o['record'])) {
      return {
        kind: 'record',
        fields: o['record'].map((p): Field<PlainValue> => {
          if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string') throw new WireError(`bad record field ${JSON.stringify(p)}`);
          return { name: p[0], expr: plainFromJson(p[1]) };
        }),
      };
    }
  }
  throw new WireError(`not a label-free value: ${JSON.stringify(j)}`);
}

function rationalFromJson(s: unknown): Q.Rational {
  const q = typeof s === 'string' ? Q.parseRational(s) : typeof s === 'number' && Number.isSafeInteger(s) ? Q.rat(s) : undefined;
  if (!q) throw new WireError(`not an exact number: ${JSON.stringify(s)} (write "p/q" or an integer)`);
  return q;
}

/** How labels travel: the toolkit's encoding by default, or a target's own (part 3 of the protocol). */
export interface LabelCodec<L> {
  encode(l: L): Json;
  /** `undefined` when the JSON is not a label of the lattice. */
  decode(j: unknown): L | undefined;
}

/** The default codec: the label's language value (`lat.fromLabel`) as JSON, e.g. `["S"]` on powerset-us. */
export function defaultLabelCodec<L>(lat: Lattice<L>): LabelCodec<L> {
  return {
    encode: (l) => plainToJson(lat.fromLabel(l)),
    decode: (j) => {
      try { return lat.toLabel(plainFromJson(j)); } catch { return undefined; }
    },
  };
}

/** An expression (or value) as JSON. */
export function exprToJson<L>(codec: LabelCodec<L>, e: Expr<L>): Json {
  const go = (e: Expr<L>): Json => {
    switch (e.kind) {
      case 'var': return { kind: 'var', name: e.name };
      case 'lam': return { kind: 'lam', param: e.param, body: go(e.body) };
      case 'app': return { kind: 'app', fn: go(e.fn), arg: go(e.arg) };
      case 'send': return { kind: 'send', arg: go(e.arg) };
      case 'recv': case 'clear': case 'null': return { kind: e.kind };
      case 'fork': return { kind: 'fork', body: go(e.body) };
      case 'label': return { kind: 'label', label: codec.encode(e.label), body: go(e.body) };
      case 'dynlabel': case 'test': case 'assert': case 'endorse': return { kind: e.kind, label: go(e.label), body: go(e.body) };
      case 'num': return { kind: 'num', value: Q.show(e.value) };
      case 'str': return { kind: 'str', value: e.value };
      case 'bool': return { kind: 'bool', value: e.value };
      case 'prim': return { kind: 'prim', name: e.name, arg: go(e.arg) };
      case 'record': return { kind: 'record', fields: e.fields.map((f) => ({ name: f.name, expr: go(f.expr) })) };
      case 'array': return { kind: 'array', elems: e.elems.map(go) };
      case 'field': return { kind: 'field', target: go(e.target), name: e.name };
      case 'index': return { kind: 'index', target: go(e.target), index: go(e.index) };
      default: return absurd(e);
    }
  };
  return go(e);
}

/** Inverse of `exprToJson`; throws `WireError` with the offending fragment on malformed input. */
export function exprFromJson<L>(codec: LabelCodec<L>, j: unknown): Expr<L> {
  const bad = (what: string, x: unknown): never => { throw new WireError(`${what}: ${JSON.stringify(x)?.slice(0, 120)}`); };
  const str = (o: Record<string, unknown>, k: string): string => (typeof o[k] === 'string' ? o[k] : bad(`field ${k} must be a string`, o));
  const go = (j: unknown): Expr<L> => {
    if (j === null || typeof j !== 'object' || Array.isArray(j)) return bad('not an expression', j);
    const o = j as Record<string, unknown>;
    const kind = o['kind'];
    switch (kind) {
      case 'var': return { kind, name: str(o, 'name') };
      case 'lam': return { kind, param: str(o, 'param'), body: go(o['body']) };
      case 'app': return { kind, fn: go(o['fn']), arg: go(o['arg']) };
      case 'send': return { kind, arg: go(o['arg']) };
      case 'recv': case 'clear': case 'null': return { kind };
      case 'fork': return { kind, body: go(o['body']) };
      case 'label': {
        const l = codec.decode(o['label']);
        return l === undefined ? bad('not a label of the lattice', o['label']) : { kind, label: l, body: go(o['body']) };
      }
      case 'dynlabel': case 'test': case 'assert': case 'endorse': return { kind, label: go(o['label']), body: go(o['body']) };
      case 'num': return { kind, value: rationalFromJson(o['value']) };
      case 'str': return { kind, value: str(o, 'value') };
      case 'bool': return typeof o['value'] === 'boolean' ? { kind, value: o['value'] } : bad('field value must be a boolean', o);
      case 'prim': return { kind, name: str(o, 'name'), arg: go(o['arg']) };
      case 'record': {
        const fs = Array.isArray(o['fields']) ? o['fields'] : bad('field fields must be an array', o);
        return { kind, fields: fs.map((f: unknown) => ({ name: str(f as Record<string, unknown>, 'name'), expr: go((f as Record<string, unknown>)['expr']) })) };
      }
      case 'array': return { kind, elems: (Array.isArray(o['elems']) ? o['elems'] : bad('field elems must be an array', o)).map(go) };
      case 'field': return { kind, target: go(o['target']), name: str(o, 'name') };
      case 'index': return { kind, target: go(o['target']), index: go(o['index']) };
      default: return bad('unknown expression kind', kind);
    }
  };
  return go(j);
}

/** A value from JSON: an expression that must be `l:v`. */
export function valueFromJson<L>(codec: LabelCodec<L>, j: unknown): Value<L> {
  const e = exprFromJson(codec, j);
  if (!isValue(e)) throw new WireError(`not a value (l:v with values inside): ${JSON.stringify(j)?.slice(0, 120)}`);
  return e;
}

/** A conversation as JSON: `{"label": …, "messages": [...]}`. */
export function conversationToJson<L>(codec: LabelCodec<L>, c: Conversation<L>): Json {
  return { label: codec.encode(c.label), messages: [...c.messages] };
}

export function conversationFromJson<L>(codec: LabelCodec<L>, j: unknown): Conversation<L> {
  const o = (j ?? {}) as Record<string, unknown>;
  const label = codec.decode(o['label']);
  if (label === undefined) throw new WireError(`conversation label is not a label of the lattice: ${JSON.stringify(o['label'])}`);
  const ms = o['messages'];
  if (!Array.isArray(ms) || !ms.every((m) => typeof m === 'string')) throw new WireError(`conversation messages must be an array of strings: ${JSON.stringify(ms)}`);
  return { label, messages: ms };
}
