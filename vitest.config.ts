import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// CI sets VITEST_JSON_REPORT so .ci/run can print "N passed, N failed" from the JSON report while
// running exactly `npm test`.
const jsonReport = process.env['VITEST_JSON_REPORT'];
const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  // Inside the repository the package name resolves to the sources (as tsconfig's `paths` say for tsc
  // and tsx), so examples written against `llmbda-check` exercise the code under test, never a stale build.
  resolve: {
    alias: [
      { find: /^llmbda-check$/, replacement: here('./src/index.ts') },
      { find: /^llmbda-check\/properties$/, replacement: here('./properties/index.ts') },
      { find: /^llmbda-check\/vitest$/, replacement: here('./src/vitest.ts') },
      { find: /^llmbda-check\/(.*)$/, replacement: here('./src/$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine, where the suite
    // then runs file after file (≈ 9.5 min measured). Two workers there (≈ 7.5 min at the same load; the heavy
    // files mostly wait on the child processes they spawn); more cores keep the default.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // CLI tests spawn bin/llmbda.js, which runs dist/: the global setup rebuilds dist/ first whenever it is not
    // the compiled form of the sources (test/helpers/fresh-build.ts). LLMBDA_SOURCE=1 runs the sources instead.
    globalSetup: ['test/helpers/fresh-build.ts'],
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    coverage: { provider: 'v8', include: ['src/**', 'properties/**'] },
  },
});
