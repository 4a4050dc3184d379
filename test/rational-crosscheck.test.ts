/**
 * The exact-rational backend (a BigInt pair) cross-checked against mathjs's `Fraction`, the user's
 * original choice, operation by operation on generated rationals.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Fraction } from 'mathjs';
import * as Q from '../src/distributions/rational.ts';

const intArb = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
const denArb = fc.bigInt({ min: 1n, max: 10n ** 20n });
const ratArb = fc.tuple(intArb, denArb);

const ours = ([n, d]: [bigint, bigint]): Q.Rational => Q.rat(n, d);
const theirs = ([n, d]: [bigint, bigint]): Fraction => new Fraction(n, d);
const same = (a: Q.Rational, b: Fraction): boolean => Q.numerator(a) === b.s * b.n && Q.denominator(a) === b.d;

describe('rational backend agrees with mathjs Fraction', () => {
  it('add, sub, mul, div, neg, mod, compare, equality', () => {
    fc.assert(
      fc.property(ratArb, ratArb, (x, y) => {
        const [a, b, fa, fb] = [ours(x), ours(y), theirs(x), theirs(y)];
        expect(same(Q.add(a, b), fa.add(fb))).toBe(true);
        expect(same(Q.sub(a, b), fa.sub(fb))).toBe(true);
        expect(same(Q.mul(a, b), fa.mul(fb))).toBe(true);
        expect(same(Q.neg(a), fa.neg())).toBe(true);
        if (!Q.isZero(b)) {
          expect(same(Q.div(a, b), fa.div(fb))).toBe(true);
          expect(same(Q.mod(a, b), fa.mod(fb))).toBe(true);
        }
        expect(Q.cmp(a, b)).toBe(Number(fa.compare(fb)));
        expect(Q.eq(a, b)).toBe(fa.equals(fb));
      }),
      { numRuns: 2000, seed: 1 },
    );
  });

  it('agrees on the fast paths: dyadic, equal, integer, small and 2^53-boundary denominators', () => {
    // Operands built to hit each exact shortcut of `gcd`/`add` (powers of two on either side, one shared
    // denominator, integers, both parts below 2^53, parts straddling 2^53) and Euclid after them.
    const big = fc.bigInt({ min: -(2n ** 400n), max: 2n ** 400n });
    const pow2 = fc.integer({ min: 0, max: 400 }).map((k) => 2n ** BigInt(k));
    const smooth = fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 120 })).map(([a, b]) => 2n ** BigInt(a) * 3n ** BigInt(b));
    const nearSafe = fc.bigInt({ min: 2n ** 53n - 64n, max: 2n ** 53n + 64n });
    const small = fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n });
    const smallDen = fc.bigInt({ min: 1n, max: 2n ** 53n });
    const shaped = fc.oneof(
      fc.tuple(big, pow2), fc.tuple(small, pow2), fc.tuple(big, smooth), fc.tuple(small, smallDen),
      fc.tuple(nearSafe, nearSafe), fc.tuple(big, fc.constant(1n)), fc.tuple(small, nearSafe), fc.tuple(nearSafe, pow2),
    );
    const pairs = fc.oneof(
      fc.tuple(shaped, shaped),
      // One shared denominator (the `a.den === b.den` shortcut of `add`).
      fc.tuple(fc.tuple(big, big), fc.oneof(pow2, smooth, smallDen, nearSafe)).map(([[n1, n2], d]) => [[n1, d], [n2, d]] as [[bigint, bigint], [bigint, bigint]]),
    );
    fc.assert(
      fc.property(pairs, ([x, y]) => {
        const [a, b, fa, fb] = [ours(x), ours(y), theirs(x), theirs(y)];
        expect(same(a, fa)).toBe(true);
        expect(same(Q.add(a, b), fa.add(fb))).toBe(true);
        expect(same(Q.sub(a, b), fa.sub(fb))).toBe(true);
        expect(same(Q.mul(a, b), fa.mul(fb))).toBe(true);
        if (!Q.isZero(b)) expect(same(Q.div(a, b), fa.div(fb))).toBe(true);
      }),
      { numRuns: 3000, seed: 3 },
    );
  });

  it('keeps every result canonical, zero included (x + (-x), x - x, 0 · x)', () => {
    fc.assert(
      fc.property(ratArb, (x) => {
        const a = ours(x);
        for (const z of [Q.add(a, Q.neg(a)), Q.sub(a, a), Q.mul(Q.ZERO, a), Q.mul(a, Q.ZERO)]) {
          expect(Q.eq(z, Q.ZERO)).toBe(true);
          expect(Q.show(z)).toBe('0');
        }
        expect(Q.eq(Q.add(Q.sub(a, Q.rat(1, 3)), Q.rat(1, 3)), a)).toBe(true);
      }),
      { numRuns: 500, seed: 2 },
    );
  });

  it('parses decimals and fractions exactly like mathjs', () => {
    for (const t of ['0.25', '-0.125', '3/10', '-4', '10', '0.3', '7/21']) {
      expect(same(Q.parseRational(t)!, new Fraction(t)), t).toBe(true);
    }
    expect(Q.parseRational('1/0')).toBeUndefined();
    expect(Q.parseRational('abc')).toBeUndefined();
  });

  it('renders canonically and rounds decimals half up', () => {
    expect(Q.show(Q.rat(6, -4))).toBe('-3/2');
    expect(Q.show(Q.rat(10, 5))).toBe('2');
    expect(Q.toDecimal(Q.rat(1, 3))).toBe('0.333333');
    expect(Q.toDecimal(Q.rat(-21, 100), 4)).toBe('-0.2100');
    expect(Q.toDecimal(Q.rat(2, 3), 2)).toBe('0.67');
  });
});
