/** Public entry `llmbda-check/runner`: the generic property runner: suites, verdicts, judging one case, the hunt driver, the worker pool. */
export * from './hunt.ts';
export * from './pool.ts';
export * from './seed.ts';
export * from './suite.ts';
export * from './worker.ts';
