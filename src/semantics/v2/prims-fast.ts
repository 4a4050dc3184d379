/**
 * Evaluator v2: the standard binary primitives (`binop_⊕`, spec §4) and `fromBool` computed on runtime
 * values, without building the label-free argument (`stripLabels`), the table's result object and its
 * `wrapValues` copy. Each entry is exactly `wrapValues(primEval(p, stripLabels(V)))` for the operands it
 * accepts and answers `undefined` for every other case (wrong kinds, division or modulo by zero, arrays,
 * …), where the caller takes the generic path — so every failure keeps the table's own wording. The
 * result label, `pc ⊔ deepLabel(V)`, is the caller's (Prim's) business, as in the generic path.
 *
 * An entry is used only when the model's table holds the standard function for that name (a model with
 * its own primitive keeps it). Numbers stay exact rationals, through `rational.ts`'s functions, which compute
 * small integers on doubles and other integers without gcd.
 */
import * as Q from '../../distributions/rational.ts';
import type { PrimTable } from '../model.ts';
import { STANDARD_PRIMS } from '../prims.ts';
import type { Body2 } from './values.ts';

/** A binary primitive on the two element bodies of its argument `[a, b]`; undefined: take the generic path. */
export type FastBinop = <L>(a: Body2<L>, b: Body2<L>) => Body2<L> | undefined;

const TRUE: Body2<never> = { kind: 'bool', value: true };
const FALSE: Body2<never> = { kind: 'bool', value: false };
/** A number's body: the rational itself, which is its own `NumE` (rational.ts), not a `{kind, value}` around it. */
const num = (value: Q.Rational): Body2<never> => value;
const bool = (b: boolean): Body2<never> => (b ? TRUE : FALSE);

/** `a ⊕ b` on two numbers (`rational.ts` computes small integers on doubles and other integers without gcd). */
function arith(op: (a: Q.Rational, b: Q.Rational) => Q.Rational): FastBinop {
  return (a, b) => (a.kind === 'num' && b.kind === 'num' ? num(op(a.value, b.value)) : undefined);
}

/** A comparison of two numbers. */
function compare(test: (c: number) => boolean): FastBinop {
  return (a, b) => (a.kind === 'num' && b.kind === 'num' ? bool(test(Q.cmp(a.value, b.value))) : undefined);
}

/**
 * `+` and `-` written out (not through `arith`): the commonest binops of a loop, each with its own call site
 * of the arithmetic, so V8 keeps them monomorphic.
 */
const PLUS: FastBinop = (a, b) => {
  if (a.kind === 'num' && b.kind === 'num') return num(Q.add(a.value, b.value));
  return a.kind === 'str' && b.kind === 'str' ? { kind: 'str', value: a.value + b.value } : undefined;
};
const MINUS: FastBinop = (a, b) => (a.kind === 'num' && b.kind === 'num' ? num(Q.sub(a.value, b.value)) : undefined);

/** The fast entries, by primitive name (each the counterpart of `STANDARD_PRIMS[name]`). */
const FAST: Readonly<Record<string, FastBinop>> = {
  'binop_+': PLUS,
  'binop_-': MINUS,
  'binop_*': arith(Q.mul),
  // Division and modulo by zero are stuck: the generic path says so in the table's words.
  'binop_/': (a, b) => (a.kind === 'num' && b.kind === 'num' && !Q.isZero(b.value) ? num(Q.div(a.value, b.value)) : undefined),
  // BigInt `%` truncates, as the spec's `%` (sign of the dividend) and `Q.mod`.
  'binop_%': (a, b) => {
    if (a.kind !== 'num' || b.kind !== 'num' || Q.isZero(b.value)) return undefined;
    return num(Q.mod(a.value, b.value));
  },
  'binop_<': compare((c) => c < 0),
  'binop_>': compare((c) => c > 0),
  'binop_<=': compare((c) => c <= 0),
  'binop_>=': compare((c) => c >= 0),
  'binop_==': (a, b) => {
    if (a.kind !== b.kind) return undefined;
    switch (a.kind) {
      case 'num': return bool(Q.eq(a.value, (b as typeof a).value));
      case 'str': case 'bool': return bool(a.value === (b as typeof a).value);
      case 'null': return TRUE;
      default: return undefined;
    }
  },
};

/**
 * The fast binary primitives usable with `prims` (those whose entry is the standard function), by name.
 * Cached per table object.
 */
export function fastBinops(prims: PrimTable): ReadonlyMap<string, FastBinop> {
  let hit = CACHE.get(prims);
  if (!hit) {
    hit = new Map();
    for (const [name, f] of Object.entries(FAST)) if (prims[name] === STANDARD_PRIMS[name]) hit.set(name, f);
    CACHE.set(prims, hit);
  }
  return hit;
}

const CACHE = new WeakMap<PrimTable, Map<string, FastBinop>>();

/** Whether `fromBool` is the standard one (`false` ↦ the false Church boolean, anything else ↦ the true one). */
export function standardFromBool(prims: PrimTable): boolean {
  return prims.fromBool === STANDARD_PRIMS.fromBool;
}
