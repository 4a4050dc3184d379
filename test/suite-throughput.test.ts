/**
 * The suite-throughput changes keep every generated case and every verdict: `pairArb` reuses the
 * arbitrary built for an observer instead of building it for every case (tested here against a fresh one
 * per case: same cases, same shrinks, same replay paths), and `Recent` is the small identity cache that
 * replaced per-case WeakMaps.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { pairObserverArb, pairArb, pairGivenObserver, type PairCase, type PairGenOptions } from '../src/generators/pairs.ts';
import { size } from '../src/syntax/helpers.ts';
import { Recent } from '../src/runner/recent.ts';

/** The generator as it was: the rest of a case built afresh for every drawn observer. */
function freshPerCase<L>(o: PairGenOptions<L>): fc.Arbitrary<PairCase<L>> {
  const fuel = o.fuel ?? { min: 12, max: 40 };
  return pairObserverArb(o).chain((obs) => pairGivenObserver(o, obs, fuel));
}

/** Cases as text, exact rationals included. */
const text = (x: unknown): string => JSON.stringify(x, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

const options = SHIPPED_LATTICES.flatMap((name) => {
  const lat = latticeByName(name)!;
  return [
    { lat, endorse: !lat.factoring, profile: 'tuned' as const },
    { lat, endorse: !lat.factoring, profile: 'naive' as const },
    { lat, endorse: false, iMaximalOnly: true, subModels: 'mixed' as const },
  ].map((o) => [`${name} ${JSON.stringify({ ...o, lat: undefined })}`, o] as const);
});

describe('pairArb reuses the per-observer arbitrary without changing a case', () => {
  it.each(options)('%s: the same cases for 30 seeds', (_, o) => {
    for (let seed = 1; seed <= 30; seed++) {
      const a = fc.sample(pairArb(o as PairGenOptions<unknown>), { seed, numRuns: 40 });
      const b = fc.sample(freshPerCase(o as PairGenOptions<unknown>), { seed, numRuns: 40 });
      expect(text(a)).toBe(text(b));
    }
  });

  it.each(options.slice(0, 4))('%s: the same counterexample, shrinks and replay path', (_, o) => {
    // A property that fails on larger programs, so fast-check shrinks through the chained observer.
    const run = (arb: fc.Arbitrary<PairCase<unknown>>, seed: number) =>
      fc.check(fc.property(arb, (c) => size(c.skeleton) < 12), { seed, numRuns: 300 });
    let failures = 0;
    for (const seed of [1, 2, 3, 4, 5]) {
      const a = run(pairArb(o as PairGenOptions<unknown>), seed);
      const b = run(freshPerCase(o as PairGenOptions<unknown>), seed);
      expect(a.failed).toBe(b.failed);
      expect(a.numRuns).toBe(b.numRuns);
      expect(a.numShrinks).toBe(b.numShrinks);
      expect(a.counterexamplePath).toBe(b.counterexamplePath);
      expect(text(a.counterexample)).toBe(text(b.counterexample));
      if (a.failed) failures++;
    }
    expect(failures).toBeGreaterThan(0); // the comparison covered shrinking
  });
});

describe('Recent', () => {
  it('keeps the last entries by identity and forgets the oldest', () => {
    const r = new Recent<object, number>(2);
    const [a, b, c] = [{}, {}, {}];
    r.set(a, 1);
    r.set(b, 2);
    expect(r.get(a)).toBe(1);
    expect(r.get({})).toBeUndefined(); // identity, not structure
    r.set(b, 3); // its own entry is replaced, nothing evicted
    expect(r.get(a)).toBe(1);
    expect(r.get(b)).toBe(3);
    r.set(c, 4); // evicts the oldest (a)
    expect(r.get(a)).toBeUndefined();
    expect(r.get(b)).toBe(3);
    expect(r.get(c)).toBe(4);
  });
});

describe('check schedules the longest jobs first by recorded cost', () => {
  it('orders jobs by cases × the suite\'s recorded cost per case', async () => {
    const { jobCost } = await import('../src/api/jobs.ts');
    const { runPool } = await import('../src/runner/pool.ts');
    const job = (suite: string, lattice: string, runs: number) => ({ suite, lattice, runs, seed: 1 });
    const jobs = [job('lattice-laws', 'two-point', 300), job('tipni', 'two-point', 300), job('ppmf-bridge-tipni', 'ppmf', 75), job('stripping', 'powerset-us', 300), job('theorem3', 'chain(3)', 300)];
    const ran: string[] = [];
    await runPool(jobs, { url: new URL(import.meta.url), run: async (j) => { ran.push(j.suite); return j.suite; } }, { workers: 1, cost: jobCost });
    expect(ran).toEqual(['stripping', 'ppmf-bridge-tipni', 'tipni', 'theorem3', 'lattice-laws']);
  });
});

describe('evalPair evaluates a case whose two runs start alike once', () => {
  it.each(SHIPPED_LATTICES)('%s: sameSides only when both runs are the same configuration, with the same evaluation', async (name) => {
    const { sameSides, evalPair } = await import('../src/llmbda/pair-eval.ts');
    const { referenceCtx, runSide } = await import('../src/llmbda/context.ts');
    const { programOf, conversationOf } = await import('../src/generators/pairs.ts');
    const { print } = await import('../src/syntax/printer.ts');
    const { equals } = await import('../src/distributions/subdist.ts');
    const lat = latticeByName(name)!;
    const ctx = referenceCtx(lat);
    const cases = fc.sample(pairArb({ lat, endorse: !lat.factoring, profile: 'tuned' }), { seed: 7, numRuns: 300 });
    let same = 0;
    for (const c of cases) {
      const alike = print(programOf(c, 0), lat) === print(programOf(c, 1), lat) && text(conversationOf(c, 0)) === text(conversationOf(c, 1));
      if (!sameSides(ctx, c)) continue;
      same++;
      expect(alike).toBe(true);
      let both; let separately;
      try { both = evalPair(ctx, c); separately = runSide(ctx, c, 1); } catch { continue; } // over the step budget
      expect(equals(both.e1.finals, separately.finals)).toBe(true);
      expect(text(both.e1.missing)).toBe(text(separately.missing));
    }
    expect(same).toBeGreaterThan(10);
  });
});

describe('check\'s default worker count', () => {
  it('is one per 1.5 cores while cores are idle (one on 2 cores), one on a busy machine', async () => {
    const { defaultWorkers } = await import('../src/runner/pool.ts');
    // A worker keeps ≈ 1.5 cores busy (its GC and compiler threads): two on 2 cores cost more CPU for no gain.
    expect(defaultWorkers(0, 1)).toBe(1);
    expect(defaultWorkers(0, 2)).toBe(1);
    expect(defaultWorkers(1.5, 2)).toBe(1);
    expect(defaultWorkers(0, 3)).toBe(2);
    expect(defaultWorkers(0, 4)).toBe(2);
    expect(defaultWorkers(2, 2)).toBe(1);
    expect(defaultWorkers(14, 2)).toBe(1);
    expect(defaultWorkers(3, 8)).toBe(5);
    expect(defaultWorkers(0, 16)).toBe(10);
    expect(defaultWorkers(16, 16)).toBe(1);
  });
});
