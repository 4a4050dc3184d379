/**
 * Every theorem suite of `LLMBDA_SUITES` holds on the reference semantics on the three shipped
 * lattices, and is not vacuous: the runner's `vacuous` list (statistics below their thresholds) is empty.
 * Modest runs here; `llmbda check` runs 2,000 per (suite, lattice). The measured non-vacuity numbers
 * are recorded in docs/properties.md.
 */
import { describe, it, expect } from 'vitest';
import { LLMBDA_SUITES } from '../src/api/registry.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';

const RUNS = 200;
const SEED = 1;

describe.each(SHIPPED_LATTICES)('the theorem suites on %s under the reference semantics', (name) => {
  const lat = latticeByName(name)!;
  it.each(LLMBDA_SUITES.map((s) => [s.name, s] as const))('%s holds and is not vacuous', (_n, suite) => {
    const v = runSuite(suite, referenceCtx(lat), { runs: RUNS, seed: SEED });
    expect(v.error, v.error).toBeUndefined();
    expect(v.counterexample?.pretty, `${v.counterexample?.pretty}\n${v.counterexample?.reason}`).toBeUndefined();
    expect(v.vacuous).toEqual([]);
    expect(v.ok).toBe(true);
    // every suite reports statistics, and the suite ran (almost) all its cases
    expect(Object.keys(v.stats).length).toBeGreaterThan(0);
    expect(v.runs).toBe(RUNS);
    expect(v.discarded).toBeLessThan(RUNS / 10);
  });
});
