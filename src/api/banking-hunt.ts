/**
 * `llmbda hunt --system banking --variant ifc-off`: run a banking property suite over every task family
 * under one deployment, stop at the first counterexample (shrunk by fast-check) and report the minimised
 * world pair / injection with the command that replays it.
 */
import { UserError } from '../util/absurd.ts';
import { loadTasks } from '../banking/data.ts';
import { VARIANTS, type Variant } from '../banking/program.ts';
import { runJob, type Job } from './banking-check.ts';
import type { HuntFailure, HuntSearched } from '../ppmf/hunt.ts';

export interface BankingHuntOptions {
  /** A banking variant (default `ifc-off`). */
  readonly variant: string;
  readonly seed?: number;
  /** Total time budget in milliseconds (default 30 s), shared by the task families. */
  readonly timeMs?: number;
  /** Pairs per family (default 2000). */
  readonly runs?: number;
  /** `banking-integrity` (default) or `banking-insulated-tipni`. */
  readonly suite?: string;
}

export interface BankingHuntResult {
  readonly found: boolean; readonly tried: number; readonly report: string; readonly json?: unknown;
  /** The suite searched (over every task family), and the first failing case (for the JUnit and GitHub reporters). */
  readonly searched: readonly HuntSearched[]; readonly failure?: HuntFailure;
}

const SUITES = ['banking-integrity', 'banking-insulated-tipni'] as const;

/** Cases per task family before moving on. */
const RUNS_PER_FAMILY = 2000;

export function huntBanking(opts: BankingHuntOptions): BankingHuntResult {
  if (!(VARIANTS as readonly string[]).includes(opts.variant)) throw new UserError(`--system banking: unknown variant ${JSON.stringify(opts.variant)}; choose from: ${VARIANTS.join(', ')}`);
  const suite = opts.suite ?? 'banking-integrity';
  if (!(SUITES as readonly string[]).includes(suite)) throw new UserError(`--system banking: unknown suite ${JSON.stringify(suite)}; choose from: ${SUITES.join(', ')}`);
  const variant = opts.variant as Variant;
  const seed = opts.seed ?? Date.now() % 2_147_483_647;
  const budget = opts.timeMs ?? 30_000;
  const started = performance.now();
  const replay = `npx llmbda hunt --system banking --variant ${variant} --seed ${seed}${opts.suite ? ` --suite ${suite}` : ''}`;
  let tried = 0;
  const lines: string[] = [];
  for (const task of loadTasks()) {
    const left = budget - (performance.now() - started);
    if (left <= 0) break;
    const job: Job = { suite: suite as Job['suite'], task, variant };
    // Integrity pairs differ only in the injection text: the counterexample is a minimised injection.
    const v = runJob(job, { runs: opts.runs ?? RUNS_PER_FAMILY, seed, injectionOnly: suite === 'banking-integrity', timeoutMs: left });
    tried += v.runs;
    lines.push(`${task.id}: ${v.runs} pairs, ${v.ok ? 'ok' : v.counterexample ? 'COUNTEREXAMPLE' : v.error ? `error: ${v.error}` : 'vacuous'}`);
    if (v.counterexample) {
      const cx = v.counterexample;
      const report = [
        `${suite} fails under ${variant} on task ${task.id} after ${cx.testsToFailure} pairs (${cx.shrinks} shrinks):`,
        cx.pretty,
        cx.reason,
        `replay: ${replay}`,
      ].join('\n');
      const searched = [{ suite, cases: tried, ms: performance.now() - started }];
      const failure = { suite, error: false, reason: cx.reason, path: cx.path, testsToFailure: cx.testsToFailure, shrinks: cx.shrinks };
      return { found: true, tried, report, searched, failure, json: { found: true, tried, suite, variant, task: task.id, seed, path: cx.path, reason: cx.reason, case: cx.value } };
    }
  }
  return { found: false, tried, searched: [{ suite, cases: tried, ms: performance.now() - started }], report: [...lines, `no counterexample in ${tried} pairs (${suite}, ${variant}); replay: ${replay}`].join('\n'), json: { found: false, tried, suite, variant, seed } };
}
