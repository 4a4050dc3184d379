/**
 * Exact rational weights and numbers. Everything in the semantics that is a number goes through this
 * module's functions, so the backend can change without touching callers.
 *
 * Backend: a small BigInt numerator/denominator pair, always normalised (gcd 1, positive denominator), with
 * small integers (magnitude ≤ 2^53 − 1) computed on doubles (`Rational.s`).
 * It replaced mathjs's `Fraction` (the first backend, still the cross-check in
 * `test/rational-crosscheck.test.ts`) because importing mathjs costs about two seconds of CPU in every
 * process — the CLI, each worker thread and each test file — and the hand-written pair is also faster per
 * operation (docs/design.md, docs/benchmarks.md).
 */

/**
 * How many additions in a row may skip their reducing gcd before a result is reduced anyway (see `add`):
 * bounds the common factors a lazy value can carry.
 */
const LAZY_MAX = 16;

/** Largest magnitude of a small integer (`Rational.s`): 2^53 − 1, below which doubles are exact integers. */
const SMALL_MAX = Number.MAX_SAFE_INTEGER;

/** An exact rational. Treat as opaque: use the functions below, never `===`. */
export class Rational {
  /**
   * Numerator (sign included) and positive denominator. Coprime when `lazy` is 0; otherwise a sum whose
   * reducing gcd was deferred (`add`), reduced in place — same value — the first time it is observed
   * (`eq`, `show`, `numerator`, …) or once `lazy` passes `LAZY_MAX`. Module-internal: read them through
   * the functions below, which see only reduced values.
   *
   * A SMALL INTEGER — an integer of magnitude at most 2^53 − 1 — has its value as a double in `s` (undefined for
   * every other rational; not NaN, which would make V8 store the field as a boxed double in every rational) and no
   * BigInt numerator (`n` undefined; `num` makes one when asked, without keeping it, so that equal small integers
   * are equal field by field, as other reduced rationals are; `reduced` gives a sum that reduces to one the same
   * form). The integer fast paths of `add`, `sub`, `mul`, `mod`, `cmp`, `eq`, `show`, … compute on doubles, exact
   * there, and keep a result a double only when it is small again. A loop counter or a sum of numbers then
   * allocates one object per result instead of a `Rational` and a BigInt, and does no BigInt arithmetic
   * (docs/evaluator-v2.md, "Measurements", nineteenth round).
   */
  private constructor(public n: bigint | undefined, public den: bigint, public lazy: number, public s: number | undefined) {}

  /** The numerator as a BigInt (for a small integer made from `s`, and not kept). */
  get num(): bigint {
    const n = this.n;
    return n !== undefined ? n : BigInt(this.s!);
  }

  /** Build a normalised rational; `den` must be non-zero. */
  static of(num: bigint, den: bigint): Rational {
    if (den === 0n) throw new RangeError('rational with zero denominator');
    if (den < 0n) { num = -num; den = -den; }
    const g = gcd(num < 0n ? -num : num, den);
    return g === 1n ? Rational.normalised(num, den) : Rational.normalised(num / g, den / g);
  }

  /** A rational the caller has already normalised (coprime, positive denominator): module-internal fast path. */
  static normalised(num: bigint, den: bigint): Rational {
    return den === 1n && num <= SAFE && num >= -SAFE ? new Rational(undefined, 1n, 0, Number(num)) : new Rational(num, den, 0, undefined);
  }

  /** `num/den` (positive `den`) whose reduction is deferred `lazy` levels: module-internal. */
  static deferred(num: bigint, den: bigint, lazy: number): Rational {
    return new Rational(num, den, lazy, undefined);
  }

  /** The small integer `s` (an integer of magnitude ≤ 2^53 − 1, not −0): module-internal. */
  static small(s: number): Rational {
    return new Rational(undefined, 1n, 0, s);
  }

  /**
   * A rational is also its own number literal: `kind` and `value` make it a `NumE` (`{kind: 'num', value}`,
   * syntax/ast.ts) without a field of its own — both live on the prototype (below), so a rational stays four
   * fields. Evaluator v2 uses a number's rational as the value's body directly (`prims-fast.ts`), one object
   * fewer per computed number (docs/evaluator-v2.md, "Measurements", twentieth round). Spec-side code still
   * builds plain `{kind: 'num', value}` literals; v2 turns a rational body back into one wherever a value
   * leaves it (`readback`, `plain`).
   */
  declare readonly kind: 'num';
  get value(): Rational {
    return this;
  }

  /** For display in debuggers and template strings: `p/q`. */
  toString(): string {
    return show(this);
  }
}
Object.defineProperty(Rational.prototype, 'kind', { value: 'num', enumerable: false, writable: false });

/** `r`, an integer-valued double of magnitude ≤ 2^53 − 1 (callers check `inSmall`), as a small integer; ±0 as `ZERO`. */
function fromDouble(r: number): Rational {
  return r === 0 ? ZERO : Rational.small(r);
}

/** Whether a double computed from two small integers is itself a small integer (exact): |r| ≤ 2^53 − 1. */
function inSmall(r: number): boolean {
  return r <= SMALL_MAX && r >= -SMALL_MAX;
}

/** Reduce a deferred sum in place (the value is unchanged); returns it. */
function reduced(a: Rational): Rational {
  if (a.lazy !== 0) { // (never a small integer: those are made reduced, with `lazy` 0, and hold no `n`)
    let n = a.n!;
    const g = gcd(n < 0n ? -n : n, a.den);
    if (g !== 1n) { n /= g; a.den /= g; }
    a.lazy = 0;
    // Reduced to a small integer: the small form, so that it is field by field what `rat` would make.
    if (a.den === 1n && n <= SAFE && n >= -SAFE) { a.n = undefined; a.s = Number(n); } else a.n = n;
  }
  return a;
}

/** Largest bigint converted to a double without loss (2^53 − 1). */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * gcd of two non-negative integers (1 for gcd(0, 0), so dividing by it is always safe; exported for
 * `common.ts`). Exact fast paths
 * before Euclid on bigints (whose every step is a bigint division, most of the cost at large N):
 * - a 1 on either side (a weight times 1/2, an integer sum): 1;
 * - both below 2^53: Euclid on doubles (exact on safe integers);
 * - a power of two on either side (dyadic weights, denominators 2^k): the lowest set bit of the other,
 *   capped by the power — `gcd(2^k, x) = min(2^k, x & −x)`, no division at all.
 */
export function gcd(a: bigint, b: bigint): bigint {
  if (a === 1n || b === 1n) return 1n;
  if (a === 0n) return b === 0n ? 1n : b;
  if (b === 0n) return a;
  if (a <= SAFE && b <= SAFE) return BigInt(gcdSmall(Number(a), Number(b)));
  if ((b & (b - 1n)) === 0n) { const low = a & -a; return low < b ? low : b; }
  if ((a & (a - 1n)) === 0n) { const low = b & -b; return low < a ? low : a; }
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** Euclid on safe non-negative integers held as doubles (`%` is exact there). */
function gcdSmall(a: number, b: number): number {
  while (b !== 0) { const t = a % b; a = b; b = t; }
  return a;
}

type IntLike = number | bigint;

/** `n/d` from integers (d ≠ 0). */
export function rat(n: IntLike, d: IntLike = 1): Rational {
  return Rational.of(BigInt(n), BigInt(d));
}

export const ZERO: Rational = rat(0);
export const ONE: Rational = rat(1);

/** Parse `"3/10"`, `"0.25"`, `"-4"`, `"-1/2"`; undefined when the text is not an exact rational. */
export function parseRational(text: string): Rational | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:\/(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, sign, int, frac = '', den = '1'] = m;
  const d = BigInt(den) * 10n ** BigInt(frac.length);
  if (d === 0n) return undefined;
  const n = BigInt(int! + frac);
  return Rational.of(sign === '-' ? -n : n, d);
}

/**
 * Henrici's addition with the reducing gcd deferred. Henrici: reduce by g = gcd of the denominators first,
 * then by gcd(t, g) of the new numerator — on exact weights with large 2^a·3^b denominators that second gcd
 * is Euclid on big numbers, the dominant cost. Here the sum keeps the common denominator lcm(a.den, b.den)
 * and its integer numerator unreduced (common-denominator arithmetic: later sums into it are plain integer
 * additions when the denominators agree), and is reduced once, when it is observed or after `LAZY_MAX`
 * deferred levels. Exact either way: only the moment of the gcd changes.
 */
export function add(a: Rational, b: Rational): Rational {
  const x = a.s, y = b.s;
  if (x !== undefined && y !== undefined) { const r = x + y; if (inSmall(r)) return fromDouble(r); }
  // Zero: small, or (rarely) a deferred sum such as 3/3 − 2/2 (only then is `num` read here: a small integer's
  // would be a fresh BigInt).
  if (x === 0 || (x === undefined && a.num === 0n)) return b;
  if (y === 0 || (y === undefined && b.num === 0n)) return a;
  if (a.den === 1n && b.den === 1n) return Rational.normalised(a.num + b.num, 1n);
  const lazy = (a.lazy > b.lazy ? a.lazy : b.lazy) + 1;
  if (a.den === b.den) return sum(a.num + b.num, a.den, lazy);
  const g = gcd(a.den, b.den);
  // Coprime denominators: the sum of two reduced fractions is reduced, and a lazy operand's common factors carry over unchanged.
  if (g === 1n) return Rational.deferred(a.num * b.den + b.num * a.den, a.den * b.den, lazy - 1);
  const bg = b.den / g;
  return sum(a.num * bg + b.num * (a.den / g), a.den * bg, lazy);
}

/** A sum `t/d` over the common denominator, reduced now only when it has been deferred long enough. */
function sum(t: bigint, d: bigint, lazy: number): Rational {
  if (t === 0n) return ZERO;
  if (lazy <= LAZY_MAX) return Rational.deferred(t, d, lazy);
  const g = gcd(t < 0n ? -t : t, d);
  return g === 1n ? Rational.normalised(t, d) : Rational.normalised(t / g, d / g);
}
export function sub(a: Rational, b: Rational): Rational {
  const x = a.s, y = b.s;
  if (x !== undefined && y !== undefined) { const r = x - y; if (inSmall(r)) return fromDouble(r); }
  return add(a, neg(b));
}
/**
 * Cross-cancelled multiplication: gcds of each numerator with the other denominator only (cheap when one
 * side is a model's small probability). Reduced inputs give a reduced product; a deferred operand's common
 * factors may remain, so the product stays deferred at the same level.
 */
export function mul(a: Rational, b: Rational): Rational {
  const x = a.s, y = b.s;
  // A double product of magnitude ≤ 2^53 − 1 is exact: rounding is monotone, so an exact product above that
  // bound rounds to at least 2^53.
  if (x !== undefined && y !== undefined) { const r = x * y; if (inSmall(r)) return fromDouble(r); }
  if (x === 1) return b;
  if (y === 1) return a;
  if (x === 0 || y === 0) return ZERO;
  // The numerators as BigInts, each read once (a small integer's `num` would be a fresh BigInt at every read).
  const an = x === undefined ? a.n! : BigInt(x), bn = y === undefined ? b.n! : BigInt(y);
  if (an === 0n || bn === 0n) return ZERO;
  if (a.den === 1n && b.den === 1n) return Rational.normalised(an * bn, 1n);
  const g1 = gcd(an < 0n ? -an : an, b.den);
  const g2 = gcd(bn < 0n ? -bn : bn, a.den);
  const lazy = a.lazy > b.lazy ? a.lazy : b.lazy;
  // (A model's probability times a weight: mostly coprime, and a BigInt division by 1 still makes a new BigInt.)
  const n = (g1 === 1n ? an : an / g1) * (g2 === 1n ? bn : bn / g2);
  return Rational.deferred(n, (g2 === 1n ? a.den : a.den / g2) * (g1 === 1n ? b.den : b.den / g1), lazy);
}
/** Division; throws on a zero divisor (callers check first: division by zero is a stuck run, not a crash). */
export function div(a: Rational, b: Rational): Rational { return Rational.of(a.num * b.den, a.den * b.num); }
export function neg(a: Rational): Rational {
  const x = a.s;
  return x !== undefined ? fromDouble(-x) : Rational.deferred(-a.num, a.den, a.lazy);
}
/** -1, 0, 1 */
export function cmp(a: Rational, b: Rational): number {
  const x = a.s, y = b.s;
  if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  const l = a.num * b.den, r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}
export function eq(a: Rational, b: Rational): boolean {
  if (a === b) return true;
  const x = a.s, y = b.s;
  // (A small integer is reduced with denominator 1; any other rational equal to it is small too once reduced,
  // but may not carry `s`: compare those by their parts.)
  if (x !== undefined && y !== undefined) return x === y;
  reduced(a);
  reduced(b);
  return a.num === b.num && a.den === b.den;
}
export function lt(a: Rational, b: Rational): boolean { return cmp(a, b) < 0; }
export function le(a: Rational, b: Rational): boolean { return cmp(a, b) <= 0; }
export function isZero(a: Rational): boolean { const x = a.s; return x !== undefined ? x === 0 : a.num === 0n; }
export function isInteger(a: Rational): boolean { const x = a.s; return x !== undefined || reduced(a).den === 1n; }
export function max(a: Rational, b: Rational): Rational { return le(a, b) ? b : a; }
export function min(a: Rational, b: Rational): Rational { return le(a, b) ? a : b; }
/** Remainder with the sign of the dividend (JavaScript's `%`, as mathjs's `Fraction.mod`): `a - b·trunc(a/b)`. */
export function mod(a: Rational, b: Rational): Rational {
  const x = a.s, y = b.s;
  if (x !== undefined && y !== undefined && y !== 0) return fromDouble(x % y); // exact on safe integers, the sign of the dividend
  const q = (a.num * b.den) / (a.den * b.num); // BigInt division truncates towards zero
  return sub(a, mul(b, Rational.of(q, 1n)));
}
/**
 * The integer `n` (denominator 1, already normalised: no gcd). A separate small function so callers can
 * take an integer fast path themselves (`isInteger`, `numerator`, then this) without changing `add`/`mul`.
 */
export function integer(n: bigint): Rational { return Rational.normalised(n, 1n); }
/**
 * A small integer's value as a double (an integer of magnitude at most 2^53 − 1, never −0), else undefined: for
 * callers that compute on such numbers themselves (evaluator v2 keeps them in frames and in loop blocks without an
 * object each). `ofSmall` gives back a rational equal field by field to `a`.
 */
export function smallOf(a: Rational): number | undefined {
  // (Kept this small so that it is inlined into the evaluator's hot loops: a deferred sum that is an integer, such as
  // 1/2 + 1/2, is one only once reduced, which `smallIntegerOf` does first.)
  return a.s;
}
/** `smallOf(a)` after reducing a deferred sum (1/2 + 1/2 is the small integer 1): exact, for callers that need every integer. */
export function smallIntegerOf(a: Rational): number | undefined {
  return a.lazy === 0 ? a.s : reduced(a).s;
}
/** The rational of an integer-valued double of magnitude at most 2^53 − 1 (−0 is 0). */
export function ofSmall(x: number): Rational {
  if (!Number.isSafeInteger(x)) throw new RangeError(`internal error: ${x} is not a small integer`);
  return fromDouble(x);
}
/** Numerator with sign. */
export function numerator(a: Rational): bigint { return reduced(a).num; }
/** Positive denominator. */
export function denominator(a: Rational): bigint { return reduced(a).den; }

/** Canonical text: `p/q` or `p` (integers). Used as a key and in messages. */
export function show(a: Rational): string {
  const x = a.s;
  if (x !== undefined) return String(x); // a safe integer's double prints as its digits, as the BigInt would
  reduced(a);
  return a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`;
}

/** Decimal rendering for humans only (never fed back into the semantics). */
export function toDecimal(a: Rational, digits = 6): string {
  const neg = a.num < 0n;
  const scale = 10n ** BigInt(digits);
  const mag = neg ? -a.num : a.num;
  const scaled = (mag * scale * 2n + a.den) / (2n * a.den); // round half up
  const sign = neg && scaled !== 0n ? '-' : '';
  const int = scaled / scale;
  const frac = (scaled % scale).toString().padStart(digits, '0');
  return digits === 0 ? `${sign}${int}` : `${sign}${int}.${frac}`;
}

/** Float approximation, for display and statistics only. */
export function toNumber(a: Rational): number {
  const x = a.s;
  if (x !== undefined) return x;
  reduced(a);
  return Number(a.num) / Number(a.den);
}
