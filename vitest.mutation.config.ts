/**
 * The vitest config of the mutation run (stryker.config.mjs, docs/mutation.md): the tests that judge the
 * rule code. Stryker stops a mutant's run at the first failing test, so the files run IN THE ORDER OF
 * `include` (the sequencer below), cheapest strong killers first: the differential test (substitution
 * evaluator against v2 and peval on generated programs), spec §8's worked examples, the rule-by-rule
 * tests, the primitives; then every LLMbda property suite on every shipped lattice at a small run count
 * (test/mutation/property-suites.mutation.ts, LLMBDA_MUTATION_RUNS, default 30), the skipping tests, the
 * suites' ability to fail, the corpus replays. Not part of `npm test` (the property-suite file does not
 * end in `.test.ts`). One entry per line: add a file where its cost belongs.
 */
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import base from './vitest.config.ts';

const include = [
  'test/semantics-differential.test.ts',
  // Evaluator v2 (src/semantics/v2, the default engine of the reference semantics): its equivalence with the
  // substitution evaluator on generated programs first, then its own tests (fast path, depth first, limits).
  'test/v2-equivalence.test.ts',
  'test/v2-direct.test.ts',
  'test/v2-depth-first.test.ts',
  'test/v2-frontier.test.ts',
  'test/v2-fast-loops.test.ts',
  'test/v2-lane.test.ts',
  'test/v2-recursion-lane.test.ts',
  'test/v2-prims-fast.test.ts',
  'test/v2-limits.test.ts',
  'test/v2-adaptive.test.ts',
  'test/v2-cost.test.ts',
  'test/v2-depth.test.ts',
  'test/v2-code.test.ts',
  'test/v2-reuse.test.ts',
  'test/v2-warm-up.test.ts',
  'test/semantics-examples.test.ts',
  'test/semantics-rules.test.ts',
  'test/decisions.test.ts',
  'test/rules-stuck.test.ts',
  'test/rules-substitution.test.ts',
  'test/prims.test.ts',
  'test/semantics-limits.test.ts',
  'test/mutation/**/*.mutation.ts',
  'test/semantics-deep.test.ts',
  'test/skipping.test.ts',
  'test/observe.test.ts',
  'test/peval.test.ts',
  'test/corpus.test.ts',
  'test/skipping-necessity.test.ts',
  'test/suites-fail.test.ts',
  'test/camel.test.ts',
];

/**
 * `LLMBDA_MUTATION_V2=1`: only the differential test and v2's own tests (the first entries above), for measuring
 * evaluator v2's files by range (docs/mutation.md, "Evaluator v2"): a survivor then costs about 40 s instead of
 * minutes. A survivor of that run may still be killed by the rest of the list.
 */
const V2_ONLY = include.filter((p) => p.startsWith('test/v2-') || p === 'test/semantics-differential.test.ts');

/**
 * `LLMBDA_MUTATION_V2=driver`: v2's list without the files that mostly exercise the fast path's long loops, the
 * primitives' fast paths or a spawned CLI (v2-fast-loops, v2-prims-fast, v2-depth): about 11 s instead of 28 s
 * per surviving mutant, for measuring `machine.ts`'s driver (every v2 test runs it, so every mutant there meets
 * the whole list). Its survivors are re-checked against `LLMBDA_MUTATION_V2=1` (docs/mutation.md).
 */
const V2_DRIVER = V2_ONLY.filter((p) => !['test/v2-fast-loops.test.ts', 'test/v2-prims-fast.test.ts', 'test/v2-depth.test.ts'].includes(p));

/** Position of a test file in `include` (a `**` entry matches its folder). */
function rank(file: string): number {
  const rel = file.replace(/\\/g, '/');
  const i = include.findIndex((p) => (p.includes('*') ? rel.includes(`/${p.slice(0, p.indexOf('*'))}`) : rel.endsWith(`/${p}`)));
  return i < 0 ? include.length : i;
}

/** Runs files in `include` order (vitest's default puts the slowest first, the worst order for a bail). */
class IncludeOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a.moduleId) - rank(b.moduleId));
  }
}

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: process.env['LLMBDA_MUTATION_V2'] === '1' ? V2_ONLY : process.env['LLMBDA_MUTATION_V2'] === 'driver' ? V2_DRIVER : include,
    sequence: { sequencer: IncludeOrder },
    reporters: ['default'],
    // A spawned CLI runs the (mutated) sources of Stryker's sandbox, not a dist/ built from them: no build step.
    globalSetup: [],
    env: { LLMBDA_SOURCE: '1' },
  },
});
