/**
 * `llmbda check`: run every property suite against the reference semantics (or `--variant`) on every
 * shipped lattice (or `--lattice`), one verdict row per (suite, lattice). Exit 0 only if all hold.
 * `--lattice ./my.ts` first checks the lattice laws on a user lattice.
 */
import { defaultSeed } from '../runner/seed.ts';
import type { Command } from 'commander';
import pc from 'picocolors';
import { SHIPPED_LATTICES, resolveLattice } from '../lattice/registry.ts';
import { PPMF_SUITES, PPMF_BRIDGE_SUITES, LLMBDA_SUITES, checkSuiteNames } from '../api/registry.ts';
import { runPool } from '../runner/pool.ts';
import { CHECK_JOBS, jobCost, type Job, type JobResult } from '../api/jobs.ts';
import { UserError } from '../util/absurd.ts';
import { duration, integer, positiveInt } from './common.ts';
import { poolSize } from '../runner/pool.ts';
import { NON_VACUITY_ALPHA, type ThresholdJudgement } from '../runner/suite.ts';
import { checkDocument, render, reporterFlag, REPORTERS, type Reporter } from '../report/index.ts';
import { ProgressLine } from './progress.ts';
import { packageVersion } from './main.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { renderTable } from './table.ts';
import type { CommandResult } from './main.ts';

interface CheckOpts {
  runs: number;
  seed?: number;
  suite?: string[];
  lattice?: string[];
  variant?: string;
  json?: boolean;
  reporter?: Reporter;
  path?: string;
  time?: number;
  workers?: number;
  progress: boolean;
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

export function registerCheck(program: Command, result: CommandResult): void {
  program
    .command('check')
    .description('run the property suites (theorems, lemmas, lattice laws) and print a verdict table')
    .option('--runs <n>', 'generated cases per (suite, lattice)', positiveInt('--runs'), 2000)
    .option('--seed <s>', 'seed (default: random; printed for replay)', integer('--seed'))
    .option('--suite <name>', `only this suite (repeatable): ${checkSuiteNames().join(', ')}`, collect)
    .option('--lattice <name|file.ts>', 'only this lattice (repeatable): a shipped name or a user lattice file', collect)
    .option('--variant <name|file.ts>', 'check a variant semantics instead of the reference')
    .option('--path <path>', 'replay one printed counterexample: fast-check\'s path (needs one --suite, one --lattice and the printed --seed, --runs)')
    .option('--time <duration>', 'time budget for the whole check, e.g. 2m: each (suite, lattice) gets a share by its planned cases and stops there (the runs column shows the cases reached)', duration('--time'))
    .option('--workers <n>', 'worker threads (default: one per core)', positiveInt('--workers'))
    .option('--reporter <kind>', `output: ${REPORTERS.join(', ')} (see docs/ci.md)`, reporterFlag, 'text')
    .option('--no-progress', 'no progress line (it is only drawn on a terminal anyway)')
    .option('--json', 'same as --reporter json')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (opts: CheckOpts) => {
      const started = performance.now();
      const reporter: Reporter = opts.json ? 'json' : opts.reporter ?? 'text';
      const seed = opts.seed ?? defaultSeed();
      const lattices = opts.lattice ?? [...SHIPPED_LATTICES];
      const userLattices = lattices.filter((l) => /\.(ts|js|mts|mjs)$/.test(l));
      // Validate lattices up front, in this thread, so a bad file fails with one clear message.
      for (const l of lattices) await resolveLattice(l);
      const known = new Set(checkSuiteNames());
      for (const s of opts.suite ?? []) if (!known.has(s)) throw new UserError(`unknown suite ${JSON.stringify(s)}; suites are ${[...known].join(', ')}`);
      if (opts.path !== undefined && (opts.suite?.length !== 1 || opts.lattice?.length !== 1 || opts.seed === undefined)) {
        throw new UserError('--path replays one printed case: give exactly one --suite, one --lattice and the --seed (and --runs, --variant) of the printed replay line');
      }
      const wanted = (s: string): boolean => !opts.suite || opts.suite.includes(s);
      const jobs: Job[] = [];
      const base = { runs: opts.runs, seed, ...(opts.variant ? { variant: opts.variant } : {}), ...(opts.path !== undefined ? { path: opts.path } : {}) };
      for (const l of lattices) if (wanted('lattice-laws') && (!opts.variant || opts.suite)) jobs.push({ ...base, suite: 'lattice-laws', lattice: l });
      if (wanted('distributions') && userLattices.length === 0 && !opts.variant) jobs.push({ ...base, suite: 'distributions', lattice: '-' });
      for (const s of LLMBDA_SUITES) if (wanted(s.name)) for (const l of lattices) jobs.push({ ...base, suite: s.name, lattice: l });
      // The memory firewall's suites run once, on the PPMF system (not per lattice), in the default check.
      if (userLattices.length === 0 && !opts.variant) for (const s of PPMF_SUITES) if (wanted(s.name) && (opts.suite || !opts.lattice)) jobs.push({ ...base, suite: s.name, lattice: '-' });
      // The bridge suites are LLMbda programs on the ppmf lattice: run them in the default check and under --variant.
      // Their cases are whole memory pipelines (≈ 10× a theorem case), so unless named with --suite they run a
      // quarter of --runs; the table shows the count actually run.
      if (userLattices.length === 0) {
        for (const s of PPMF_BRIDGE_SUITES) {
          if (wanted(s.name) && (opts.suite || !opts.lattice)) jobs.push({ ...base, runs: opts.suite ? opts.runs : Math.ceil(opts.runs / 4), suite: s.name, lattice: 'ppmf' });
        }
      }
      const workers = poolSize(opts.workers, jobs.length);
      const timed = opts.time === undefined ? jobs : withBudget(jobs, opts.time, workers);
      const progress = ProgressLine.enabled(process.stderr, opts.progress) ? new ProgressLine(process.stderr, 'checking') : undefined;
      // Per-case progress over every job: finished jobs count their cases, running ones what they last reported.
      const total = timed.reduce((a, j) => a + j.runs, 0);
      const running = new Map<Job, number>();
      let finished = 0;
      const draw = (): void => progress?.update(finished + [...running.values()].reduce((a, b) => a + b, 0), { total, ...(opts.time !== undefined ? { leftMs: Math.max(0, opts.time - (performance.now() - started)) } : {}) });
      const onCase = progress ? (j: Job, n: number): void => { running.set(j, n); draw(); } : undefined;
      const tick = (r: JobResult, _d: number): void => { running.delete(r.job); finished += r.job.runs; draw(); };
      // Lattice laws gate the theorem suites on a user lattice: a broken join makes every other verdict meaningless.
      const lawJobs = timed.filter((j) => j.suite === 'lattice-laws' && userLattices.includes(j.lattice));
      const rest = timed.filter((j) => !lawJobs.includes(j));
      const lawResults = await runPool(lawJobs, CHECK_JOBS, { workers: 1, onDone: tick, ...(onCase ? { onCase } : {}) });
      const brokenUser = new Set(lawResults.filter((r) => r.status !== 'holds').map((r) => r.job.lattice));
      const runnable = rest.filter((j) => !brokenUser.has(j.lattice));
      const results = [...lawResults, ...(await runPool(runnable, CHECK_JOBS, { workers, cost: jobCost, onDone: tick, ...(onCase ? { onCase } : {}) }))];
      progress?.stop();
      const notRun = rest.filter((j) => brokenUser.has(j.lattice)).map((j) => ({ suite: j.suite, lattice: j.lattice, why: `not run: the lattice laws fail on ${j.lattice}` }));
      const text = [renderVerdicts(results, seed, opts.variant), ...[...brokenUser].map((l) => `${pc.red('✗')} ${l}: the lattice laws fail, so the theorem suites were not run on it.`)].join('\n');
      const doc = checkDocument(results, { seed, ...(opts.variant ? { variant: opts.variant } : {}), version: packageVersion(), timeMs: performance.now() - started, text: reporter === 'text' ? text : stripColour(text), notRun },
        (r) => stripColour(failureDetails(r, opts.variant).join('\n')), (r) => (r.counterexample ? [replayCommand(r, opts.variant)] : []), (r) => r.corpusFile ?? null);
      result.exitCode = doc.exitCode;
      process.stdout.write(render(doc, reporter));
    });
}

/** Colour escapes removed (for machine-readable output). */
// eslint-disable-next-line no-control-regex
const stripColour = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * Give each job a share of a time budget for the whole check, by its planned cases: with `workers`
 * threads, the jobs' limits add up to `workers × budget`.
 */
export function withBudget(jobs: readonly Job[], budgetMs: number, workers: number): Job[] {
  const cost = jobs.reduce((a, j) => a + jobCost(j), 0);
  return jobs.map((j) => ({ ...j, timeoutMs: Math.max(50, Math.floor((budgetMs * workers * jobCost(j)) / Math.max(1, cost))) }));
}

/** The command that reproduces a failed job's printed case exactly. */
export function replayCommand(r: JobResult, variant?: string): string {
  const c = r.counterexample!;
  return `npx llmbda check --suite ${r.job.suite} --lattice '${r.job.lattice}' --seed ${c.seed} --runs ${r.job.runs}${variant ? ` --variant ${variant}` : ''} --path '${c.path}'`;
}

/** Non-vacuity for the table: every thresholded counter's estimate with its interval when few, else the lowest one. */
function showStats(r: JobResult): string {
  const js = r.nonVacuity ?? [];
  const pct = (v: number): string => `${(v * 100).toFixed(0)}%`;
  const one = (j: ThresholdJudgement): string => `${j.counter} ${pct(j.estimate)} [${pct(j.lower)}–${pct(j.upper)}]`;
  if (js.length === 0) return Object.entries(r.stats).map(([k, v]) => `${k} ${pct(v)}`).join(', ');
  if (js.length <= 2) return js.map(one).join(', ');
  const low = js.reduce((a, b) => (b.estimate < a.estimate ? b : a));
  return `${js.length} counters, lowest ${one(low)}`;
}

/** The details of one verdict that did not hold: its counterexample (and where it came from) or why it is vacuous. */
export function failureDetails(r: JobResult, variant?: string): string[] {
  const out = [pc.bold(`${r.job.suite} on ${r.job.lattice}: ${r.title}`)];
  if (r.counterexample) {
    const c = r.counterexample;
    out.push(`counterexample after ${c.testsToFailure} tests, ${c.shrinks} shrinks${r.corpusFile ? ` — a saved case tried first: ${r.corpusFile}` : ''}:`, c.pretty, `why: ${c.reason}`,
      `replay: ${replayCommand(r, variant)}`);
  }
  if (r.vacuous.length) out.push(`vacuous (judged on a one-sided ${100 * (1 - NON_VACUITY_ALPHA)}% Wilson bound, see docs/ci.md): ${r.vacuous.join('; ')}`);
  if (r.error) out.push(`error: ${r.error}`);
  return out;
}

/** The verdict table plus the details of every failure. */
export function renderVerdicts(results: readonly JobResult[], seed: number, variant?: string): string {
  const status = (r: JobResult): string =>
    r.status === 'holds' ? pc.green('holds') : r.status === 'fails' ? pc.red('FAILS') : r.status === 'vacuous' ? pc.yellow('VACUOUS') : pc.red('ERROR');
  const rows = results.map((r) => [
    r.job.suite, r.job.lattice === '-' ? (r.job.suite.startsWith('ppmf') ? 'system ppmf' : '') : r.job.lattice, String(r.runs), `${(r.timeMs / 1000).toFixed(1)}s`, status(r), String(r.job.seed),
    showStats(r),
  ]);
  const out = [`${variant ? `variant ${variant}` : 'reference semantics'}, seed ${seed}`, renderTable(['suite', 'lattice', 'runs', 'time', 'result', 'seed', 'non-vacuity'], rows)];
  for (const r of results) if (r.status !== 'holds') out.push('', ...failureDetails(r, variant));
  const bad = results.filter((r) => r.status !== 'holds').length;
  out.push('', bad === 0 ? pc.green(`all ${results.length} verdicts hold`) : pc.red(`${bad} of ${results.length} verdicts do not hold`));
  return out.join('\n');
}
