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

/** One step of a chain, on ours and on Fraction alike (`div`, `mod` by zero: no step). */
function apply(o: string, a: Q.Rational, f: Fraction, b: Q.Rational, fb: Fraction): [Q.Rational, Fraction] {
  switch (o) {
    case 'add': return [Q.add(a, b), f.add(fb)];
    case 'sub': return [Q.sub(a, b), f.sub(fb)];
    case 'mul': return [Q.mul(a, b), f.mul(fb)];
    case 'neg': return [Q.neg(a), f.neg()];
    case 'div': return Q.isZero(b) ? [a, f] : [Q.div(a, b), f.div(fb)];
    case 'mod': return Q.isZero(b) ? [a, f] : [Q.mod(a, b), f.mod(fb)];
    case 'self': return [Q.add(a, a), f.add(f)];
    default: throw new Error(`unknown operation ${o}`);
  }
}

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

  it('agrees on chains of operations whose reducing gcds are deferred (observed only at the end)', () => {
    // `add` defers its gcd (common-denominator sums, reduced when observed or after 16 levels): chains of up
    // to 60 operations over (a)- and (b)-like weights build deferred values, reduce some on the way (past the
    // level bound) and feed them back into every operation; only the final value is observed.
    const w = fc.oneof(
      fc.tuple(fc.bigInt({ min: -50n, max: 50n }), fc.constantFrom(1n, 2n, 3n, 6n, 4n, 9n, 5n, 7n)),
      fc.tuple(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 40 })).map(([a, b]) => 2n ** BigInt(a) * 3n ** BigInt(b))),
    );
    const op = fc.constantFrom('add', 'add', 'add', 'sub', 'mul', 'neg', 'div', 'mod', 'self') ;
    fc.assert(
      fc.property(w, fc.array(fc.tuple(op, w), { maxLength: 60 }), ([n0, d0], steps) => {
        let a = Q.rat(n0, d0);
        let f = new Fraction(n0, d0);
        for (const [o, [n, d]] of steps) {
          const b = Q.rat(n, d);
          const fb = new Fraction(n, d);
          [a, f] = apply(o, a, f, b, fb);
        }
        const text = f.d === 1n ? String(f.s * f.n) : `${f.s * f.n}/${f.d}`;
        expect(Q.show(a)).toBe(text);
        expect(same(a, f)).toBe(true);
        expect(Q.isInteger(a)).toBe(f.d === 1n);
      }),
      { numRuns: 1500, seed: 4 },
    );
  });

  it('compares deferred sums by value: eq, cmp, isInteger, toNumber before any other observation', () => {
    const sixth = Q.rat(1, 6);
    const half = Q.add(Q.add(sixth, sixth), sixth); // 3/6 held unreduced
    expect(Q.eq(half, Q.rat(1, 2))).toBe(true);
    expect(Q.cmp(Q.add(Q.add(sixth, sixth), sixth), Q.rat(1, 2))).toBe(0);
    const one = Q.add(Q.rat(1, 3), Q.rat(2, 3)); // 3/3
    expect(Q.isInteger(one)).toBe(true);
    expect(Q.eq(Q.mul(Q.add(Q.rat(1, 3), Q.rat(2, 3)), Q.rat(2)), Q.rat(2))).toBe(true);
    // A sum of 2^12 terms 2^-1100 (far past the level bound): exactly 2^-1088, finite as a double only once reduced.
    let t = Q.ZERO;
    for (let i = 0; i < 4096; i++) t = Q.add(t, Q.rat(1n, 2n ** 1100n));
    expect(Q.toNumber(Q.mul(t, Q.rat(2n ** 1088n)))).toBe(1);
    expect(Q.show(t)).toBe(`1/${2n ** 1088n}`);
  });
  it('small integers: on doubles where exact, through BigInt past 2^53 − 1, mixed with every other form', () => {
    // Integers near 0, near ±2^53 (where a double result stops being exact), near ±2^26.5 (products crossing
    // 2^53), integers built as unreduced sums (1/3 + 2/3), and non-integers; chains of operations over them, every
    // intermediate observed by show, eq, cmp, isZero, isInteger and toNumber against Fraction.
    const S = 2n ** 53n;
    const int = fc.oneof(
      fc.bigInt({ min: -1000n, max: 1000n }),
      fc.bigInt({ min: S - 70n, max: S + 70n }), fc.bigInt({ min: -S - 70n, max: -S + 70n }),
      fc.bigInt({ min: 94906200n, max: 94906300n }), fc.bigInt({ min: -(2n ** 60n), max: 2n ** 60n }),
    );
    type Form = { q: Q.Rational; f: Fraction };
    const form: fc.Arbitrary<Form> = fc.oneof(
      int.map((n) => ({ q: Q.rat(n), f: new Fraction(n) })),
      int.map((n) => ({ q: Q.add(Q.rat(n, 3n), Q.rat(2n * n, 3n)), f: new Fraction(n) })), // n/3 + 2n/3, deferred
      fc.tuple(int, fc.bigInt({ min: 2n, max: 12n })).map(([n, d]) => ({ q: Q.rat(n, d), f: new Fraction(n, d) })),
    );
    const op = fc.constantFrom('add', 'sub', 'mul', 'neg', 'mod', 'div');
    const observe = (a: Q.Rational, f: Fraction): void => {
      expect(Q.show(a)).toBe(f.d === 1n ? String(f.s * f.n) : `${f.s * f.n}/${f.d}`);
      expect(Q.isZero(a)).toBe(f.n === 0n);
      expect(Q.isInteger(a)).toBe(f.d === 1n);
      expect(Q.toNumber(a)).toBe(Number(f.s * f.n) / Number(f.d));
      expect(same(a, f)).toBe(true);
    };
    fc.assert(
      fc.property(form, fc.array(fc.tuple(op, form), { maxLength: 12 }), (x0, steps) => {
        let { q: a, f } = x0;
        observe(a, f);
        for (const [o, { q: b, f: fb }] of steps) {
          expect(Q.cmp(a, b)).toBe(Number(f.compare(fb)));
          expect(Q.eq(a, b)).toBe(f.equals(fb));
          expect(Q.eq(b, a)).toBe(f.equals(fb));
          [a, f] = apply(o, a, f, b, fb);
          observe(a, f);
        }
      }),
      { numRuns: 3000, seed: 5 },
    );
    // The boundary itself, and results that are zero from negative operands (no −0 anywhere).
    const max = Q.rat(S - 1n);
    expect(Q.show(Q.add(max, Q.ONE))).toBe(String(S));
    expect(Q.show(Q.sub(Q.neg(max), Q.ONE))).toBe(String(-S));
    expect(Q.show(Q.mul(Q.rat(2n ** 27n), Q.rat(2n ** 26n)))).toBe(String(S));
    expect(Q.show(Q.mul(Q.rat(94906267n), Q.rat(94906267n)))).toBe(String(94906267n * 94906267n));
    for (const z of [Q.mod(Q.rat(-4), Q.rat(2)), Q.mul(Q.rat(-3), Q.ZERO), Q.neg(Q.ZERO), Q.add(Q.rat(-5), Q.rat(5))]) {
      expect(Q.show(z)).toBe('0');
      expect(Object.is(Q.toNumber(z), 0)).toBe(true);
    }
    // One form per value: a small integer made by parsing, by an operation on doubles, or by reducing a deferred
    // sum is the same field by field (the AST tests compare literals structurally), also after its BigInt was asked for.
    const three = Q.rat(3);
    expect(Q.numerator(three)).toBe(3n);
    expect(Q.parseRational('-3')).toEqual(Q.neg(three));
    const one = Q.add(Q.rat(1, 3), Q.rat(2, 3));
    expect(Q.show(one)).toBe('1');
    expect(one).toEqual(Q.ONE);
    expect(Q.sub(Q.rat(5), Q.rat(2))).toEqual(three);
    // A zero that is not small: a deferred sum 3/3 + (−2/2) (coprime denominators, so no reducing gcd yet), as an
    // operand of every operation before anything observes it.
    const deferredZero = (): Q.Rational => Q.add(Q.add(Q.rat(1, 3), Q.rat(2, 3)), Q.add(Q.rat(-1, 2), Q.rat(-1, 2)));
    expect(Q.show(Q.add(deferredZero(), three))).toBe('3');
    expect(Q.show(Q.add(Q.rat(2, 7), deferredZero()))).toBe('2/7');
    expect(Q.show(Q.mul(deferredZero(), Q.rat(5, 3)))).toBe('0');
    expect(Q.show(Q.mul(three, deferredZero()))).toBe('0');
    expect(Q.isZero(deferredZero())).toBe(true);
    expect(Q.eq(deferredZero(), Q.ZERO)).toBe(true);
    expect(Q.show(deferredZero())).toBe('0');
  });

  it('smallOf / ofSmall: integers of magnitude at most 2^53 − 1 and back, the same rational field by field; nothing else', () => {
    const S = 2n ** 53n;
    fc.assert(
      fc.property(fc.oneof(fc.bigInt({ min: -S - 5n, max: -S + 5n }), fc.bigInt({ min: S - 5n, max: S + 5n }), fc.bigInt({ min: -1000n, max: 1000n }), fc.tuple(intArb, denArb)), (x) => {
        const [n, d] = typeof x === 'bigint' ? [x, 1n] : x;
        const q = Q.rat(n, d);
        const f = new Fraction(n, d);
        const small = Q.smallOf(q);
        expect(small !== undefined).toBe(f.d === 1n && f.s * f.n < S && f.s * f.n > -S);
        if (small !== undefined) {
          expect(BigInt(small)).toBe(f.s * f.n);
          expect(Q.ofSmall(small)).toEqual(q);
        }
      }),
      { numRuns: 2000, seed: 7 },
    );
    // A small integer made by an operation, and a zero from a negative operand (no −0 either way).
    expect(Q.smallOf(Q.sub(Q.rat(5), Q.rat(7)))).toBe(-2);
    expect(Object.is(Q.smallOf(Q.mul(Q.rat(-3), Q.ZERO)), 0)).toBe(true);
    // A sum whose reduction was deferred (lazy) that is an integer: small once reduced (`smallIntegerOf`).
    expect(Q.smallIntegerOf(Q.add(Q.rat(1, 2), Q.rat(1, 2)))).toBe(1);
    expect(Q.smallIntegerOf(Q.add(Q.rat(5, 6), Q.rat(7, 6)))).toBe(2);
    expect(Q.smallIntegerOf(Q.add(Q.rat(1, 6), Q.rat(1, 6)))).toBe(undefined);
    expect(Q.smallIntegerOf(Q.rat(-7))).toBe(-7);
    expect(Q.ofSmall(-0)).toEqual(Q.ZERO);
    expect(Q.ofSmall(2 ** 53 - 1)).toEqual(Q.rat(2n ** 53n - 1n));
    for (const bad of [0.5, 2 ** 53, -(2 ** 53), Number.NaN, Infinity]) expect(() => Q.ofSmall(bad)).toThrow(RangeError);
  });
});
