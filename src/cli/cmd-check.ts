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
import { CHECK_JOBS, jobCost, type Job, type JobResult } from '../api/jobs.ts';
import { resolveVariant } from '../variants/catalogue.ts';
import { suiteRefusal } from '../llmbda/variant-ctx.ts';
import { UserError } from '../util/absurd.ts';
import { integer, positiveInt } from './common.ts';
import { renderTable } from './table.ts';
import type { CommandResult } from './main.ts';

interface CheckOpts {
  runs: number;
  seed?: number;
  suite?: string[];
  lattice?: string[];
  variant?: string;
  json?: boolean;
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
    .option('--workers <n>', 'worker threads (default: one per core)', positiveInt('--workers'))
    .option('--no-progress', 'no progress bar')
    .option('--json', 'machine-readable output')
    .action(async (opts: CheckOpts) => {
      const seed = opts.seed ?? defaultSeed();
      const lattices = opts.lattice ?? [...SHIPPED_LATTICES];
      const userLattices = lattices.filter((l) => /\.(ts|js|mts|mjs)$/.test(l));
      // Validate lattices up front, in this thread, so a bad file fails with one clear message.
      for (const l of lattices) await resolveLattice(l);
      const known = new Set(checkSuiteNames());
      for (const s of opts.suite ?? []) if (!known.has(s)) throw new UserError(`unknown suite ${JSON.stringify(s)}; suites are ${[...known].join(', ')}`);
      const wanted = (s: string): boolean => !opts.suite || opts.suite.includes(s);
      const jobs: Job[] = [];
      const base = { runs: opts.runs, seed, ...(opts.variant ? { variant: opts.variant } : {}) };
      for (const l of lattices) if (wanted('lattice-laws') && (!opts.variant || opts.suite)) jobs.push({ ...base, suite: 'lattice-laws', lattice: l });
      if (wanted('distributions') && userLattices.length === 0 && !opts.variant) jobs.push({ ...base, suite: 'distributions', lattice: '-' });
      // A suite that cannot judge the variant (it needs a ⇓♯ or a peval the variant lacks) is refused when
      // named, and left out, with a note, otherwise: never a verdict against another semantics' side.
      const variant = opts.variant ? await resolveVariant(opts.variant) : undefined;
      const notRun: string[] = [];
      for (const s of LLMBDA_SUITES) {
        if (!wanted(s.name)) continue;
        const refused = variant ? suiteRefusal(s, variant) : undefined;
        if (refused && opts.suite) throw new UserError(refused);
        if (refused) { notRun.push(refused); continue; }
        for (const l of lattices) jobs.push({ ...base, suite: s.name, lattice: l });
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
      bar?.start(jobs.length, 0, { last: '' });
      // Lattice laws gate the theorem suites on a user lattice: a broken join makes every other verdict meaningless.
      const lawJobs = jobs.filter((j) => j.suite === 'lattice-laws' && userLattices.includes(j.lattice));
      const rest = jobs.filter((j) => !lawJobs.includes(j));
      const tick = (r: JobResult, _d: number): void => { bar?.increment(1, { last: `${r.job.suite} on ${r.job.lattice}: ${r.status}` }); };
      const lawResults = await runPool(lawJobs, CHECK_JOBS, { workers: 1, onDone: tick });
      const brokenUser = new Set(lawResults.filter((r) => r.status !== 'holds').map((r) => r.job.lattice));
      const runnable = rest.filter((j) => !brokenUser.has(j.lattice));
      const results = [...lawResults, ...(await runPool(runnable, CHECK_JOBS, { ...(opts.workers ? { workers: opts.workers } : {}), cost: jobCost, onDone: tick }))];
      bar?.stop();
      const allOk = results.every((r) => r.status === 'holds') && brokenUser.size === 0;
      result.exitCode = allOk ? 0 : 1;
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ seed, runs: opts.runs, ok: allOk, notRun, results: results.map(({ counterexample, ...r }) => ({ ...r, ...(counterexample ? { counterexample: { ...counterexample, value: undefined } } : {}) })) }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${renderVerdicts(results, seed, opts.variant)}\n`);
      for (const n of notRun) process.stdout.write(`not run: ${n}\n`);
      for (const l of brokenUser) process.stdout.write(`${pc.red('✗')} ${l}: the lattice laws fail, so the theorem suites were not run on it.\n`);
    });
}

/** Non-vacuity numbers for the table: all of them when few, else the smallest (the binding one). */
function showStats(stats: Readonly<Record<string, number>>): string {
  const es = Object.entries(stats);
  const pct = (v: number): string => `${(v * 100).toFixed(0)}%`;
  if (es.length <= 3) return es.map(([k, v]) => `${k} ${pct(v)}`).join(', ');
  const [k, v] = es.reduce((a, b) => (b[1] < a[1] ? b : a));
  return `${es.length} counters, lowest ${k} ${pct(v)}`;
}

/** The verdict table plus the details of every failure. */
export function renderVerdicts(results: readonly JobResult[], seed: number, variant?: string): string {
  const status = (r: JobResult): string =>
    r.status === 'holds' ? pc.green('holds') : r.status === 'fails' ? pc.red('FAILS') : r.status === 'vacuous' ? pc.yellow('VACUOUS') : pc.red('ERROR');
  const rows = results.map((r) => [
    r.job.suite, r.job.lattice === '-' ? (r.job.suite.startsWith('ppmf') ? 'system ppmf' : '') : r.job.lattice, String(r.runs), `${(r.timeMs / 1000).toFixed(1)}s`, status(r), String(r.job.seed),
    showStats(r.stats),
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
  const bad = results.filter((r) => r.status !== 'holds').length;
  out.push('', bad === 0 ? pc.green(`all ${results.length} verdicts hold`) : pc.red(`${bad} of ${results.length} verdicts do not hold`));
  return out.join('\n');
}
