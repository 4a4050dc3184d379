import { defineConfig } from 'vitest/config';

// CI sets VITEST_JSON_REPORT so .ci/run can print "N passed, N failed" from the JSON report while
// running exactly `npm test`.
const jsonReport = process.env['VITEST_JSON_REPORT'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    coverage: { provider: 'v8', include: ['src/**', 'properties/**'] },
  },
});
