/**
 * Property suites as data: one definition is run both from vitest and from `llmbda check`/`hunt`.
 *
 * A suite generates cases with a fast-check arbitrary and judges each with `check`, which returns an
 * outcome value (never throws for a property violation). Runs are replayable from `seed` and `path`.
 */
import fc from 'fast-check';

/** The judgement of one case: holds, or fails with a human-readable reason. */
export type CaseOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export const HOLDS: CaseOutcome = { ok: true };
export const fails = (reason: string): CaseOutcome => ({ ok: false, reason });

/**
 * A property suite over cases of type `Case`, parametrised by a context `Ctx` (lattice, semantics,
 * fuel, …) chosen by the caller.
 */
export interface PropertySuite<Case, Ctx> {
  /** Short name used on the command line: `tipni`, `lattice-laws`, … */
  readonly name: string;
  /** The theorem or lemma checked, as stated in the docs, e.g. "Theorem 1 (TIPNI)". */
  readonly title: string;
  /** Generator of cases for this context. */
  arbitrary(ctx: Ctx): fc.Arbitrary<Case>;
  /** Judge one case. */
  check(c: Case, ctx: Ctx): CaseOutcome;
  /** Pretty-print a case (the counterexample report). */
  show(c: Case, ctx: Ctx): string;
  /**
   * Non-vacuity counters: named booleans per case; the runner reports how often each was true.
   * Optional thresholds (fractions in [0,1]) turn them into checked meta-properties.
   */
  stats?(c: Case, ctx: Ctx): Readonly<Record<string, boolean>>;
  readonly thresholds?: Readonly<Record<string, number>>;
}

export interface RunOptions<Case> {
  readonly runs: number;
  readonly seed?: number;
  /** Replay path from a previous failure (fast-check's `path`). */
  readonly path?: string;
  /** Known cases tried first (corpus entries, regression examples). */
  readonly examples?: readonly Case[];
  /** Stop after this many milliseconds (the case count then is whatever was reached). */
  readonly timeoutMs?: number;
  /** Called after every case (progress bars). */
  readonly onCase?: (index: number) => void;
  /** Skip shrinking (for timing tests-to-failure without shrink cost). */
  readonly noShrink?: boolean;
}

export interface Counterexample<Case> {
  readonly value: Case;
  readonly reason: string;
  readonly pretty: string;
  readonly seed: number;
  readonly path: string;
  /** Cases generated before the first failure (1-based index of the failing one). */
  readonly testsToFailure: number;
  readonly shrinks: number;
}

export interface Verdict<Case> {
  readonly suite: string;
  readonly title: string;
  readonly ok: boolean;
  readonly runs: number;
  readonly seed: number;
  readonly timeMs: number;
  /** Fraction of cases for which each statistic was true. */
  readonly stats: Readonly<Record<string, number>>;
  /** Statistics below their threshold (a vacuous suite is a failed suite). */
  readonly vacuous: readonly string[];
  /** Cases discarded as too expensive to judge (over the step budget). */
  readonly discarded: number;
  readonly counterexample?: Counterexample<Case>;
  /** A crash in the code under test (not a property violation). */
  readonly error?: string;
}

/** Run a suite in a context. Pure with respect to `seed`: same seed, same cases, same verdict. */
export function runSuite<Case, Ctx>(
  suite: PropertySuite<Case, Ctx>,
  ctx: Ctx,
  opts: RunOptions<Case>,
): Verdict<Case> {
  const seed = opts.seed ?? Date.now() ^ (Math.random() * 0x7fffffff);
  const counts: Record<string, number> = {};
  let seen = 0;
  let discarded = 0;
  let firstFailureAt = 0;
  const lastReason = new Map<Case, string>();
  const started = performance.now();
  const prop = fc.property(suite.arbitrary(ctx), (c) => {
    if (firstFailureAt === 0) {
      seen++;
      opts.onCase?.(seen);
      if (suite.stats) {
        let st: Readonly<Record<string, boolean>> | undefined;
        try {
          st = suite.stats(c, ctx);
        } catch (e) {
          if ((e as { discard?: unknown } | null)?.discard !== true) throw e;
          seen--;
          discarded++;
          fc.pre(false);
        }
        for (const [k, b] of Object.entries(st ?? {})) counts[k] = (counts[k] ?? 0) + (b ? 1 : 0);
      }
    }
    let out: CaseOutcome;
    try {
      out = suite.check(c, ctx);
    } catch (e) {
      // A case too expensive to judge (e.g. an evaluation over its step budget) is discarded, not judged.
      if ((e as { discard?: unknown } | null)?.discard === true) { discarded++; fc.pre(false); }
      throw e;
    }
    if (!out.ok) {
      lastReason.set(c, out.reason);
      if (firstFailureAt === 0) firstFailureAt = seen;
      return false;
    }
    return true;
  });
  const params: fc.Parameters<[Case]> = {
    numRuns: opts.runs,
    seed,
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    ...(opts.examples ? { examples: opts.examples.map((e) => [e] as [Case]) } : {}),
    ...(opts.timeoutMs !== undefined ? { interruptAfterTimeLimit: opts.timeoutMs, markInterruptAsFailure: false } : {}),
    ...(opts.noShrink ? { endOnFailure: true } : {}),
  };
  let details: fc.RunDetails<[Case]>;
  let error: string | undefined;
  try {
    details = fc.check(prop, params);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    details = undefined as never;
  }
  const timeMs = performance.now() - started;
  if (error !== undefined) {
    return { suite: suite.name, title: suite.title, ok: false, runs: seen, seed, timeMs, stats: {}, vacuous: [], discarded, error };
  }
  const statCases = seen;
  const stats: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts)) stats[k] = statCases === 0 ? 0 : n / statCases;
  const vacuous =
    details.failed || !suite.thresholds
      ? []
      : Object.entries(suite.thresholds)
          .filter(([k, t]) => (stats[k] ?? 0) < t)
          .map(([k, t]) => `${k}: ${(stats[k] ?? 0).toFixed(3)} < ${t}`);
  const base = { suite: suite.name, title: suite.title, runs: details.numRuns, seed, timeMs, stats, vacuous, discarded };
  if (details.failed && details.counterexample) {
    const value = details.counterexample[0];
    const thrown = details.errorInstance;
    const reason =
      lastReason.get(value) ??
      (thrown instanceof Error ? `exception: ${thrown.message}` : thrown !== undefined && thrown !== null ? String(thrown) : 'property failed');
    return {
      ...base,
      ok: false,
      counterexample: {
        value,
        reason,
        pretty: suite.show(value, ctx),
        seed,
        path: details.counterexamplePath ?? '',
        testsToFailure: firstFailureAt || details.numRuns,
        shrinks: details.numShrinks,
      },
      ...(thrown !== undefined && !lastReason.has(value) ? { error: reason } : {}),
    };
  }
  return { ...base, ok: vacuous.length === 0 };
}
