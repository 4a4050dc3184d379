import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import * as D from '../src/distributions/subdist.ts';
import { runSuite } from '../src/runner/suite.ts';
import { DIST_LAWS, DOMAIN, REFERENCE_SUBDIST, checkDistributions, distributionLaws, outcomeKey } from '../properties/distributions.ts';
import type { SubDistImpl } from '../properties/distributions.ts';

const RUNS = 1000;

describe('sub-distribution laws (monad laws, bind mass, compatibility, Lemma 4, Lemma 5)', () => {
  it('hold on the shipped implementation, with non-vacuous statistics', () => {
    const v = checkDistributions({ runs: RUNS, seed: 2024 });
    expect(v.counterexample?.pretty).toBeUndefined();
    expect(v.error).toBeUndefined();
    expect(v.vacuous).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.stats['compatible, both mass 1']).toBeGreaterThan(0.05);
    expect(v.stats['incompatible']).toBeGreaterThan(0.1);
  });

  it('the generator is correct by construction: masses ≤ 1, weights positive', () => {
    const cases = fc.sample(distributionLaws.arbitrary({ impl: REFERENCE_SUBDIST }), { numRuns: 300, seed: 4 });
    for (const c of cases) {
      const dists = [c.mu, c.nu, ...DOMAIN.flatMap((y) => [c.f.get(outcomeKey(y))!, c.g.get(outcomeKey(y))!])];
      for (const d of dists) {
        expect(Q.le(D.mass(d), Q.ONE)).toBe(true);
        for (const [, w] of D.entries(d)) expect(Q.lt(Q.ZERO, w)).toBe(true);
      }
    }
  });
});

describe('the distribution suite can fail', () => {
  const broken = (changes: Partial<SubDistImpl>): SubDistImpl => ({ ...REFERENCE_SUBDIST, ...changes });

  it('catches compatibility computed with Σ min instead of Σ max, with a small counterexample', () => {
    const sumMin: typeof D.compatible = (a, b) => {
      let s = Q.ZERO;
      for (const [x, w] of D.entries(a)) s = Q.add(s, Q.min(w, D.weightOf(b, x)));
      return Q.le(s, Q.ONE);
    };
    const v = checkDistributions({ runs: RUNS, seed: 1, impl: broken({ compatible: sumMin }) });
    expect(v.ok).toBe(false);
    const cx = v.counterexample!;
    expect(cx.reason).toMatch(/^compatible disagrees with the witness: compatible\(μ, ν\) = true but the pointwise max .* has mass /);
    expect(cx.shrinks).toBeGreaterThan(0);
    // Shrunk to (at most) one outcome on each side, whose weights add up to more than 1.
    expect(cx.value.mu.size + cx.value.nu.size).toBeLessThanOrEqual(2);
    expect(Q.lt(Q.ONE, D.maxSum(cx.value.mu, cx.value.nu))).toBe(true);
    expect(cx.pretty).toContain('μ = {');
  });

  it('catches a bind that normalises (conditioning on termination)', () => {
    const normalising: typeof D.bind = (d, f, key) => {
      const r = D.bind(d, f, key);
      return D.normalise(r) ?? r;
    };
    const v = checkDistributions({ runs: RUNS, seed: 1, impl: broken({ bind: normalising }) });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/identity fails/);
  });

  it('catches a total variation distance without the factor ½ (Lemma 5)', () => {
    const v = checkDistributions({ runs: RUNS, seed: 1, impl: broken({ distance: (a, b) => Q.mul(Q.rat(2), D.distance(a, b)) }) });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/^Lemma 5 fails: μ ⌣ ν but Δ\(μ, ν\) = .* > \(div μ \+ div ν\)\/2 = /);
  });

  it('catches a compatibility that ignores outcomes of ν missing from μ (Lemma 4)', () => {
    // Σ over μ's support only: two different point masses look compatible.
    const supportOnlyMax: typeof D.compatible = (a, b) => {
      let s = Q.ZERO;
      for (const [x, w] of D.entries(a)) s = Q.add(s, Q.max(w, D.weightOf(b, x)));
      return Q.le(s, Q.ONE);
    };
    const v = checkDistributions({ runs: RUNS, seed: 7, impl: broken({ compatible: supportOnlyMax }) });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/compatible disagrees with the witness|Lemma 4 fails|Lemma 5 fails/);
  });

  it('Lemma 4 alone detects it on μ = δ(a), ν = δ(b)', () => {
    const supportOnlyMax: typeof D.compatible = (a, b) => {
      let s = Q.ZERO;
      for (const [x, w] of D.entries(a)) s = Q.add(s, Q.max(w, D.weightOf(b, x)));
      return Q.le(s, Q.ONE);
    };
    const lemma4 = DIST_LAWS.find((l) => l.name === 'lemma4')!.law;
    const c = { mu: D.dirac<string | number>('a', outcomeKey), nu: D.dirac<string | number>('b', outcomeKey), x: 'a', f: new Map(), g: new Map() };
    expect(lemma4(broken({ compatible: supportOnlyMax }), c)).toBe('Lemma 4 fails: μ ⌣ ν, both of mass 1, but μ ≠ ν');
    expect(lemma4(REFERENCE_SUBDIST, c)).toBeUndefined();
  });

  it('a counterexample replays from its seed and path', () => {
    const impl = broken({ distance: (a, b) => Q.mul(Q.rat(2), D.distance(a, b)) });
    const first = checkDistributions({ runs: RUNS, seed: 3, impl }).counterexample!;
    const again = runSuite(distributionLaws, { impl }, { runs: RUNS, seed: first.seed, path: first.path }).counterexample!;
    expect(again.reason).toBe(first.reason);
    expect(again.pretty).toBe(first.pretty);
  });
});
