/**
 * Common-denominator sums (`src/distributions/common.ts`, issue 12 part 4) against two independent
 * references on generated inputs: mathjs's `Fraction` (the original backend) and repeated Henrici `Q.add`
 * (today's representation). Inputs are shaped like the evaluator's weights — dyadic (a), 2^a·3^b (b),
 * mixed small denominators, big arbitrary ones, signs and zero sums — so every path of `addFraction`
 * (equal denominator, a divisor of the shared one, a widening lcm) is taken.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Fraction } from 'mathjs';
import * as Q from '../src/distributions/rational.ts';
import { CommonSum, sumAll } from '../src/distributions/common.ts';

const same = (a: Q.Rational, b: Fraction): boolean => Q.numerator(a) === b.s * b.n && Q.denominator(a) === b.d;

const pow2 = fc.integer({ min: 0, max: 300 }).map((k) => 2n ** BigInt(k));
const smooth = fc.tuple(fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: 80 })).map(([a, b]) => 2n ** BigInt(a) * 3n ** BigInt(b));
const smallDen = fc.bigInt({ min: 1n, max: 12n });
const bigDen = fc.bigInt({ min: 1n, max: 10n ** 30n });
const num = fc.oneof(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.bigInt({ min: -3n, max: 3n }), fc.bigInt({ min: 1n, max: 2n ** 200n }));
/** One family of denominators per generated list, as a round's weights share their shape. */
const family = fc.constantFrom(pow2, smooth, smallDen, bigDen, fc.oneof(pow2, smooth, smallDen));
const adds = family.chain((den) => fc.array(fc.tuple(fc.constantFrom('x', 'y', 'z', 'w'), num, den), { maxLength: 40 }));

describe('CommonSum: exact sums over one denominator', () => {
  it('equals mathjs Fraction sums and repeated Henrici Q.add, key by key and in total', () => {
    fc.assert(
      fc.property(adds, (xs) => {
        const acc = new CommonSum<string>();
        const frac = new Map<string, Fraction>();
        const henrici = new Map<string, Q.Rational>();
        for (const [k, n, d] of xs) {
          acc.addFraction(k, n, d);
          frac.set(k, (frac.get(k) ?? new Fraction(0)).add(new Fraction(n, d)));
          henrici.set(k, Q.add(henrici.get(k) ?? Q.ZERO, Q.rat(n, d)));
        }
        const got = acc.entries();
        expect(got.map(([k]) => k)).toEqual([...frac.keys()]);
        for (const [k, w] of got) {
          expect(same(w, frac.get(k)!)).toBe(true);
          expect(Q.eq(w, henrici.get(k)!)).toBe(true);
          expect(Q.eq(acc.weightOf(k), w)).toBe(true);
        }
        const total = [...frac.values()].reduce((a, b) => a.add(b), new Fraction(0));
        expect(same(acc.total(), total)).toBe(true);
        // The shared denominator is a common multiple of every denominator added.
        for (const [, , d] of xs) expect(acc.denominator % d).toBe(0n);
      }),
      { numRuns: 1500, seed: 12 },
    );
  });

  it('sumAll equals a Fraction sum and a Henrici fold', () => {
    fc.assert(
      fc.property(adds, (xs) => {
        const rs = xs.map(([, n, d]) => Q.rat(n, d));
        const viaFrac = xs.reduce((a, [, n, d]) => a.add(new Fraction(n, d)), new Fraction(0));
        expect(same(sumAll(rs), viaFrac)).toBe(true);
        expect(Q.eq(sumAll(rs), rs.reduce((a, b) => Q.add(a, b), Q.ZERO))).toBe(true);
      }),
      { numRuns: 1500, seed: 13 },
    );
  });

  it('reads back normalised weights: (a)-like and (b)-like rounds, zero sums, an absent key', () => {
    const acc = new CommonSum<number>();
    // A round of (b): weight 1/6^k moved by 1/2, 1/3, 1/6, then sums that cancel to 0.
    acc.addFraction(0, 1n, 2n * 6n ** 5n);
    acc.addFraction(0, 1n, 3n * 6n ** 5n);
    acc.addFraction(0, 1n, 6n * 6n ** 5n);
    expect(Q.show(acc.weightOf(0))).toBe(`1/${6n ** 5n}`);
    acc.addFraction(1, 3n, 8n);
    acc.addFraction(1, -6n, 16n);
    expect(Q.show(acc.weightOf(1))).toBe('0');
    expect(Q.show(acc.weightOf(7))).toBe('0');
    expect(Q.show(acc.total())).toBe(`1/${6n ** 5n}`);
    expect(Q.show(sumAll([]))).toBe('0');
    expect(() => acc.addFraction(2, 1n, 0n)).toThrow(/not positive/);
  });

  it('chains rounds unreduced (unreduced + denominator) and still reads the exact binomial row of 40 fair flips', () => {
    let den = 1n;
    let nums: [number, bigint][] = [[0, 1n]];
    let acc = new CommonSum<number>();
    for (let i = 0; i < 40; i++) {
      acc = new CommonSum<number>();
      for (const [s, n] of nums) { acc.addFraction(s, n, 2n * den); acc.addFraction(s + 1, n, 2n * den); }
      nums = acc.unreduced();
      den = acc.denominator;
    }
    // Independent: C(40, k) / 2^40 by the multiplicative formula.
    let c = 1n;
    for (let k = 0; k <= 40; k++) {
      expect(Q.show(acc.weightOf(k))).toBe(Q.show(Q.rat(c, 2n ** 40n)));
      c = (c * BigInt(40 - k)) / BigInt(k + 1);
    }
    expect(den).toBe(2n ** 40n);
  });
});
