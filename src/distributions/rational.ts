/**
 * Exact rational weights and numbers. Everything in the semantics that is a number goes through
 * this module, so the backend can be swapped without touching callers (see docs/design.md).
 *
 * Backend: mathjs's `Fraction` (fraction.js, BigInt-based), used through its class methods.
 */
import { Fraction } from 'mathjs';

/** An exact rational. Treat as opaque: use the functions below, never `===`. */
export type Rational = Fraction;

type IntLike = number | bigint;

/** `n/d` from integers (d ≠ 0). */
export function rat(n: IntLike, d: IntLike = 1): Rational {
  return new Fraction(BigInt(n), BigInt(d));
}

export const ZERO: Rational = rat(0);
export const ONE: Rational = rat(1);

/** Parse `"3/10"`, `"0.25"`, `"-4"`; undefined when the text is not an exact rational. */
export function parseRational(text: string): Rational | undefined {
  const t = text.trim();
  if (!/^-?\d+(\.\d+)?(\/\d+)?$/.test(t)) return undefined;
  if (t.includes('/')) {
    const [a, b] = t.split('/') as [string, string];
    const num = parseRational(a);
    const den = BigInt(b);
    if (num === undefined || den === 0n) return undefined;
    return div(num, rat(den));
  }
  return new Fraction(t);
}

export function add(a: Rational, b: Rational): Rational { return a.add(b); }
export function sub(a: Rational, b: Rational): Rational { return a.sub(b); }
export function mul(a: Rational, b: Rational): Rational { return a.mul(b); }
/** Division; the caller must ensure `b` is non-zero. */
export function div(a: Rational, b: Rational): Rational { return a.div(b); }
export function neg(a: Rational): Rational { return a.neg(); }
/** -1, 0, 1 */
export function cmp(a: Rational, b: Rational): number { return Number(a.compare(b)); }
export function eq(a: Rational, b: Rational): boolean { return a.equals(b); }
export function lt(a: Rational, b: Rational): boolean { return cmp(a, b) < 0; }
export function le(a: Rational, b: Rational): boolean { return cmp(a, b) <= 0; }
export function isZero(a: Rational): boolean { return a.n === 0n; }
export function isInteger(a: Rational): boolean { return a.d === 1n; }
export function max(a: Rational, b: Rational): Rational { return le(a, b) ? b : a; }
export function min(a: Rational, b: Rational): Rational { return le(a, b) ? a : b; }
/** Euclidean-style remainder with the sign of the divisor's magnitude rule of JS `%` (sign of dividend). */
export function mod(a: Rational, b: Rational): Rational { return a.mod(b); }
export function numerator(a: Rational): bigint { return a.s * a.n; }
export function denominator(a: Rational): bigint { return a.d; }

/** Canonical text: `p/q` or `p` (integers). Used as a key and in messages. */
export function show(a: Rational): string {
  const n = numerator(a);
  return a.d === 1n ? n.toString() : `${n}/${a.d}`;
}

/** Decimal rendering for humans only (never fed back into the semantics). */
export function toDecimal(a: Rational, digits = 6): string {
  const sign = a.s < 0n && a.n !== 0n ? '-' : '';
  const scale = 10n ** BigInt(digits);
  const scaled = (a.n * scale * 2n + a.d) / (2n * a.d); // round half up
  const int = scaled / scale;
  const frac = (scaled % scale).toString().padStart(digits, '0');
  return digits === 0 ? `${sign}${int}` : `${sign}${int}.${frac}`;
}

/** Float approximation, for display and statistics only. */
export function toNumber(a: Rational): number {
  return a.valueOf();
}
