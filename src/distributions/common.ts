/**
 * Common-denominator accumulation of exact weights (issue 12, part 4).
 *
 * The Henrici form of `rational.ts` keeps every weight normalised, so each addition pays a gcd of the
 * (large) sum with the shared part of the denominators: Euclid on bigints, one bigint division per step,
 * the cost that dominates exact weights with 2^a·3^b denominators at large N. A `CommonSum` instead keeps
 * ONE BigInt denominator `den` (a common multiple of every denominator added so far, the lcm when the
 * inputs are normalised) and an integer numerator per key; adding `n/d` costs at most one bigint division
 * (`den / d`) and a multiplication, and no gcd at all when `d` divides `den` (equal denominators, dyadic
 * weights under a larger power of two, a step's 1/2, 1/3, 1/6 over 6^k). Normalising happens once, when
 * the weights are read (`entries`, `weightOf`, `total`): one gcd per key instead of one per addition.
 *
 * Exactness is never traded: every value read back is the normalised `Rational` of the exact sum
 * (checked against mathjs's `Fraction` and against repeated `Q.add` in `test/common-denominator.test.ts`).
 * What it does trade is size: the numerators carry the common denominator's factors until the read, so it
 * pays when many additions share (or divide) one denominator and the sums are read rarely.
 */
import * as Q from './rational.ts';
import type { Rational } from './rational.ts';

/** Exact sums of rationals per key over one shared denominator; normalised once, when read. */
export class CommonSum<K> {
  /** The shared denominator: positive, a multiple of every denominator added. */
  #den = 1n;
  /** Numerator per key, over `#den` (not reduced). */
  readonly #nums = new Map<K, bigint>();

  /** Add `num/den` (`den > 0`, not necessarily reduced) to the weight of `k`. */
  addFraction(k: K, num: bigint, den: bigint): void {
    if (den <= 0n) throw new RangeError(`internal error: CommonSum denominator ${den} is not positive`);
    let scaled: bigint;
    if (den === this.#den) scaled = num;
    else {
      const q = this.#den / den;
      if (q * den === this.#den) scaled = num * q; // den divides the shared denominator: no gcd
      else {
        // Widen the shared denominator to lcm(#den, den) and rescale every numerator once.
        const f = den / Q.gcd(this.#den, den);
        if (f !== 1n) for (const [key, n] of this.#nums) this.#nums.set(key, n * f);
        this.#den *= f;
        scaled = num * (this.#den / den);
      }
    }
    const prev = this.#nums.get(k);
    this.#nums.set(k, prev === undefined ? scaled : prev + scaled);
  }

  /** Add the rational `r` to the weight of `k`. */
  add(k: K, r: Rational): void {
    this.addFraction(k, Q.numerator(r), Q.denominator(r));
  }

  /** Keys added so far (insertion order). */
  get size(): number {
    return this.#nums.size;
  }

  /** The shared denominator as it stands (a common multiple of the inputs' denominators; not reduced). */
  get denominator(): bigint {
    return this.#den;
  }

  /** The exact weight of `k` (0 when never added), normalised. */
  weightOf(k: K): Rational {
    const n = this.#nums.get(k);
    return n === undefined ? Q.ZERO : Q.rat(n, this.#den);
  }

  /** Every key with its exact, normalised weight, in insertion order (zero sums included). */
  entries(): [K, Rational][] {
    const out: [K, Rational][] = [];
    for (const [k, n] of this.#nums) out.push([k, Q.rat(n, this.#den)]);
    return out;
  }

  /**
   * Every key with its numerator over `denominator`, NOT reduced, in insertion order: for chaining rounds
   * of a forward pass without normalising in between (`addFraction(k, num · p, denominator · q)`).
   */
  unreduced(): [K, bigint][] {
    return [...this.#nums];
  }

  /** The sum of every weight, normalised (one gcd). */
  total(): Rational {
    let t = 0n;
    for (const n of this.#nums.values()) t += n;
    return Q.rat(t, this.#den);
  }
}

/** `Σ rs` exactly, over one common denominator: a single gcd at the end instead of one per addition. */
export function sumAll(rs: Iterable<Rational>): Rational {
  let den = 1n;
  let num = 0n;
  for (const r of rs) {
    const d = Q.denominator(r);
    const n = Q.numerator(r);
    if (d === den) { num += n; continue; }
    const q = den / d;
    if (q * d === den) { num += n * q; continue; }
    const f = d / Q.gcd(den, d);
    num *= f;
    den *= f;
    num += n * (den / d);
  }
  return Q.rat(num, den);
}
