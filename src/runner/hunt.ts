/**
 * The hunt driver, shared by every subject: search a list of (suite, context) targets in order under one
 * time budget (split evenly among what is left), stop at the first counterexample, and report what was
 * searched. Subject-specific work — minimising, saving, telling the story — happens after, in the
 * subject's own module; this driver imports nothing subject-specific.
 */
import { runSuite, type Counterexample, type PropertySuite } from './suite.ts';

/** One place to search: a suite in a context, with a label for reports (a lattice, a system). */
export interface HuntTarget<Case, Ctx> {
  readonly suite: PropertySuite<Case, Ctx>;
  readonly ctx: Ctx;
  readonly label: string;
}

/** What was searched at one target. */
export interface Searched {
  readonly suite: string;
  readonly label: string;
  readonly cases: number;
  readonly ms: number;
}

/** The first counterexample, where it was found, and how long finding and shrinking took. */
export interface Hit<Case, Ctx> {
  readonly target: HuntTarget<Case, Ctx>;
  readonly counterexample: Counterexample<Case>;
  /** Wall time from the start of this target's search to the failing case. */
  readonly timeToFailureMs: number;
  /** Wall time fast-check spent shrinking after the failure. */
  readonly shrinkMs: number;
}

/** Budget of a hunt: seed, time over all targets, and optionally cases per target. */
export interface DriveOptions {
  readonly seed: number;
  /** Search time budget over all targets (shrinking is extra); `Infinity` for none (a `runs` budget alone is deterministic). */
  readonly timeMs: number;
  /** Most cases per target (default: unbounded, the time budget decides). */
  readonly runs?: number;
  /** Least time given to one target, so every target is tried (default 100 ms). */
  readonly minShareMs?: number;
  /** The first failing case the moment it is found, then each smaller one shrinking reaches. */
  readonly onFailure?: (target: HuntTarget<never, never>, c: unknown, reason: string, at: { readonly testsToFailure: number; readonly timeToFailureMs: number }) => void;
  /** Called after every case with the cases tried so far over all targets (progress lines). */
  readonly onCase?: (tried: number) => void;
}

/** What a hunt searched, and its first counterexample or crash if any. */
export interface DriveResult<Case, Ctx> {
  readonly tried: number;
  readonly timeMs: number;
  readonly searched: readonly Searched[];
  readonly hit?: Hit<Case, Ctx>;
  /** A target whose suite crashed outside any case. */
  readonly error?: { readonly target: HuntTarget<Case, Ctx>; readonly message: string; readonly userCode: boolean };
}

/** Search the targets in order; never throws for a property violation (a hit is data). */
export function drive<Case, Ctx>(targets: readonly HuntTarget<Case, Ctx>[], opts: DriveOptions): DriveResult<Case, Ctx> {
  const started = performance.now();
  const searched: Searched[] = [];
  let tried = 0;
  for (const [i, target] of targets.entries()) {
    const left = opts.timeMs - (performance.now() - started);
    if (left <= 0 && searched.length > 0) break;
    const share = left === Infinity ? undefined : Math.max(opts.minShareMs ?? 100, left / (targets.length - i));
    const t0 = performance.now();
    let lastCaseAt = t0;
    const v = runSuite(target.suite, target.ctx, {
      runs: opts.runs ?? 2_000_000_000,
      seed: opts.seed,
      ...(share !== undefined ? { timeoutMs: share } : {}),
      onCase: (n) => { lastCaseAt = performance.now(); opts.onCase?.(tried + n); },
      ...(opts.onFailure ? { onFailure: (c: Case, reason: string, n: number) => opts.onFailure!(target as HuntTarget<never, never>, c, reason, { testsToFailure: n, timeToFailureMs: lastCaseAt - t0 }) } : {}),
    });
    const ms = performance.now() - t0;
    tried += v.runs;
    searched.push({ suite: target.suite.name, label: target.label, cases: v.runs, ms });
    if (v.status === 'error') return { tried, timeMs: performance.now() - started, searched, error: { target, message: v.error, userCode: v.userCode === true } };
    if (v.status !== 'fails') continue;
    const hit: Hit<Case, Ctx> = { target, counterexample: v.counterexample, timeToFailureMs: lastCaseAt - t0, shrinkMs: ms - (lastCaseAt - t0) };
    return { tried, timeMs: performance.now() - started, searched, hit };
  }
  return { tried, timeMs: performance.now() - started, searched };
}
