/**
 * `llmbda check`: run every property suite against the reference semantics (or `--variant`) on every
 * shipped lattice (or `--lattice`), one verdict row per (suite, lattice). Exit 0 only if all hold.
 * `--lattice ./my.ts` first checks the lattice laws on a user lattice.
 */
import { defaultSeed } from '../runner/seed.ts';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import pc from 'picocolors';
import { SHIPPED_LATTICES, resolveLattice } from '../lattice/registry.ts';
import { PPMF_SUITES, PPMF_BRIDGE_SUITES, LLMBDA_SUITES, checkSuiteNames } from '../api/registry.ts';
import { runPool } from '../runner/pool.ts';
import { CHECK_JOBS, jobCost, jobError, type Job, type JobResult } from '../api/jobs.ts';
import { availableParallelism } from 'node:os';
import { withInterrupts } from './interrupt.ts';
import { CORPUS_DIR, scanCorpus, slug } from '../llmbda/corpus.ts';
import { latticeByName } from '../lattice/registry.ts';
import { UserError } from '../util/absurd.ts';
import { DEFAULT_CASE_TIMEOUT_MS, duration, positiveInt, seed32 } from './common.ts';
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
  workers?: number;
  progress: boolean;
  caseTimeout: number;
  maxSteps?: number;
  corpus: string | false;
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

export function registerCheck(program: Command, result: CommandResult): void {
  program
    .command('check')
    .description('run the property suites (theorems, lemmas, lattice laws) and print a verdict table')
    .option('--runs <n>', 'generated cases per (suite, lattice)', positiveInt('--runs'), 2000)
    .option('--seed <s>', 'seed (default: random; printed for replay)', seed32("--seed"))
    .option('--suite <name>', `only this suite (repeatable): ${checkSuiteNames().join(', ')}`, collect)
    .option('--lattice <name|file.ts>', 'only this lattice (repeatable): a shipped name or a user lattice file', collect)
    .option('--variant <name|file.ts>', 'check a variant semantics instead of the reference')
    .option('--workers <n>', `worker threads (default and most: one per core, here ${availableParallelism()})`, positiveInt('--workers'))
    .option('--no-progress', 'no progress bar')
    .option('--case-timeout <duration>', 'wall-clock limit per case: a stuck case ends its verdict as an error naming where it was stuck', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--max-steps <n>', 'evaluation steps per run before a case is discarded as too expensive', positiveInt('--max-steps'))
    .option('--corpus <dir>', 'saved cases replayed after the generated runs and reported apart (never part of a verdict)', CORPUS_DIR)
    .option('--no-corpus', 'replay no saved cases')
    .option('--json', 'machine-readable output')
    .option('--target <file|stdio:cmd>', 'check an implementation under test instead (docs/targets.md); with --mask, --replay FILE')
    .option('--mask <constructs>', 'with --target: constructs it cannot express, e.g. endorse,prim:toStr')
    .option('--replay <file.json>', 'with --target: judge a saved target counterexample')
    .action(async (opts: CheckOpts & { target?: string; mask?: string; replay?: string }) => {
      if (opts.target) return runTargetCheck({ ...opts, target: opts.target }, result);
      const seed = opts.seed ?? defaultSeed();
      const lattices = opts.lattice ?? [...SHIPPED_LATTICES];
      const userLattices = lattices.filter((l) => /\.(ts|js|mts|mjs)$/.test(l));
      // Validate lattices up front, in this thread, so a bad file fails with one clear message.
      for (const l of lattices) await resolveLattice(l);
      const known = new Set(checkSuiteNames());
      for (const s of opts.suite ?? []) if (!known.has(s)) throw new UserError(`unknown suite ${JSON.stringify(s)}; suites are ${[...known].join(', ')}`);
      const wanted = (s: string): boolean => !opts.suite || opts.suite.includes(s);
      const jobs: Job[] = [];
      const base = { runs: opts.runs, seed, ...(opts.variant ? { variant: opts.variant } : {}), ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}) };
      if (opts.workers !== undefined && opts.workers > availableParallelism() && !opts.json) {
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
      for (const s of LLMBDA_SUITES) {
        if (!wanted(s.name)) continue;
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
      const tty = process.stderr.isTTY && opts.progress && !opts.json;
      const bar = tty ? new cliProgress.SingleBar({ format: 'checking [{bar}] {value}/{total} {last}', hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
      // Lattice laws gate the theorem suites on a user lattice: a broken join makes every other verdict meaningless.
      const lawJobs = jobs.filter((j) => j.suite === 'lattice-laws' && userLattices.includes(j.lattice));
      const rest = jobs.filter((j) => !lawJobs.includes(j));
      const finished: JobResult[] = [];
      const tick = (r: JobResult, _d: number): void => { finished.push(r); bar?.increment(1, { last: `${r.job.suite} on ${r.job.lattice}: ${r.status}` }); };
      // Every job runs in a worker thread: this thread stays free for signals, and a stuck case is stopped.
      const pool = { threads: true, caseTimeoutMs: opts.caseTimeout, timedOut: jobError } as const;
      const { results, brokenUser } = await withInterrupts((signal) => {
        bar?.stop();
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ seed, runs: opts.runs, ok: false, interrupted: signal, unfinished: jobs.length - finished.length, results: finished.map(jsonResult) }, null, 2)}\n`);
        } else {
          process.stdout.write(`${renderVerdicts(order(finished, jobs), seed, opts.variant, { signal, total: jobs.length })}\n`);
        }
      }, async () => {
        bar?.start(jobs.length, 0, { last: '' });
        const lawResults = await runPool(lawJobs, CHECK_JOBS, { ...pool, workers: 1, onDone: tick });
        const brokenUser = new Set(lawResults.filter((r) => r.status !== 'holds').map((r) => r.job.lattice));
        const runnable = rest.filter((j) => !brokenUser.has(j.lattice));
        const results = [...lawResults, ...(await runPool(runnable, CHECK_JOBS, { ...pool, ...(opts.workers ? { workers: opts.workers } : {}), cost: jobCost, onDone: tick }))];
        bar?.stop();
        return { results, brokenUser };
      });
      const regressions = results.flatMap((r) => (r.corpus ?? []).filter((c) => c.outcome !== c.expected));
      const allOk = results.every((r) => r.status === 'holds') && brokenUser.size === 0 && regressions.length === 0;
      result.exitCode = allOk ? 0 : 1;
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ seed, runs: opts.runs, ok: allOk, results: results.map(jsonResult), corpusWarnings: scan.warnings }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${renderVerdicts(results, seed, opts.variant)}\n`);
      for (const l of brokenUser) process.stdout.write(`${pc.red('✗')} ${l}: the lattice laws fail, so the theorem suites were not run on it.\n`);
    });
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
export function renderCorpus(results: readonly JobResult[]): string[] {
  const all = results.flatMap((r) => r.corpus ?? []);
  if (all.length === 0) return [];
  const off = all.filter((c) => c.outcome !== c.expected);
  if (off.length === 0) return ['', pc.green(`saved cases: all ${all.length} replayed as recorded (not part of the verdicts above)`)];
  return ['', pc.red(`saved cases: ${off.length} of ${all.length} not as recorded (not part of the verdicts above):`),
    ...off.map((c) => `  ${c.file}: ${c.outcome} (expected ${c.expected})${c.reason ? `: ${c.reason}` : ''}`)];
}

/**
 * Non-vacuity numbers for the table: all of them when few; else, for a vacuous verdict, the counters
 * below their thresholds (the failing ones), otherwise the smallest.
 */
function showStats(stats: Readonly<Record<string, number>>, vacuous: readonly string[] = []): string {
  const es = Object.entries(stats);
  const pct = (v: number): string => `${(v * 100).toFixed(0)}%`;
  if (es.length <= 3) return es.map(([k, v]) => `${k} ${pct(v)}`).join(', ');
  const failing = es.filter(([k]) => vacuous.some((v) => v.startsWith(`${k}: `)));
  if (failing.length > 0) return `${es.length} counters, below threshold: ${failing.map(([k, v]) => `${k} ${pct(v)}`).join(', ')}`;
  const [k, v] = es.reduce((a, b) => (b[1] < a[1] ? b : a));
  return `${es.length} counters, lowest ${k} ${pct(v)}`;
}

/** The verdict table plus the details of every failure. */
export function renderVerdicts(results: readonly JobResult[], seed: number, variant?: string, interrupted?: { readonly signal: string; readonly total: number }): string {
  const status = (r: JobResult): string =>
    r.status === 'holds' ? pc.green('holds') : r.status === 'fails' ? pc.red('FAILS') : r.status === 'vacuous' ? pc.yellow('VACUOUS') : pc.red('ERROR');
  const rows = results.map((r) => [
    r.job.suite, r.job.lattice === '-' ? (r.job.suite.startsWith('ppmf') ? 'system ppmf' : '') : r.job.lattice, String(r.runs), `${(r.timeMs / 1000).toFixed(1)}s`, status(r), String(r.job.seed),
    showStats(r.stats, r.vacuous),
  ]);
  const out = [`${variant ? `variant ${variant}` : 'reference semantics'}, seed ${seed}`, renderTable(['suite', 'lattice', 'runs', 'time', 'result', 'seed', 'non-vacuity'], rows)];
  for (const r of results) {
    if (r.status === 'holds') continue;
    out.push('', pc.bold(`${r.job.suite} on ${r.job.lattice}: ${r.title}`));
    if (r.counterexample) {
      const c = r.counterexample;
      out.push(`counterexample after ${c.testsToFailure} tests, ${c.shrinks} shrinks:`, c.pretty, `why: ${c.reason}`,
        `replay: npx llmbda check --suite ${r.job.suite} --lattice '${r.job.lattice}' --seed ${c.seed} --runs ${r.job.runs}${variant ? ` --variant ${variant}` : ''}  (path ${c.path})`);
    }
    if (r.vacuous.length) out.push(`vacuous: ${r.vacuous.join('; ')}`);
    if (r.error) out.push(`error: ${r.error}`);
  }
  out.push(...renderCorpus(results));
  const bad = results.filter((r) => r.status !== 'holds').length;
  if (interrupted) {
    out.push('', pc.yellow(`INTERRUPTED (${interrupted.signal}): ${results.length} of ${interrupted.total} verdicts finished (shown above), ${bad} of them not holding; the others were not run to the end.`));
    return out.join('\n');
  }
  out.push('', bad === 0 ? pc.green(`all ${results.length} verdicts hold`) : pc.red(`${bad} of ${results.length} verdicts do not hold`));
  return out.join('\n');
}
