/**
 * One trial of `npm run bench:mttf`, run in a pool worker: hunt a catalogue variant with one suite on
 * one lattice from one seed until the first failure or the cap, then (separately) shrink it.
 *
 * Time-to-failure is measured on a run with shrinking off (`noShrink`), so it never includes shrink
 * time; the shrink is then timed on its own by replaying the failing case from its `path`; last,
 * `llmbda hunt`'s minimiser (src/llmbda/minimise.ts) continues from the shrunk case, as the hunt does.
 */
import { parentPort } from 'node:worker_threads';
import { runSuite, type Verdict } from '../src/runner/suite.ts';
import { referenceCtx, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { llmbdaSuiteByName } from '../src/api/registry.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics, variantSkipping } from '../src/variants/variant.ts';
import { programOf, type PairCase, type SingleCase } from '../src/generators/pairs.ts';
import type { Profile } from '../src/generators/programs.ts';
import { size } from '../src/syntax/helpers.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { minimise } from '../src/llmbda/minimise.ts';

/** One trial: plain data, so it can cross to a worker thread. */
export interface TrialJob {
  readonly variant: string;
  readonly lattice: string;
  readonly suite: string;
  readonly profile: Profile;
  readonly seed: number;
  /** Cap of the hunt (and, separately, of the shrink), in ms. */
  readonly capMs: number;
  /** A control (expected sound): only the hunt runs; any report is a false alarm. */
  readonly control: boolean;
  /** Only the hunt: no shrink, no minimiser (`bench/mttf-tests.ts`, tests-to-failure only). */
  readonly huntOnly?: boolean;
  /** Stop the hunt after this many cases (default: only the cap stops it). */
  readonly maxTests?: number;
}

/** What one trial measured. */
export interface TrialResult {
  readonly job: TrialJob;
  /** A counterexample was found within the cap. */
  readonly found: boolean;
  /** Time of the hunt: to the first failure, or the whole capped run when nothing was found. */
  readonly ttfMs: number;
  /**
   * CPU time (user + system) of the hunt, when the trial ran in its own process (the pool's process
   * mode): unlike `ttfMs`, independent of how many other processes share the cores.
   */
  readonly ttfCpuMs?: number;
  /** Cases generated up to and including the failing one (or all judged cases when nothing was found). */
  readonly tests: number;
  /** Cases discarded as over the step budget during the hunt. */
  readonly discarded: number;
  /** The failure was an exception in the code under test, not a property violation. */
  readonly crash?: string;
  readonly reason?: string;
  readonly shrinkMs?: number;
  /** Successful shrink steps (fast-check's `numShrinks`). */
  readonly shrinks?: number;
  /** The shrink hit the cap (the reported case is the smallest reached by then). */
  readonly shrinkCapped?: boolean;
  /** AST nodes of the shrunk counterexample's programs (both sides of a pair, summed). */
  readonly size?: number;
  /** AST nodes of the counterexample as first found, before shrinking. */
  readonly sizeUnshrunk?: number;
  /** fast-check replay path of the shrunk counterexample. */
  readonly path?: string;
  /** Time of `llmbda hunt`'s minimiser run after the shrink. */
  readonly minimiseMs?: number;
  /** AST nodes after the minimiser (what `llmbda hunt` saves to the corpus). */
  readonly minimisedSize?: number;
  /** The minimiser hit the cap before a fixpoint. */
  readonly minimiseCapped?: boolean;
}

/** AST nodes of a case: both programs of a pair, or the one program of a single-run case. */
export function caseSize(c: unknown): number {
  if (typeof c === 'object' && c !== null && 'skeleton' in c) {
    const p = c as PairCase<unknown>;
    return size(programOf(p, 0)) + size(programOf(p, 1));
  }
  return size((c as SingleCase<unknown>).expr as Expr<unknown>);
}

/** The context a trial runs in: the variant's semantics (and skipping rules) on the lattice, with the profile. */
function contextOf(job: TrialJob): LlmbdaCtx<unknown> {
  const v = variantByName(job.variant);
  if (!v) throw new Error(`unknown variant ${job.variant}`);
  const lat = latticeByName(job.lattice);
  if (!lat) throw new Error(`unknown lattice ${job.lattice}`);
  return referenceCtx(lat, {
    semantics: variantSemantics(v),
    skipping: variantSkipping(v),
    profile: job.profile,
  }) as LlmbdaCtx<unknown>;
}

/** Run one trial in this thread. */
export function runTrial(job: TrialJob): TrialResult {
  const suite = llmbdaSuiteByName(job.suite);
  if (!suite) throw new Error(`unknown suite ${job.suite}`);
  const ctx = contextOf(job);
  const cpu0 = process.cpuUsage();
  const hunt: Verdict<unknown> = runSuite(suite, ctx, { runs: job.maxTests ?? 1_000_000_000, seed: job.seed, timeoutMs: job.capMs, noShrink: true });
  const cpu = process.cpuUsage(cpu0);
  const cx = hunt.counterexample;
  const base = { job, ttfMs: hunt.timeMs, ...(OWN_PROCESS ? { ttfCpuMs: (cpu.user + cpu.system) / 1000 } : {}), discarded: hunt.discarded };
  if (!cx) return { ...base, found: false, tests: hunt.runs, ...(hunt.error !== undefined ? { crash: hunt.error } : {}) };
  const found = { ...base, found: true, tests: cx.testsToFailure, reason: cx.reason, sizeUnshrunk: caseSize(cx.value), ...(hunt.error !== undefined ? { crash: hunt.error } : {}) };
  if (job.control || job.huntOnly) return found;
  // Replaying the failing case's path with shrinking on starts at that case and shrinks it.
  const shrunk = runSuite(suite, ctx, { runs: 1_000_000_000, seed: job.seed, path: cx.path, timeoutMs: job.capMs });
  const s = shrunk.counterexample;
  const value = s ? s.value : cx.value;
  const t0 = performance.now();
  const m = minimise(suite, ctx, value as never, job.capMs);
  const minimiseMs = performance.now() - t0;
  return {
    ...found,
    shrinkMs: shrunk.timeMs,
    shrinks: s?.shrinks ?? 0,
    shrinkCapped: shrunk.timeMs >= job.capMs,
    size: caseSize(value),
    path: s?.path ?? cx.path,
    minimiseMs,
    minimisedSize: m.after,
    minimiseCapped: m.interrupted,
  };
}

/** Forked by the pool's process mode: the process's CPU time is this trial's alone. */
const OWN_PROCESS = parentPort === null && process.send !== undefined;

if (parentPort) {
  parentPort.on('message', (job: TrialJob) => {
    parentPort?.postMessage({ result: runTrial(job) });
  });
  parentPort.postMessage({ ready: true });
} else if (process.send) {
  process.on('message', (job: TrialJob) => { process.send?.({ result: runTrial(job) }); });
  process.send({ ready: true });
}
