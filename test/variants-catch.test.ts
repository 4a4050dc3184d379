/**
 * The catalogue's unsound variants are caught: for every one, the suite it is expected to break
 * (`expected.caughtBy`) finds a counterexample on each lattice it should leak on, within a case
 * budget. (Shrinking against the smallest known counterexample: variants-shrink.test.ts.)
 */
import { describe, it, expect } from 'vitest';
import { runSuite } from '../src/runner/suite.ts';
import { CATALOGUE } from '../src/variants/catalogue.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { variantCtx } from '../src/llmbda/variant-ctx.ts';
import { suiteNamed } from '../src/api/registry.ts';

/** Generated cases each (variant, lattice) may take to fail (measured worst: about 1,500; see docs/variants.md). */
const CASE_BUDGET = 5000;

const unsound = CATALOGUE.filter((v) => (v.expected?.leaksOn.length ?? 0) > 0);

describe('every unsound catalogue variant is caught by its expected suite on each lattice it leaks on', () => {
  for (const v of unsound) {
    const suite = suiteNamed(v.expected?.caughtBy ?? 'tipni');
    for (const name of v.expected!.leaksOn) {
      it(`${v.name}: ${suite.name} fails on ${name}`, () => {
        const verdict = runSuite(suite, variantCtx(latticeByName(name)!, v), { runs: CASE_BUDGET, seed: 1, noShrink: true });
        expect(verdict.counterexample, `${v.name} survived ${verdict.runs} cases on ${name}`).toBeDefined();
        expect(verdict.counterexample!.reason).not.toMatch(/^exception/);
      });
    }
  }
});
