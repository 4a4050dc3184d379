/**
 * `llmbda-check/vitest`: register property suites as vitest tests, in the style of `@fast-check/vitest`.
 *
 * ```ts
 * import { suiteTest, noLeakTest } from 'llmbda-check/vitest';
 * suiteTest('TIPNI on my lattice', tipni, referenceCtx(diamond), { runs: 300, seed: 1 });
 * noLeakTest('my primitive is clean', { variant: 'reference', prims, lattices: ['powerset-us'], runs: 300 });
 * ```
 *
 * Each registers one `test(...)` with its own timeout (default 120 s: exact evaluation of a few hundred
 * generated cases takes seconds, more on large lattices); a failure throws a `PropertyFailure` whose
 * message is the readable, minimised report. `vitest` is an optional peer dependency.
 */
import { test } from 'vitest';
import type { PropertySuite, RunOptions } from './runner/suite.ts';
import { assertHolds, assertLeaks, assertNoLeak, assertSuite } from './api/assert.ts';
import type { HuntOptions } from './api/hunt.ts';
import type { CheckOptions } from './api/check.ts';

/** Default per-test timeout of these helpers (ms). */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** A vitest test that runs one suite in a context and fails with the counterexample report. */
export function suiteTest<Case, Ctx>(name: string, suite: PropertySuite<Case, Ctx>, ctx: Ctx, opts: Partial<RunOptions<Case>> & { readonly timeoutMs?: number } = {}): void {
  const { timeoutMs, ...run } = opts;
  test(name, () => assertSuite(suite, ctx, run), timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** A vitest test that hunts (deterministic `runs` budget) and fails with the minimised leak report. */
export function noLeakTest(name: string, opts: HuntOptions & { readonly timeoutMs?: number }): void {
  const { timeoutMs, ...h } = opts;
  test(name, () => assertNoLeak(h), timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** A vitest test that passes only if the hunt finds a leak (a known-bad change is still caught). */
export function leakTest(name: string, opts: HuntOptions & { readonly timeoutMs?: number }): void {
  const { timeoutMs, ...h } = opts;
  test(name, async () => { await assertLeaks(h); }, timeoutMs ?? DEFAULT_TIMEOUT_MS);
}

/** A vitest test that runs `check` and fails with its report unless every verdict holds. */
export function holdsTest(name: string, opts: CheckOptions & { readonly timeoutMs?: number } = {}): void {
  const { timeoutMs, ...c } = opts;
  test(name, () => assertHolds(c), timeoutMs ?? DEFAULT_TIMEOUT_MS);
}
