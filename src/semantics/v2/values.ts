/**
 * Evaluator v2, part 2: runtime values. A value is `l:v` as in the spec, except that a function is a
 * closure (compiled lambda + the values of its captured variables) instead of a substituted term.
 * `readback` turns a value into exactly the substitution-semantics value (`Value<L>`) it stands for;
 * every spec helper that looks inside values (`deepLabel`, `stripLabels`, printing, `serialise`) is
 * applied to that readback, so v2 cannot disagree with the spec there.
 */
import type { BareValue, Field, NumE, StrE, BoolE, NullE, Value, Expr } from '../../syntax/ast.ts';
import { substMany } from '../../syntax/helpers.ts';
import { absurd } from '../../util/absurd.ts';
import { compileClosed, type LamCode } from './code.ts';

/** A closure: the compiled lambda and the values of its captured variables (in `code.capNames` order). */
export interface Closure<L> { readonly kind: 'clo'; readonly code: LamCode<L>; readonly env: readonly V2<L>[] }

/**
 * A runtime value's body. A number's `NumE` is either a literal's `{kind: 'num', value}` (parsed, or from a spec
 * value) or, for a number computed by v2 (`prims-fast.ts`), the rational itself, which is its own `NumE`
 * (rational.ts): readers see `kind` and `value` alike; `numLiteral` gives the plain literal where a value leaves v2.
 */
export type Body2<L> =
  | NumE | StrE | BoolE | NullE
  | Closure<L>
  | { readonly kind: 'record'; readonly fields: readonly Field<V2<L>>[] }
  | { readonly kind: 'array'; readonly elems: readonly V2<L>[] };

/** A labelled runtime value. `id` (0 until needed) is its hash-consed identity within one evaluation. */
export interface V2<L> {
  readonly label: L;
  readonly body: Body2<L>;
  id: number;
  /** Fuel a read of this value needs: the derivation depth of evaluating its substituted form (0 = unknown). */
  depth: number;
  /**
   * Its readback, once computed (a field rather than a WeakMap keyed by values: values are short-lived, and a
   * WeakMap lookup and insertion per value cost more than the field).
   */
  rb: Value<L> | undefined;
}

export const mkValue = <L>(label: L, body: Body2<L>): V2<L> => ({ label, body, id: 0, depth: 0, rb: undefined });

/**
 * Fuel needed to evaluate the substituted value expression `l:v` (Labelled, then ScalarLit / Lam /
 * RecordNil / ArrayNil, or RecordCons / ArrayCons over the fields): 2, or 2 + the deepest field.
 */
export function depthOf<L>(v: V2<L>): number {
  if (v.depth !== 0) return v.depth;
  let d = 2;
  const b = v.body;
  if (b.kind === 'record') for (const f of b.fields) d = Math.max(d, 2 + depthOf(f.expr));
  else if (b.kind === 'array') for (const x of b.elems) d = Math.max(d, 2 + depthOf(x));
  v.depth = d;
  return d;
}

/** The substitution-semantics value this runtime value stands for (cached per value object). */
export function readback<L>(v: V2<L>): Value<L> {
  if (v.rb !== undefined) return v.rb;
  const out: Value<L> = { kind: 'label', label: v.label, body: readbackBody(v.body) };
  v.rb = out;
  return out;
}

/**
 * A number body as the spec's literal: a computed number's body is its rational itself (rational.ts: a rational is
 * its own `NumE`, `prims-fast.ts`), which leaves v2 as `{kind: 'num', value}` so that spec values are plain
 * literals everywhere (printing, structural comparison, the spec's helpers).
 */
export function numLiteral(b: NumE): NumE {
  return (b as unknown) === b.value ? { kind: 'num', value: b.value } : b;
}

function readbackBody<L>(b: Body2<L>): BareValue<L> {
  switch (b.kind) {
    case 'num': return numLiteral(b);
    case 'str': case 'bool': case 'null': return b;
    case 'clo': {
      if (b.env.length === 0) return b.code.src;
      const s = new Map<string, Expr<L>>();
      b.code.capNames.forEach((x, i) => s.set(x, readback(b.env[i]!)));
      return substMany(b.code.src, s) as BareValue<L>;
    }
    case 'record': return { kind: 'record', fields: b.fields.map((f) => ({ name: f.name, expr: readback(f.expr) })) };
    case 'array': return { kind: 'array', elems: b.elems.map(readback) };
    default: return absurd(b);
  }
}

/**
 * A substitution-semantics value as a runtime value (lambdas become closures with no captures: values are
 * closed). Not cached per `v` (primitive results are fresh objects); its readback is `v` itself.
 */
export function fromValue<L>(v: Value<L>): V2<L> {
  const out = mkValue(v.label, fromBare(v.body));
  out.rb = v;
  return out;
}

/** A bare value (e.g. `wrapValues` of a primitive's result) as a runtime body. */
export function fromBare<L>(b: BareValue<L>): Body2<L> {
  switch (b.kind) {
    case 'num': case 'str': case 'bool': case 'null': return b;
    case 'lam': return { kind: 'clo', code: compileClosed(b) as LamCode<L>, env: [] };
    case 'record': return { kind: 'record', fields: b.fields.map((f) => ({ name: f.name, expr: fromValue(f.expr) })) };
    case 'array': return { kind: 'array', elems: b.elems.map(fromValue) };
    default: return absurd(b);
  }
}
