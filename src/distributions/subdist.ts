/**
 * Finite sub-distributions with exact rational weights (spec §5): the denotation's carrier.
 *
 * A `SubDist<T>` maps outcomes to positive weights whose total (the mass) is at most 1 when it is a
 * denotation; missing mass is divergence, stuckness or lost fuel. Outcomes are keyed by a canonical
 * serialisation `key`, because JS `Map`s compare objects by reference. `bind` never normalises
 * (conditioning on termination is the wrong TIPNI); `normalise` is a separate, named step.
 *
 * Operations keep an unordered `Map`; sorting by key happens only in `entries`/`support`/`show`
 * (and is cached), because these functions sit in the exact evaluator's inner loop.
 */
import {
  ONE,
  ZERO,
  add as radd,
  cmp,
  div,
  eq,
  isZero,
  le,
  lt,
  max as rmax,
  mul,
  rat,
  show as showRat,
  sub,
} from './rational.ts';
import type { Rational } from './rational.ts';

/** Canonical serialisation of outcomes: equal outcomes must have equal keys and vice versa. */
export type Key<T> = (t: T) => string;

/** One stored outcome with its (positive) weight. */
export interface Weighted<T> {
  readonly outcome: T;
  readonly weight: Rational;
}

/**
 * Stand-in key for a result whose outcome type was never seen (binding an empty distribution without
 * a key). It is only ever called if such a distribution later gains outcomes, which is a caller bug.
 */
const unknownKey: Key<never> = () => {
  throw new Error('internal error: SubDist key unknown; pass a key to bind() when its input may be empty');
};

/**
 * A finite sub-distribution. Build it with the module functions (`zero`, `dirac`, `fromEntries`, …);
 * the table maps `key(outcome)` to the outcome and its weight, every weight strictly positive.
 */
export class SubDist<T> {
  /** Cached canonical order (sorted by key); computed on first `entries`. */
  #sorted: readonly (readonly [string, Weighted<T>])[] | undefined;

  /**
   * Callers must guarantee that every weight is positive and every map key is `key(outcome)`; prefer
   * the module functions, which do.
   */
  constructor(
    /** The canonical serialisation outcomes are keyed by. */
    readonly key: Key<T>,
    /** `key(outcome) ↦ (outcome, weight)`, every weight positive; unordered. */
    readonly table: ReadonlyMap<string, Weighted<T>>,
  ) {}

  /** Table rows in canonical (key) order. */
  sortedRows(): readonly (readonly [string, Weighted<T>])[] {
    if (this.#sorted === undefined) {
      this.#sorted = [...this.table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    }
    return this.#sorted;
  }

  /** Number of outcomes with positive weight. */
  get size(): number {
    return this.table.size;
  }
}

/** Pick the key of the pair that knows it (an empty `bind` result may not). */
function keyOf<T>(d1: SubDist<T>, d2: SubDist<T>): Key<T> {
  return d1.key === unknownKey ? d2.key : d1.key;
}

/** Add `w` to the weight of `x` in an accumulating table. */
function accumulate<T>(acc: Map<string, Weighted<T>>, k: string, x: T, w: Rational): void {
  const prev = acc.get(k);
  acc.set(k, prev === undefined ? { outcome: x, weight: w } : { outcome: prev.outcome, weight: radd(prev.weight, w) });
}

/** The empty sub-distribution (mass 0). */
export function zero<T>(key: Key<T>): SubDist<T> {
  return new SubDist(key, new Map());
}

/** The point mass `δ(x)` (mass 1). The outcome type comes from `key`. */
export function dirac<T>(x: NoInfer<T>, key: Key<T>): SubDist<T> {
  return new SubDist(key, new Map([[key(x), { outcome: x, weight: ONE }]]));
}

/**
 * From `(outcome, weight)` pairs: equal outcomes (by key) are merged, zero weights dropped. A
 * negative weight is a caller bug and throws.
 */
export function fromEntries<T>(es: Iterable<readonly [NoInfer<T>, Rational]>, key: Key<T>): SubDist<T> {
  const b = new SubDistBuilder(key);
  for (const [x, w] of es) b.add(x, w);
  return b.build();
}

/**
 * `fromEntries` one outcome at a time, without a list of pairs first: `add` merges equal outcomes (by key) and
 * drops zero weights, `build` gives the sub-distribution. An evaluation's outcomes go straight into its table this
 * way (`assembleEvaluation`), so 2^16 of them do not each keep a pair alive until the table is built.
 */
export class SubDistBuilder<T> {
  readonly #acc = new Map<string, Weighted<T>>();
  constructor(readonly key: Key<T>) {}

  /** Add weight `w` (non-negative: a negative one is a caller bug and throws) to outcome `x`. */
  add(x: T, w: Rational): void {
    if (lt(w, ZERO)) throw new Error(`internal error: negative weight ${showRat(w)}`);
    if (!isZero(w)) accumulate(this.#acc, this.key(x), x, w);
  }

  /** The sub-distribution of everything added (the builder is not to be used afterwards). */
  build(): SubDist<T> {
    return new SubDist(this.key, this.#acc);
  }
}

/** `(outcome, weight)` pairs in canonical key order. */
export function entries<T>(d: SubDist<T>): readonly (readonly [T, Rational])[] {
  return d.sortedRows().map(([, e]) => [e.outcome, e.weight] as const);
}

/** `(key, outcome, weight)` rows in canonical key order. */
export function keyedEntries<T>(d: SubDist<T>): readonly { readonly key: string; readonly outcome: T; readonly weight: Rational }[] {
  return d.sortedRows().map(([key, e]) => ({ key, outcome: e.outcome, weight: e.weight }));
}

/** The weight of `x` (0 when absent). */
export function weightOf<T>(d: SubDist<T>, x: T): Rational {
  return d.table.get(d.key(x))?.weight ?? ZERO;
}

/** The weight stored under key `k` (0 when absent). */
export function weightOfKey<T>(d: SubDist<T>, k: string): Rational {
  return d.table.get(k)?.weight ?? ZERO;
}

/**
 * Monadic bind `Σ_x d(x) · f(x)`: never normalises; equal outcomes of different branches are merged
 * by key. `key` is the result's key; when omitted it is taken from the branches' results (so it must
 * be given when `d` may be empty and the result will be combined further).
 */
export function bind<T, U>(d: SubDist<T>, f: (x: T) => SubDist<U>, key?: Key<U>): SubDist<U> {
  // Fast path for the common deterministic step: δ(x) >>= f is f(x).
  if (d.table.size === 1) {
    const only = d.table.values().next().value as Weighted<T>;
    if (eq(only.weight, ONE)) {
      const r = f(only.outcome);
      if (key === undefined || key === r.key) return r;
    }
  }
  let k: Key<U> | undefined = key;
  const acc = new Map<string, Weighted<U>>();
  for (const { outcome, weight } of d.table.values()) {
    const r = f(outcome);
    if (k === undefined && r.key !== unknownKey) k = r.key;
    const rekey = key !== undefined && r.key !== key;
    for (const [rk, e] of r.table) accumulate(acc, rekey ? key(e.outcome) : rk, e.outcome, mul(weight, e.weight));
  }
  return new SubDist(k ?? (unknownKey as Key<U>), acc);
}

/** Image under `f`, merging outcomes that `f` makes equal. */
export function map<T, U>(d: SubDist<T>, f: (x: T) => U, key: Key<U>): SubDist<U> {
  const acc = new Map<string, Weighted<U>>();
  for (const { outcome, weight } of d.table.values()) {
    const y = f(outcome);
    accumulate(acc, key(y), y, weight);
  }
  return new SubDist(key, acc);
}

/** Keep only the outcomes satisfying `p` (no renormalisation). */
export function filter<T>(d: SubDist<T>, p: (x: T) => boolean): SubDist<T> {
  const acc = new Map<string, Weighted<T>>();
  for (const [k, e] of d.table) if (p(e.outcome)) acc.set(k, e);
  return new SubDist(d.key, acc);
}

/** `r · d` for a rational `r ≥ 0`. */
export function scale<T>(d: SubDist<T>, r: Rational): SubDist<T> {
  if (lt(r, ZERO)) throw new Error(`internal error: scaling by negative ${showRat(r)}`);
  if (isZero(r)) return zero(d.key);
  if (eq(r, ONE)) return d;
  const acc = new Map<string, Weighted<T>>();
  for (const [k, e] of d.table) acc.set(k, { outcome: e.outcome, weight: mul(r, e.weight) });
  return new SubDist(d.key, acc);
}

/** Pointwise sum (a measure; the caller ensures the result is still a sub-distribution if needed). */
export function add<T>(d1: SubDist<T>, d2: SubDist<T>): SubDist<T> {
  if (d1.table.size === 0) return d2;
  if (d2.table.size === 0) return d1;
  const acc = new Map(d1.table);
  for (const [k, e] of d2.table) accumulate(acc, k, e.outcome, e.weight);
  return new SubDist(keyOf(d1, d2), acc);
}

/** Total weight. */
export function mass<T>(d: SubDist<T>): Rational {
  let m = ZERO;
  for (const e of d.table.values()) m = radd(m, e.weight);
  return m;
}

/** `1 − mass(d)`: the missing mass (divergence, stuckness, lost fuel). */
export function divergence<T>(d: SubDist<T>): Rational {
  return sub(ONE, mass(d));
}

/** Outcomes with positive weight, in canonical key order. */
export function support<T>(d: SubDist<T>): readonly T[] {
  return d.sortedRows().map(([, e]) => e.outcome);
}

/** Pointwise `d1 ≤ d2`. */
export function leq<T>(d1: SubDist<T>, d2: SubDist<T>): boolean {
  for (const [k, e] of d1.table) {
    const w2 = d2.table.get(k)?.weight;
    if (w2 === undefined || !le(e.weight, w2)) return false;
  }
  return true;
}

/** Equality of sub-distributions: same outcome keys with equal weights. */
export function equals<T>(d1: SubDist<T>, d2: SubDist<T>): boolean {
  if (d1.table.size !== d2.table.size) return false;
  for (const [k, e] of d1.table) {
    const w2 = d2.table.get(k)?.weight;
    if (w2 === undefined || !eq(e.weight, w2)) return false;
  }
  return true;
}

/** `Σ_x max(d1(x), d2(x))`: the mass of the least common upper bound. */
export function maxSum<T>(d1: SubDist<T>, d2: SubDist<T>): Rational {
  let s = ZERO;
  for (const [k, e] of d1.table) s = radd(s, rmax(e.weight, d2.table.get(k)?.weight ?? ZERO));
  for (const [k, e] of d2.table) if (!d1.table.has(k)) s = radd(s, e.weight);
  return s;
}

/** The pointwise maximum of two sub-distributions (the least measure dominating both). */
export function pointwiseMax<T>(d1: SubDist<T>, d2: SubDist<T>): SubDist<T> {
  const acc = new Map(d1.table);
  for (const [k, e] of d2.table) {
    const prev = acc.get(k);
    if (prev === undefined || lt(prev.weight, e.weight)) acc.set(k, prev === undefined ? e : { outcome: prev.outcome, weight: e.weight });
  }
  return new SubDist(keyOf(d1, d2), acc);
}

/** `μ ⌣ ν`: some sub-distribution dominates both, i.e. `Σ_x max(μ(x), ν(x)) ≤ 1` (spec §5). */
export function compatible<T>(d1: SubDist<T>, d2: SubDist<T>): boolean {
  return le(maxSum(d1, d2), ONE);
}

/** Pushforward along a class key: the weight of each class is the sum over its members. */
export function pushforward<T>(d: SubDist<T>, k: (t: T) => string): SubDist<string> {
  const acc = new Map<string, Weighted<string>>();
  for (const e of d.table.values()) {
    const c = k(e.outcome);
    accumulate(acc, c, c, e.weight);
  }
  return new SubDist(identityKey, acc);
}

/** The key of `SubDist<string>`: the string itself. */
export const identityKey: Key<string> = (s) => s;

/** Total variation distance `Δ(d1, d2) = ½ Σ_x |d1(x) − d2(x)|`. */
export function distance<T>(d1: SubDist<T>, d2: SubDist<T>): Rational {
  let s = ZERO;
  for (const [k, e] of d1.table) {
    const w2 = d2.table.get(k)?.weight ?? ZERO;
    s = radd(s, cmp(e.weight, w2) >= 0 ? sub(e.weight, w2) : sub(w2, e.weight));
  }
  for (const [k, e] of d2.table) if (!d1.table.has(k)) s = radd(s, e.weight);
  return div(s, rat(2));
}

/** `d / mass(d)`, conditioning on termination; `undefined` when the mass is 0. Never used by `bind`. */
export function normalise<T>(d: SubDist<T>): SubDist<T> | undefined {
  const m = mass(d);
  if (isZero(m)) return undefined;
  if (eq(m, ONE)) return d;
  const acc = new Map<string, Weighted<T>>();
  for (const [k, e] of d.table) acc.set(k, { outcome: e.outcome, weight: div(e.weight, m) });
  return new SubDist(d.key, acc);
}

/**
 * `{k1 ↦ w1, k2 ↦ w2}` in canonical order; outcomes printed by `showOutcome` (default: their key).
 */
export function show<T>(d: SubDist<T>, showOutcome?: (t: T) => string): string {
  const rows = d.sortedRows().map(([k, e]) => `${showOutcome ? showOutcome(e.outcome) : k} ↦ ${showRat(e.weight)}`);
  return `{${rows.join(', ')}}`;
}
