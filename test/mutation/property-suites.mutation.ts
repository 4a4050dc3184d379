/**
 * For the mutation run only (vitest.mutation.config.ts): every LLMbda property suite, on every shipped
 * lattice, must hold for the reference semantics at a small run count — a mutant of the rule code that
 * breaks a theorem, a lemma or the skipping semantics is killed here. The count is
 * `LLMBDA_MUTATION_RUNS` (default 30 cases per suite and lattice), seed fixed so every mutant meets the
 * same cases.
 */
import { describe, it, expect } from 'vitest';
import { LLMBDA_SUITES } from '../../src/api/registry.ts';
import { runSuite } from '../../src/runner/suite.ts';
import { referenceCtx } from '../../src/llmbda/context.ts';
import { latticeByName, SHIPPED_LATTICES } from '../../src/lattice/registry.ts';

const RUNS = Number(process.env['LLMBDA_MUTATION_RUNS'] ?? 30);

describe('the property suites hold for the reference semantics', () => {
  for (const suite of LLMBDA_SUITES) {
    for (const lattice of SHIPPED_LATTICES) {
      it(`${suite.name} on ${lattice} (${RUNS} cases)`, () => {
        const v = runSuite(suite, referenceCtx(latticeByName(lattice)!), { runs: RUNS, seed: 17, noShrink: true });
        expect(v.counterexample?.reason).toBeUndefined();
        expect(v.error).toBeUndefined();
      });
    }
  }
});
