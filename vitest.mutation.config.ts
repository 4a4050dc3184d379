/**
 * The vitest config of the mutation run (stryker.config.mjs, docs/mutation.md): the tests that judge the
 * rule code — every LLMbda property suite on every shipped lattice at a small run count
 * (test/mutation/property-suites.mutation.ts, LLMBDA_MUTATION_RUNS, default 150), the rule-by-rule
 * semantics tests, the skipping tests, the suites' ability to fail, the corpus replays, the generated
 * mutants. Not part of `npm test` (the property-suite file does not end in `.test.ts`).
 */
import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      'test/mutation/**/*.mutation.ts',
      'test/semantics-rules.test.ts',
      'test/semantics-examples.test.ts',
      'test/semantics-deep.test.ts',
      'test/skipping.test.ts',
      'test/skipping-necessity.test.ts',
      'test/suites-fail.test.ts',
      'test/corpus.test.ts',
      'test/camel.test.ts',
      'test/peval.test.ts',
      'test/observe.test.ts',
    ],
    reporters: ['default'],
  },
});
