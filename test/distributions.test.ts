import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Fraction } from 'mathjs';
import { rat, show as showQ } from '../src/distributions/rational.ts';
import * as D from '../src/distributions/subdist.ts';
import type { Key, SubDist } from '../src/distributions/subdist.ts';

const K = D.identityKey;
const numKey: Key<number> = (n) => String(n);
/** A string distribution from `[outcome, p, q]` triples (weight p/q, exact). */
const sd = (...es: [string, number, number][]): SubDist<string> => D.fromEntries(es.map(([x, n, d]) => [x, rat(n, d)] as const), K);
const txt = <T,>(d: SubDist<T>): string => D.show(d);

describe('construction', () => {
  it('fromEntries merges equal outcomes and drops zero weights', () => {
    const d = sd(['b', 1, 4], ['a', 1, 8], ['b', 1, 4], ['c', 0, 1]);
    expect(txt(d)).toBe('{a ↦ 1/8, b ↦ 1/2}');
    expect(D.support(d)).toEqual(['a', 'b']);
    expect(d.size).toBe(2);
  });
  it('SubDistBuilder adds one outcome at a time: per key the exact sum of its weights (mathjs Fraction), zeros dropped, negatives refused', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.nat(5), fc.integer({ min: 1, max: 12 }))), (es) => {
      const b = new D.SubDistBuilder(K);
      const want = new Map<string, InstanceType<typeof Fraction>>();
      for (const [x, n, d] of es) {
        b.add(x, rat(n, d));
        if (n > 0) want.set(x, (want.get(x) ?? new Fraction(0)).add(new Fraction(n, d)));
      }
      const got = D.entries(b.build()).map(([x, w]) => `${x}:${showQ(w)}`);
      expect(got).toEqual([...want].sort(([x], [y]) => (x < y ? -1 : 1)).map(([x, f]) => `${x}:${f.d === 1n ? `${f.n}` : `${f.n}/${f.d}`}`));
    }), { numRuns: 200, seed: 7 });
    expect(() => new D.SubDistBuilder(K).add('a', rat(-1, 3))).toThrow(/negative weight -1\/3/);
  });
  it('entries are in canonical key order whatever the insertion order', () => {
    const d = sd(['z', 1, 3], ['m', 1, 3], ['a', 1, 3]);
    expect(D.entries(d).map(([x, w]) => `${x}:${showQ(w)}`)).toEqual(['a:1/3', 'm:1/3', 'z:1/3']);
  });
  it('keys outcomes by the canonical serialisation, so "1" and 1 stay apart under a typed key', () => {
    const key: Key<string | number> = (x) => `${typeof x}:${x}`;
    const d = D.fromEntries<string | number>([['1', rat(1, 2)], [1, rat(1, 4)]], key);
    expect(showQ(D.weightOf(d, '1'))).toBe('1/2');
    expect(showQ(D.weightOf(d, 1))).toBe('1/4');
    expect(showQ(D.weightOf(d, 2))).toBe('0');
  });
  it('dirac has mass 1 and zero has mass 0', () => {
    expect(showQ(D.mass(D.dirac('x', K)))).toBe('1');
    expect(showQ(D.mass(D.zero(K)))).toBe('0');
    expect(showQ(D.divergence(D.zero(K)))).toBe('1');
  });
  it('a negative weight is an internal error', () => {
    expect(() => D.fromEntries([['a', rat(-1, 2)]], K)).toThrow(/negative weight -1\/2/);
  });
});

describe('bind never normalises', () => {
  it('keeps the missing mass of both stages', () => {
    const d = sd(['a', 1, 2], ['b', 1, 4]); // mass 3/4
    const f = (x: string): SubDist<string> => (x === 'a' ? sd(['x', 1, 2]) : sd(['x', 1, 1]));
    const r = D.bind(d, f);
    // x: 1/2·1/2 + 1/4·1 = 1/2; mass 1/2, not renormalised to 1.
    expect(txt(r)).toBe('{x ↦ 1/2}');
    expect(showQ(D.divergence(r))).toBe('1/2');
  });
  it('merges equal outcomes of different branches by key', () => {
    const coin = sd(['0', 7, 10], ['1', 3, 10]);
    // Spec §8 example 1 (forked flips): the number of 1s in two independent biased flips.
    const twoFlips = D.bind(coin, (x) => D.map(coin, (y) => Number(x) + Number(y), numKey), numKey);
    expect(D.show(twoFlips)).toBe('{0 ↦ 49/100, 1 ↦ 21/50, 2 ↦ 9/100}');
  });
  it('an empty input gives the zero distribution with the given key', () => {
    const r = D.bind(D.zero(K), (x) => D.dirac(x.length, numKey), numKey);
    expect(r.size).toBe(0);
    expect(D.show(D.add(r, D.dirac(3, numKey)))).toBe('{3 ↦ 1}');
    expect(r.key).toBe(numKey);
  });
  it('normalise is separate: it conditions on termination, and is undefined on mass 0', () => {
    expect(txt(D.normalise(sd(['a', 1, 8], ['b', 1, 8]))!)).toBe('{a ↦ 1/2, b ↦ 1/2}');
    expect(D.normalise(D.zero(K))).toBeUndefined();
  });
});

describe('operations', () => {
  const mu = sd(['a', 1, 2], ['b', 1, 4]);
  it('map merges outcomes made equal', () => {
    const d = D.fromEntries([[1, rat(1, 3)], [2, rat(1, 3)], [3, rat(1, 3)]], numKey);
    expect(D.show(D.map(d, (n) => (n % 2 === 0 ? 'even' : 'odd'), K))).toBe('{even ↦ 1/3, odd ↦ 2/3}');
  });
  it('scale, add, filter', () => {
    expect(txt(D.scale(mu, rat(1, 2)))).toBe('{a ↦ 1/4, b ↦ 1/8}');
    expect(D.scale(mu, rat(0)).size).toBe(0);
    expect(txt(D.add(mu, sd(['b', 1, 4], ['c', 1, 8])))).toBe('{a ↦ 1/2, b ↦ 1/2, c ↦ 1/8}');
    expect(txt(D.filter(mu, (x) => x === 'b'))).toBe('{b ↦ 1/4}');
  });
  it('leq is pointwise and equals compares normal forms', () => {
    expect(D.leq(sd(['a', 1, 4]), mu)).toBe(true);
    expect(D.leq(sd(['c', 1, 100]), mu)).toBe(false);
    expect(D.leq(mu, sd(['a', 1, 2]))).toBe(false);
    expect(D.equals(mu, sd(['b', 1, 8], ['a', 1, 2], ['b', 1, 8]))).toBe(true);
    expect(D.equals(mu, sd(['a', 1, 2], ['b', 1, 5]))).toBe(false);
    expect(D.equals(mu, sd(['a', 1, 2]))).toBe(false);
  });
  it('pushforward sums weights per class', () => {
    const d = sd(['ab', 1, 4], ['ac', 1, 4], ['bc', 1, 8]);
    expect(txt(D.pushforward(d, (x) => x[0]!))).toBe('{a ↦ 1/2, b ↦ 1/8}');
  });
  it('distance is total variation: ½ Σ |μ(x) − ν(x)|', () => {
    // ½ (|1/2 − 1/4| + |1/4 − 0| + |0 − 1/4|) = ½ · 3/4
    expect(showQ(D.distance(mu, sd(['a', 1, 4], ['c', 1, 4])))).toBe('3/8');
    expect(showQ(D.distance(mu, mu))).toBe('0');
  });
  it('compatible ⇔ Σ max ≤ 1, and pointwiseMax is the witness', () => {
    const nu = sd(['b', 1, 2], ['c', 1, 4]);
    expect(showQ(D.maxSum(mu, nu))).toBe('5/4');
    expect(D.compatible(mu, nu)).toBe(false);
    const rho = sd(['a', 1, 4], ['c', 1, 4]);
    expect(showQ(D.maxSum(mu, rho))).toBe('1');
    expect(D.compatible(mu, rho)).toBe(true);
    expect(txt(D.pointwiseMax(mu, rho))).toBe('{a ↦ 1/2, b ↦ 1/4, c ↦ 1/4}');
  });
  it('Lemma 5 on a hand example: μ ⌣ ν with Δ exactly (div μ + div ν)/2', () => {
    const a = sd(['x', 1, 2]);
    const b = sd(['y', 1, 2]);
    expect(D.compatible(a, b)).toBe(true);
    expect(showQ(D.distance(a, b))).toBe('1/2');
    expect(showQ(D.divergence(a))).toBe('1/2');
  });
  it('show prints outcomes with a custom printer, in key order', () => {
    expect(D.show(D.fromEntries([[10, rat(1, 2)], [9, rat(1, 2)]], numKey), (n) => `#${n}`)).toBe('{#10 ↦ 1/2, #9 ↦ 1/2}');
  });
});
