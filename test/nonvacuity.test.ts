/**
 * Non-vacuity judged on a one-sided Wilson bound (src/runner/suite.ts): the interval matches its closed
 * forms, a counter whose true rate sits at its threshold is not reported vacuous by chance, a generator
 * that really lacks the property still is, the reported flake (`ppmf-bridge-unrelated-confirmation` at
 * 75 runs) holds, and every unsound catalogue variant is still caught at `check --runs 300` by the generated
 * cases alone, on every lattice it leaks on.
 *
 * The full claim — `llmbda check --runs 300 --seed K` for K = 1..20 gives only `holds` on the reference
 * semantics — takes ~15 minutes of CPU, so it is a script (scripts/nonvacuity-seeds.mjs, result in
 * docs/ci.md), not a test.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { judgeThreshold, runSuite, wilsonInterval, MIN_CASES, type PropertySuite } from '../src/runner/suite.ts';
import { HOLDS } from '../src/runner/suite.ts';
import { PPMF_BRIDGE_SUITES } from '../src/api/registry.ts';
import { bridgeCtx } from '../src/ppmf/bridge/check.ts';
import { runJob } from '../src/api/jobs.ts';
import { CATALOGUE } from '../src/variants/catalogue.ts';

describe('the Wilson interval', () => {
  it('matches its closed forms at 0 and n successes', () => {
    // k = 0: upper = z²/(n+z²); k = n: lower = n/(n+z²).
    const z = 1.96;
    expect(wilsonInterval(0, 10, z).upper).toBeCloseTo((z * z) / (10 + z * z), 12);
    expect(wilsonInterval(0, 10, z).lower).toBe(0);
    expect(wilsonInterval(10, 10, z).lower).toBeCloseTo(10 / (10 + z * z), 12);
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1 });
  });

  it('judges the reported flake (6 of 75 against 1/10) met, 0 of 300 vacuous, and too few cases not at all', () => {
    expect(judgeThreshold('other risk (same target)', 6, 75, 0.1).status).toBe('met');
    expect(judgeThreshold('x', 0, 300, 0.1).status).toBe('vacuous');
    expect(judgeThreshold('x', 0, MIN_CASES - 1, 0.1).status).toBe('too-few');
  });
});

/** A toy suite whose counter is true with probability exactly `rate` (uniform integers below 100). */
const toy = (rate: number, threshold: number): PropertySuite<number, null> => ({
  name: 'toy', title: 'toy', caseKind: 'single',
  arbitrary: () => fc.noBias(fc.integer({ min: 0, max: 99 })),
  check: () => HOLDS,
  show: String,
  stats: (x) => ({ hit: x < rate * 100 }),
  thresholds: { hit: threshold },
});

describe('vacuous only when the data show it', () => {
  it('a counter whose rate equals its threshold is never vacuous over 100 seeds at 75 runs (a point estimate would be, about half the time)', () => {
    const verdicts = Array.from({ length: 100 }, (_, k) => runSuite(toy(0.1, 0.1), null, { runs: 75, seed: k + 1 }));
    expect(verdicts.filter((v) => v.status !== 'holds')).toEqual([]);
    // The old judgement (estimate < threshold) fails a good share of these seeds: the test is not vacuous itself.
    expect(verdicts.filter((v) => (v.stats['hit'] ?? 0) < 0.1).length).toBeGreaterThan(20);
  });

  it('a generator that lacks the property (3% against 20%) is vacuous at 300 runs on every seed tried', () => {
    for (let k = 1; k <= 10; k++) {
      const v = runSuite(toy(0.03, 0.2), null, { runs: 300, seed: k });
      expect(v.status).toBe('vacuous');
      expect(v.vacuous[0]).toMatch(/^hit: \d+\/300 = 0\.0\d\d \(interval 0\.0\d\d–0\.\d{3}, upper bound at α 0\.001\) < 0\.2$/);
    }
  });
});

describe('the real suites at the run counts of a reduced CI check', () => {
  it('ppmf-bridge-unrelated-confirmation holds at 75 runs (the bridge quarter of --runs 300) on seeds 1..4', () => {
    const suite = PPMF_BRIDGE_SUITES.find((s) => s.name === 'ppmf-bridge-unrelated-confirmation')!;
    for (let seed = 1; seed <= 4; seed++) {
      const v = runSuite(suite, bridgeCtx(), { runs: 75, seed });
      expect(v.status, `seed ${seed}: ${v.vacuous.join('; ')}`).toBe('holds');
      expect(v.nonVacuity!.map((j) => j.status)).not.toContain('vacuous');
    }
  });

  const unsound = CATALOGUE.filter((v) => (v.expected?.leaksOn.length ?? 0) > 0);
  it.each(unsound.map((v) => [v.name, v] as const))('%s is still caught by check --variant … --runs 300 --seed 1: its expected suite fails on every lattice it leaks on, by the generated cases alone (no saved case)', async (name, v) => {
    const suite = v.expected?.caughtBy ?? 'tipni';
    const verdicts = [];
    for (const lattice of v.expected!.leaksOn) verdicts.push(`${lattice}: ${(await runJob({ suite, lattice, runs: 300, seed: 1, variant: name })).status}`);
    expect(verdicts).toEqual(v.expected!.leaksOn.map((l) => `${l}: fails`));
  });
});
