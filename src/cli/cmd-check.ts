/**
 * `llmbda check`: run every property suite against the reference semantics (or `--variant`) on every
 * shipped lattice (or `--lattice`), one verdict row per (suite, lattice). Exit 0 only if all hold.
 * `--lattice ./my.ts` first checks the lattice laws on a user lattice.
 */
import { defaultSeed } from '../runner/seed.ts';
import type { Command } from 'commander';
import pc from 'picocolors';
import { SHIPPED_LATTICES } from '../lattice/registry.ts';
import { PPMF_SUITES, PPMF_BRIDGE_SUITES, LLMBDA_SUITES, checkSuiteNames } from '../api/registry.ts';
import { defaultWorkers, poolSize, runPool } from '../runner/pool.ts';
import { CHECK_JOBS, checkReplayCommand, familyOrder, jobError, jobShare, type Job, type JobResult } from '../api/jobs.ts';
import { availableParallelism } from 'node:os';
import { withInterrupts } from './interrupt.ts';
import { CORPUS_DIR, loadEntry, scanCorpus, slug } from '../llmbda/corpus.ts';
import { latticeByName } from '../lattice/registry.ts';
import { executeLoad, isUserFile, type LoadTaskArgs, type LoadTaskResult } from './load-task.ts';
import { startInWorker } from './large-stack.ts';
import { UserError } from '../util/absurd.ts';
import { DEFAULT_CASE_TIMEOUT_MS, DEFAULT_MAX_MEMORY_MB, duration, memoryMb, positiveInt, seed32, collect } from './common.ts';
import { NON_VACUITY_ALPHA, type ThresholdJudgement } from '../runner/suite.ts';
import { checkDocument, render, reporterFlag, REPORTERS, writeHtml, type Reporter } from '../report/index.ts';
import { ProgressLine } from './progress.ts';
import { packageVersion } from './main.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { renderTable } from '../util/table.ts';
import type { CommandResult } from './main.ts';
import { runTargetCheck } from './cmd-target.ts';

interface CheckOpts {
  runs: number;
  seed?: number;
  suite?: string[];
  lattice?: string[];
  variant?: string;
  json?: boolean;
  html?: string;
  reporter?: Reporter;
  path?: string;
  time?: number;
  workers?: number;
  progress: boolean;
  caseTimeout: number;
  maxSteps?: number;
  maxMemoryMb: number;
  corpus: string | false;
  shared: boolean;
}

export function registerCheck(program: Command, result: CommandResult): void {
  program
    .command('check')
    .description('run the property suites (theorems, lemmas, lattice laws) and print a verdict table')
    .option('--runs <n>', 'generated cases per (suite, lattice)', positiveInt('--runs'), 2000)
    .option('--seed <s>', 'seed (default: random; printed for replay)', seed32("--seed"))
    .option('--suite <name>', `only this suite (repeatable): ${checkSuiteNames().join(', ')}`, collect)
    .option('--lattice <name|file.ts>', 'only this lattice (repeatable): a shipped name or a user lattice file', collect)
    .option('--variant <name|file.ts>', 'check a variant semantics instead of the reference')
    .option('--path <path>', 'replay one printed counterexample: fast-check\'s path (needs one --suite, one --lattice and the printed --seed, --runs)')
    .option('--time <duration>', 'time budget for the whole check, e.g. 2m: each (suite, lattice) gets a share by its planned cases and stops there (the runs column shows the cases reached)', duration('--time'))
    .option('--workers <n>', `worker threads (most: one per core, here ${availableParallelism()}; default: one per 1.5 cores, at least 1, while the load average is below the core count, else 1)`, positiveInt('--workers'))
    .option('--reporter <kind>', `output: ${REPORTERS.join(', ')} (see docs/ci.md)`, reporterFlag, 'text')
    .option('--no-progress', 'no progress line (it is only drawn on a terminal anyway)')
    .option('--no-shared', 'suites that draw the same cases evaluate them each on their own (by default they share the evaluations: docs/design.md)')
    .option('--case-timeout <duration>', 'time limit per case (CPU time of its thread on Linux, else wall clock): a stuck case ends its verdict as an error naming where it was stuck', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--max-steps <n>', 'evaluation steps per run before a case is discarded as too expensive', positiveInt('--max-steps'))
    .option('--max-memory-mb <n>', `heap cap of each worker thread in MB: a case that exhausts it ends its verdict as an error`, memoryMb('--max-memory-mb'), DEFAULT_MAX_MEMORY_MB)
    .option('--corpus <dir>', 'saved cases replayed after the generated runs and reported apart (never part of a verdict)', CORPUS_DIR)
    .option('--no-corpus', 'replay no saved cases')
    .option('--json', 'same as --reporter json')
    .option('--html <file>', 'also write the report as one self-contained HTML page (docs/reports.md)')
    .option('--target <file|stdio:cmd>', 'check an implementation under test instead (docs/targets.md); with --mask, --replay FILE')
    .option('--mask <constructs>', 'with --target: constructs it cannot express, e.g. endorse,prim:toStr')
    .option('--replay <file.json>', 'with --target: judge a saved target counterexample')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (opts: CheckOpts & { target?: string; mask?: string; replay?: string }) => {
      if (opts.target && opts.html !== undefined) throw new UserError('--html reports LLMbda checks only (not --target)');
      if (opts.target) return runTargetCheck({ ...opts, target: opts.target }, { caseTimeout: opts.caseTimeout, maxMemoryMb: opts.maxMemoryMb }, result);
      const started = performance.now();
      const reporter: Reporter = opts.json ? 'json' : opts.reporter ?? 'text';
      const seed = opts.seed ?? defaultSeed();
      const lattices = opts.lattice ?? [...SHIPPED_LATTICES];
      const userLattices = lattices.filter((l) => /\.(ts|js|mts|mjs)$/.test(l));
      // Validate lattices and the variant up front, so a bad file fails with one clear message; user files load in a
      // supervised worker (a file that loops at its top level is stopped by the import limit), shipped names here.
      const loadArgs: LoadTaskArgs = { lattices, ...(opts.variant ? { variant: opts.variant } : {}), named: opts.suite !== undefined };
      const loaded = lattices.some(isUserFile) || (opts.variant !== undefined && isUserFile(opts.variant))
        ? await startInWorker<LoadTaskResult>('load', loadArgs, { stackMb: 64, caseTimeoutMs: opts.caseTimeout, maxMemoryMb: opts.maxMemoryMb }).result
        : await executeLoad(loadArgs);
      const known = new Set(checkSuiteNames());
      for (const s of opts.suite ?? []) if (!known.has(s)) throw new UserError(`unknown suite ${JSON.stringify(s)}; suites are ${[...known].join(', ')}`);
      const wanted = (s: string): boolean => !opts.suite || opts.suite.includes(s);
      const jobs: Job[] = [];
      const base = { runs: opts.runs, seed, ...(opts.variant ? { variant: opts.variant } : {}), ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}), ...(opts.path !== undefined ? { path: opts.path } : {}) };
      if (opts.workers !== undefined && opts.workers > availableParallelism() && reporter === 'text') {
        process.stderr.write(`llmbda: --workers ${opts.workers} capped at ${availableParallelism()} (the core count)\n`);
      }
      // The corpus: read once, corrupt files skipped with a warning; each case is replayed by the job of its suite and lattice.
      const scan = opts.corpus === false ? { entries: [], warnings: [] } : scanCorpus(opts.corpus);
      for (const w of scan.warnings) process.stderr.write(`llmbda: warning: corpus: ${w}\n`);
      const corpusFor = (suite: string, lattice: string): string[] => scan.entries
        .filter(({ entry: e }) => e.suite === suite && (latticeByName(e.lattice)?.name ?? e.lattice) === (latticeByName(lattice)?.name ?? lattice))
        .filter(({ entry: e }) => !opts.variant || slug(e.variant) === slug(opts.variant))
        .map(({ file }) => file);
      for (const l of lattices) if (wanted('lattice-laws') && (!opts.variant || opts.suite)) jobs.push({ ...base, suite: 'lattice-laws', lattice: l });
      if (wanted('distributions') && userLattices.length === 0 && !opts.variant) jobs.push({ ...base, suite: 'distributions', lattice: '-' });
      // A suite that cannot judge the variant (it needs a ⇓♯ or a peval the variant lacks) is refused when
      // named, and left out, with a note, otherwise: never a verdict against another semantics' side.
      const refusedSuites: string[] = [];
      for (const s of LLMBDA_SUITES) {
        if (!wanted(s.name)) continue;
        const refused = loaded.refusals[s.name];
        if (refused && opts.suite) throw new UserError(refused);
        if (refused) { refusedSuites.push(refused); continue; }
        for (const l of lattices) {
          const corpus = corpusFor(s.name, l);
          jobs.push({ ...base, suite: s.name, lattice: l, ...(corpus.length ? { corpus } : {}) });
        }
      }
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
      const workers = poolSize(opts.workers ?? defaultWorkers(), jobs.length);
      const timed = opts.time === undefined ? jobs : withBudget(jobs, opts.time, workers);
      const progress = ProgressLine.enabled(process.stderr, opts.progress && reporter === 'text') ? new ProgressLine(process.stderr, 'checking') : undefined;
      // Per-case progress over every job: finished jobs count their cases, running ones what they last reported.
      const total = timed.reduce((n, j) => n + j.runs, 0);
      // Keyed by (suite, lattice): a job's result comes back from its worker as a copy, not the same object.
      const running = new Map<string, number>();
      const key = (j: Job): string => `${j.suite}\u0000${j.lattice}`;
      let doneCases = 0;
      const draw = (): void => progress?.update(doneCases + [...running.values()].reduce((x, y) => x + y, 0), { total, ...(opts.time !== undefined ? { leftMs: Math.max(0, opts.time - (performance.now() - started)) } : {}) });
      const onCase = progress ? (j: Job, n: number): void => { running.set(key(j), n); draw(); } : undefined;
      // Lattice laws gate the theorem suites on a user lattice: a broken join makes every other verdict meaningless.
      const lawJobs = timed.filter((j) => j.suite === 'lattice-laws' && userLattices.includes(j.lattice));
      const rest = timed.filter((j) => !lawJobs.includes(j));
      const finished: JobResult[] = [];
      const tick = (r: JobResult, _d: number): void => { finished.push(r); running.delete(key(r.job)); doneCases += r.job.runs; draw(); };
      // Every job runs in a worker thread: this thread stays free for signals, and a stuck case is stopped.
      const pool = { threads: true, caseTimeoutMs: opts.caseTimeout, maxMemoryMb: opts.maxMemoryMb, timedOut: jobError, ...(onCase ? { onCase } : {}) } as const;
      const { results, brokenUser } = await withInterrupts((signal) => {
        progress?.stop();
        if (reporter === 'json') {
          process.stdout.write(`${JSON.stringify({ seed, runs: opts.runs, ok: false, interrupted: signal, unfinished: jobs.length - finished.length, results: finished.map(jsonResult) }, null, 2)}\n`);
        } else {
          process.stdout.write(`${renderVerdicts(order(finished, timed), seed, opts.variant, { signal, total: jobs.length })}\n`);
        }
      }, async () => {
        const lawResults = await runPool(lawJobs, CHECK_JOBS, { ...pool, workers: 1, onDone: tick });
        const brokenUser = new Set(lawResults.filter((r) => r.status !== 'holds').map((r) => r.job.lattice));
        const runnable = familyOrder(rest.filter((j) => !brokenUser.has(j.lattice)), { share: opts.shared });
        const results = [...lawResults, ...(await runPool(runnable.jobs, CHECK_JOBS, { ...pool, workers, cost: runnable.cost, groupOf: (j) => j.group, onDone: tick }))];
        progress?.stop();
        return { results, brokenUser };
      });
      const regressions = results.flatMap((r) => (r.corpus ?? []).filter((c) => c.outcome !== c.expected));
      const notRun = [...rest.filter((j) => brokenUser.has(j.lattice)).map((j) => ({ suite: j.suite, lattice: j.lattice, why: `not run: the lattice laws fail on ${j.lattice}` })),
        ...refusedSuites.map((why) => ({ suite: why.split(' ')[1] ?? '-', lattice: '-', why: `not run: ${why}` }))];
      const text = [renderVerdicts(results, seed, opts.variant), ...refusedSuites.map((n) => `not run: ${n}`), ...[...brokenUser].map((l) => `${pc.red('✗')} ${l}: the lattice laws fail, so the theorem suites were not run on it.`)].join('\n');
      const doc = checkDocument(results, { seed, ...(opts.variant ? { variant: opts.variant } : {}), version: packageVersion(), timeMs: performance.now() - started, text: reporter === 'text' ? text : stripColour(text), notRun },
        (r) => stripColour(failureDetails(r, opts.variant).join('\n')), (r) => (r.counterexample ? [replayCommand(r, opts.variant)] : []), () => null);
      // Saved cases are replayed apart from the verdicts: a regression among them fails the check too.
      // Under --variant, a saved case the variant fails shows its property fails: the check fails too.
      const corpusFailures = opts.variant ? variantCorpusFailures(results) : [];
      result.exitCode = doc.exitCode === 0 && (regressions.length > 0 || corpusFailures.length > 0) ? 1 : doc.exitCode;
      process.stdout.write(render(doc, reporter));
      if (opts.html !== undefined) writeHtml(opts.html, doc);
      for (const w of scan.warnings) if (reporter !== 'text') process.stderr.write(`llmbda: warning: corpus: ${w}\n`);
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
  const cost = jobs.reduce((a, j) => a + jobShare(j), 0);
  return jobs.map((j) => ({ ...j, timeoutMs: Math.max(50, Math.floor((budgetMs * workers * jobShare(j)) / Math.max(1, cost))) }));
}

/** The command that reproduces a failed job's printed case exactly. */
export function replayCommand(r: JobResult, variant?: string): string {
  const c = r.counterexample!;
  return checkReplayCommand({ ...r.job, ...(variant ? { variant } : {}) }, c.seed, c.path);
}

/** The details of one verdict that did not hold: its counterexample or why it is vacuous. */
export function failureDetails(r: JobResult, variant?: string): string[] {
  const out = [pc.bold(`${r.job.suite} on ${r.job.lattice}: ${r.title}`)];
  // An LLMbda case prints the report `llmbda hunt` prints (src/llmbda/report.ts); other systems their own lines.
  if (r.counterexample && r.report !== undefined) out.push(r.report);
  else if (r.counterexample) {
    const c = r.counterexample;
    out.push(`counterexample after ${c.testsToFailure} tests, ${c.shrinks} shrinks:`, c.pretty, `why: ${c.reason}`, `replay: ${replayCommand(r, variant)}`);
  }
  if (r.vacuous.length) out.push(`vacuous (judged on a one-sided ${100 * (1 - NON_VACUITY_ALPHA)}% Wilson bound, see docs/ci.md): ${r.vacuous.join('; ')}`);
  if (r.error) out.push(`error: ${r.error}`);
  return out;
}

/** A result as JSON (the case value is not plain data). */
function jsonResult({ counterexample, ...r }: JobResult): unknown {
  return { ...r, ...(counterexample ? { counterexample: { ...counterexample, value: undefined } } : {}) };
}

/** Finished results in job order. */
function order(results: readonly JobResult[], jobs: readonly Job[]): JobResult[] {
  return [...results].sort((a, b) => jobs.indexOf(a.job) - jobs.indexOf(b.job));
}

/** The saved cases replayed, apart from the verdicts: one summary line, and every case not as its entry expects. */
export function renderCorpus(results: readonly JobResult[], variant?: string): string[] {
  const all = results.flatMap((r) => r.corpus ?? []);
  if (all.length === 0) return [];
  const off = all.filter((c) => c.outcome !== c.expected);
  // Under --variant, a saved case the variant fails is a counterexample to its property: named, smallest first.
  const shown = variant ? variantCorpusFailures(results).map((c) => pc.red(`${c.suite} on ${c.lattice}: a saved case shows it fails: ${c.file}${c.reason ? `: ${c.reason}` : ''}`)) : [];
  if (off.length === 0) return ['', pc.green(`saved cases: all ${all.length} replayed as recorded (not part of the verdicts above)`), ...shown];
  return ['', pc.red(`saved cases: ${off.length} of ${all.length} not as recorded (not part of the verdicts above):`),
    ...off.map((c) => `  ${c.file}: ${c.outcome} (expected ${c.expected})${c.reason ? `: ${c.reason}` : ''}`), ...shown];
}

/**
 * The saved cases a variant fails (each job's replay under `--variant`), the smallest entry of each
 * suite and lattice first: counterexamples to the variant's property found by trying the corpus, so
 * they fail the check even when the generated runs did not reach one.
 */
export function variantCorpusFailures(results: readonly JobResult[]): { suite: string; lattice: string; file: string; reason?: string }[] {
  return results.flatMap((r) => {
    const failing = (r.corpus ?? []).filter((c) => c.outcome === 'fails');
    const size = (f: string): number => { try { return loadEntry(f).size; } catch { return Infinity; } };
    return [...failing].sort((a, b) => size(a.file) - size(b.file) || a.file.localeCompare(b.file))
      .map((c) => ({ suite: r.job.suite, lattice: r.job.lattice, file: c.file, ...(c.reason !== undefined ? { reason: c.reason } : {}) }));
  });
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

/** The verdict table plus the details of every failure. */
export function renderVerdicts(results: readonly JobResult[], seed: number, variant?: string, interrupted?: { readonly signal: string; readonly total: number }): string {
  const status = (r: JobResult): string =>
    r.status === 'holds' ? pc.green('holds') : r.status === 'fails' ? pc.red('FAILS') : r.status === 'vacuous' ? pc.yellow('VACUOUS') : pc.red('ERROR');
  const rows = results.map((r) => [
    r.job.suite, r.job.lattice === '-' ? (r.job.suite.startsWith('ppmf') ? 'system ppmf' : '') : r.job.lattice, String(r.runs), `${(r.timeMs / 1000).toFixed(1)}s`, status(r), String(r.job.seed),
    showStats(r),
  ]);
  const out = [`${variant ? `variant ${variant}` : 'reference semantics'}, seed ${seed}`, renderTable(['suite', 'lattice', 'runs', 'time', 'result', 'seed', 'non-vacuity'], rows)];
  for (const r of results) if (r.status !== 'holds') out.push('', ...failureDetails(r, variant));
  out.push(...renderCorpus(results, variant));
  const bad = results.filter((r) => r.status !== 'holds').length;
  if (interrupted) {
    out.push('', pc.yellow(`INTERRUPTED (${interrupted.signal}): ${results.length} of ${interrupted.total} verdicts finished (shown above), ${bad} of them not holding; the others were not run to the end.`));
    return out.join('\n');
  }
  const savedFails = variant ? variantCorpusFailures(results).length : 0;
  const savedNote = savedFails > 0 ? pc.red(`; ${savedFails} saved case${savedFails === 1 ? '' : 's'} show${savedFails === 1 ? 's' : ''} the variant fails (named above)`) : '';
  out.push('', `${bad === 0 ? pc.green(`all ${results.length} verdicts hold`) : pc.red(`${bad} of ${results.length} verdicts do not hold`)}${savedNote}`);
  return out.join('\n');
}
