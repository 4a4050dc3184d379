/**
 * Property suites as data: one definition is run both from vitest and from `llmbda check`/`hunt`.
 *
 * A suite generates cases with a fast-check arbitrary and judges each with `check`, which returns an
 * outcome value (never throws for a property violation). Runs are replayable from `seed` and `path`.
 */
import fc from 'fast-check';
import { DiscardCase } from '../util/discard.ts';
import { defaultSeed } from './seed.ts';
import { beat } from '../util/heartbeat.ts';
import { isUserCodeError } from '../util/user-code.ts';

/** The judgement of one case: holds, or fails with a human-readable reason. */
export type CaseOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The outcome of a case that holds. */
export const HOLDS: CaseOutcome = { ok: true };
/** The outcome of a failing case, with the reason a person reads. */
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
  /**
   * What kind of case the suite judges (`pair`, `single`, `scenario`, …): declared, so a corpus entry
   * or a replay can be matched with the suites that judge its kind without generating a case.
   */
  readonly caseKind: string;
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
  /**
   * The suite's stated power: how many cases a hunt must survive on one target before it may call a
   * variant clean (fewer is "inconclusive"). Default: the hunt's `CLEAN_BILL_CASES`.
   */
  readonly power?: number;
  /**
   * What the suite needs besides the semantics under test (e.g. `skipping`: a skipping semantics for it;
   * `peval`: an independent interpreter of it). An entry point refuses a suite whose needs it cannot meet,
   * rather than judge the semantics against something that belongs to another one.
   */
  readonly needs?: readonly string[];
}

/** How to run a suite: case count, seed, replay path, examples tried first, a time limit, progress. */
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
  /**
   * Called with the first failing case the moment it is found, then with every smaller failing case
   * fast-check's shrinking reaches (so a caller can show and save a finding before shrinking ends).
   */
  readonly onFailure?: (c: Case, reason: string, testsToFailure: number) => void;
}

/** A failing case (after fast-check's shrinking), rendered, with what replays it (`seed`, `path`). */
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

/** How a run ended: the tag of a `Verdict`. */
export type VerdictStatus = 'holds' | 'fails' | 'vacuous' | 'error';

interface VerdictCommon {
  readonly suite: string;
  readonly title: string;
  readonly runs: number;
  readonly seed: number;
  readonly timeMs: number;
  /** Fraction of cases for which each statistic was true. */
  readonly stats: Readonly<Record<string, number>>;
  /** Every thresholded counter: its count, estimate and one-sided confidence bound (see `judgeThreshold`). */
  readonly nonVacuity?: readonly ThresholdJudgement[];
  /** Cases discarded as too expensive to judge (a `DiscardCase` was thrown, e.g. over the step budget). */
  readonly discarded: number;
}

/**
 * The verdict of a run, tagged by `status`: every case held (`holds`), a counterexample was found
 * (`fails`), no case failed but a non-vacuity counter stayed below its threshold (`vacuous`, a failed
 * run too), or the code under test crashed outside a case (`error`). `ok` is `status === 'holds'`.
 */
export type Verdict<Case> = VerdictCommon & (
  | { readonly status: 'holds'; readonly ok: true; readonly vacuous: readonly []; readonly counterexample?: undefined; readonly error?: undefined }
  | { readonly status: 'vacuous'; readonly ok: false; readonly vacuous: readonly string[]; readonly counterexample?: undefined; readonly error?: undefined }
  | {
      readonly status: 'fails'; readonly ok: false; readonly vacuous: readonly []; readonly counterexample: Counterexample<Case>;
      /** Set when the failing case threw instead of returning a failed outcome. */
      readonly error?: string;
    }
  | {
      readonly status: 'error'; readonly ok: false; readonly vacuous: readonly []; readonly counterexample?: undefined; readonly error: string;
      /** The error came from the user's own code (a lattice, variant rule or primitive): a user error, not a crash. */
      readonly userCode?: true;
    }
);

/**
 * Non-vacuity is a statistical claim about the generator ("at least a fraction t of cases have this
 * property"), judged on a sample. A point estimate below t is not evidence enough: at 75 cases a
 * counter whose true rate is 0.12 reads under 0.1 about a third of the time. A counter is judged
 * **vacuous** only when the one-sided Wilson score upper bound at confidence 1 − α is below its
 * threshold, and at least `MIN_CASES` cases were judged; with fewer cases it is not judged at all.
 * α = 0.001 per counter (z = 3.0902): over a full `llmbda check` (≈ 100 counters) a generator that
 * really meets every threshold is reported vacuous by chance less than 1 time in 10.
 */
export const NON_VACUITY_ALPHA = 0.001;
/** The standard normal quantile z with P(Z > z) = NON_VACUITY_ALPHA. */
export const NON_VACUITY_Z = 3.090232306167813;
/** Fewer judged cases than this: no non-vacuity verdict (the bound would be too wide to say anything). */
export const MIN_CASES = 20;

/** The two-sided Wilson score interval of k successes in n trials at normal quantile z (each side one-sided at that z). */
export function wilsonInterval(k: number, n: number, z: number = NON_VACUITY_Z): { readonly lower: number; readonly upper: number } {
  if (n === 0) return { lower: 0, upper: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/** One thresholded counter of a run, judged. */
export interface ThresholdJudgement {
  readonly counter: string;
  /** Cases where the counter was true, out of `cases` judged. */
  readonly count: number;
  readonly cases: number;
  readonly threshold: number;
  /** count / cases (0 when no case). */
  readonly estimate: number;
  /** The Wilson interval at z = NON_VACUITY_Z (the upper end is what is compared with the threshold). */
  readonly lower: number;
  readonly upper: number;
  /** `met`: the upper bound reaches the threshold; `vacuous`: the data show the rate is below it; `too-few`: under MIN_CASES cases. */
  readonly status: 'met' | 'vacuous' | 'too-few';
}

/** Judge one threshold on a count. */
export function judgeThreshold(counter: string, count: number, cases: number, threshold: number): ThresholdJudgement {
  const { lower, upper } = wilsonInterval(count, cases);
  const status = cases < MIN_CASES ? 'too-few' : upper < threshold ? 'vacuous' : 'met';
  return { counter, count, cases, threshold, estimate: cases === 0 ? 0 : count / cases, lower, upper, status };
}

/** A vacuous counter as one line: `other risk (same target): 6/75 = 0.080 (99.9% upper bound 0.094) < 0.1`. */
export function showThreshold(j: ThresholdJudgement): string {
  return `${j.counter}: ${j.count}/${j.cases} = ${j.estimate.toFixed(3)} (interval ${j.lower.toFixed(3)}–${j.upper.toFixed(3)}, upper bound at α ${NON_VACUITY_ALPHA}) < ${j.threshold}`;
}

/** Run a suite in a context. Pure with respect to `seed`: same seed, same cases, same verdict. */
export function runSuite<Case, Ctx>(
  suite: PropertySuite<Case, Ctx>,
  ctx: Ctx,
  opts: RunOptions<Case>,
): Verdict<Case> {
  const seed = opts.seed ?? defaultSeed();
  const counts: Record<string, number> = {};
  let seen = 0;
  let discarded = 0;
  let firstFailureAt = 0;
  const lastReason = new Map<Case, string>();
  let userFailure: string | undefined;
  const started = performance.now();
  const prop = fc.property(suite.arbitrary(ctx), (c) => {
    beat();
    // After user code failed, the run is over: every further case (a shrink candidate) passes, so
    // fast-check stops at once instead of shrinking the user's exception.
    if (userFailure !== undefined) return true;
    if (firstFailureAt === 0) {
      seen++;
      opts.onCase?.(seen);
      if (suite.stats) {
        let st: Readonly<Record<string, boolean>> | undefined;
        try {
          st = suite.stats(c, ctx);
        } catch (e) {
          if (isUserCodeError(e)) { userFailure = e.message; return false; }
          if (!DiscardCase.isDiscard(e)) throw e;
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
      if (DiscardCase.isDiscard(e)) { discarded++; fc.pre(false); }
      if (isUserCodeError(e)) { userFailure = e.message; return false; }
      throw e;
    }
    if (!out.ok) {
      lastReason.set(c, out.reason);
      if (firstFailureAt === 0) firstFailureAt = seen;
      opts.onFailure?.(c, out.reason, firstFailureAt);
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
    if (isUserCodeError(e)) userFailure ??= e.message; // user code failing while cases are generated
    error = e instanceof Error ? e.message : String(e);
    details = undefined as never;
  }
  if (userFailure === undefined && details?.failed && isUserCodeError(details.errorInstance)) userFailure = details.errorInstance.message;
  const timeMs = performance.now() - started;
  if (userFailure !== undefined) {
    return { suite: suite.name, title: suite.title, status: 'error', ok: false, runs: seen, seed, timeMs, stats: {}, vacuous: [], discarded, error: userFailure, userCode: true };
  }
  if (error !== undefined) {
    return { suite: suite.name, title: suite.title, status: 'error', ok: false, runs: seen, seed, timeMs, stats: {}, nonVacuity: [], vacuous: [], discarded, error };
  }
  const statCases = seen;
  const stats: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts)) stats[k] = statCases === 0 ? 0 : n / statCases;
  const nonVacuity = Object.entries(suite.thresholds ?? {}).map(([k, t]) => judgeThreshold(k, counts[k] ?? 0, statCases, t));
  const vacuous: string[] = details.failed ? [] : nonVacuity.filter((j) => j.status === 'vacuous').map(showThreshold);
  const base = { suite: suite.name, title: suite.title, runs: details.numRuns, seed, timeMs, stats, nonVacuity, discarded };
  if (details.failed && details.counterexample) {
    const value = details.counterexample[0];
    const thrown = details.errorInstance;
    const reason =
      lastReason.get(value) ??
      (thrown instanceof Error ? `exception: ${thrown.message}` : thrown !== undefined && thrown !== null ? String(thrown) : 'property failed');
    return {
      ...base,
      status: 'fails',
      ok: false,
      vacuous: [],
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
  return vacuous.length === 0 ? { ...base, status: 'holds', ok: true, vacuous: [] } : { ...base, status: 'vacuous', ok: false, vacuous };
}

/** The judgement of one case by a suite's own `check`, outside a run: a thrown error is a failure too. */
export type Judgement =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string; readonly crashed: boolean }
  | { readonly ok: 'discarded'; readonly reason: string };

/** Judge one case with a suite's `check` (replays and minimisers use it; a discard is reported as such). */
export function judge<Case, Ctx>(suite: PropertySuite<Case, Ctx>, ctx: Ctx, c: Case): Judgement {
  let out: CaseOutcome;
  beat();
  try {
    out = suite.check(c, ctx);
  } catch (e) {
    if (DiscardCase.isDiscard(e)) return { ok: 'discarded', reason: e.message };
    if (isUserCodeError(e)) throw e;
    return { ok: false, reason: `exception: ${e instanceof Error ? e.message : String(e)}`, crashed: true };
  }
  return out.ok ? { ok: true } : { ok: false, reason: out.reason, crashed: false };
}
