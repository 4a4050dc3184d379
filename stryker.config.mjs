// Mutation testing of the rule code with StrykerJS (issue 17, part 2; docs/mutation.md).
// Needs @stryker-mutator/core@9.6.1 and @stryker-mutator/vitest-runner@9.6.1 (dev dependencies).
// Run: npm run mutation  →  reports/mutation/index.html (HTML) and reports/mutation/mutation.json.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  // The mutation run's own vitest config: the property suites at a small run count plus the rule tests.
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/semantics/rules.ts',
    'src/semantics/decisions.ts',
    // ev.ts: only the helpers the rules use (join … serialise: join/leq/show/value/raise/unit, deepLabel, strip,
    // flatten, toLabel, wrap, subst, primEval, serialise). Update the range when ev.ts moves them
    // (test/mutation-config.test.ts checks it: the range had drifted to 151-187, mutating checkOutcomes/sum).
    'src/semantics/ev.ts:169-206',
    'src/skipping/**/*.ts',
    'src/observe/**/*.ts',
    'src/semantics/prims.ts',
  ],
  // Per-test coverage: each mutant meets only the tests that execute its code (the property suites reach
  // every rule, so every mutant still meets them).
  coverageAnalysis: 'perTest',
  // Mutants in code run at module load (the decisions and primitive tables) need a fresh load and the
  // whole test set each: skipped unless STRYKER_STATIC=1 (docs/mutation.md, "static mutants").
  ignoreStatic: process.env['STRYKER_STATIC'] !== '1',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 90 },
  // The machine is shared: one test process (raise it on a bigger machine), a generous timeout for the
  // exact evaluator.
  concurrency: 1,
  timeoutMS: 60_000,
  timeoutFactor: 2,
  tempDirName: '.stryker-tmp',
  // `--incremental` reuses this file: a rerun re-tests only mutants whose code or covering tests changed.
  incrementalFile: 'reports/stryker-incremental.json',
  cleanTempDir: 'always',
};
