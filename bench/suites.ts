/**
 * `npm run bench:suites`: suite throughput and the worker pool, side by side in one run (issue 12).
 *
 * 1. Generated cases per second of property suites on powerset-us (TIPNI first), for the OLD commit
 *    (a temporary git worktree of `--base`, default fa18371: the last commit before evaluator v2, sharing
 *    this checkout's node_modules) and for THIS checkout. Each measurement is a fresh process
 *    (`bench/suites-run.ts`, run through tsx the same way for both) that runs the suite for each seed with
 *    that checkout's own `runSuite`; what is timed is the CPU time (user + system) of the runs in that
 *    process, module loading excluded. Old and new alternate, `--repeats` times; the table gives medians.
 * 2. The worker pool: `llmbda check` (the compiled package, built first) with `--workers 1` and with the
 *    default pool, same seed, alternating; wall-clock and the CPU of the whole process tree (GNU time).
 *
 * Flags: --repeats R (default 5), --runs N (cases per seed, default 1000), --seeds 1,2,3, --base COMMIT,
 * --check-runs N (the check's --runs, default 300), --check-repeats R (default 3), --no-check, --no-build,
 * --suites tipni,… , --no-doc.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machineInfo, machineMarkdown, mdTable, ROOT, updateDoc } from './lib/doc.ts';
import { median } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    runs: { type: 'string', default: '1000' },
    seeds: { type: 'string', default: '1,2,3' },
    base: { type: 'string', default: 'fa18371' },
    suites: { type: 'string', default: 'tipni,confinement,theorem3,stripping' },
    'check-runs': { type: 'string', default: '300' },
    'check-repeats': { type: 'string', default: '3' },
    'no-check': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-doc': { type: 'boolean', default: false },
  },
});
const REPEATS = Number(flags.repeats);
const RUNS = Number(flags.runs);
const SEEDS = flags.seeds.split(',').map(Number);
const SUITES = flags.suites.split(',');
const CHECK_RUNS = Number(flags['check-runs']);
const CHECK_REPEATS = Number(flags['check-repeats']);
const LATTICE = 'powerset-us';
if (![REPEATS, RUNS, CHECK_RUNS, CHECK_REPEATS, ...SEEDS].every((n) => Number.isInteger(n) && n > 0)) {
  process.stderr.write('usage: npm run bench:suites -- [--repeats R] [--runs N] [--seeds 1,2,3] [--base COMMIT] [--suites a,b] [--check-runs N] [--check-repeats R] [--no-check] [--no-build] [--no-doc]\n');
  process.exit(2);
}
const log = (s: string): void => { process.stderr.write(`${s}\n`); };

interface SeedRun { readonly seed: number; readonly cpuMs: number; readonly wallMs: number; readonly runs: number; readonly discarded: number; readonly status: string; readonly path?: string }

/** One measuring process: `suite` on the lattice for every seed, with the sources of the checkout at `root`. */
function measureSuite(root: string, suite: string): SeedRun[] {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/suites-run.ts'), root, suite, LATTICE, 'tuned', String(RUNS), ...SEEDS.map(String)], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, LLMBDA_SOURCE: '1' }, maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`measuring ${suite} in ${root} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as SeedRun[];
}

/** `llmbda check` through this checkout's bin (compiled dist/): wall seconds and CPU seconds of the whole process. */
function measureCheck(workers: number | undefined): { wall: number; cpu: number; ok: boolean } {
  const args = ['check', '--seed', '1', '--runs', String(CHECK_RUNS), '--no-corpus', '--json', ...(workers !== undefined ? ['--workers', String(workers)] : [])];
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, 'bin/llmbda.js', ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, LLMBDA_SOURCE: '' }, maxBuffer: 1 << 28,
  });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`could not read GNU time output: ${r.stderr.slice(-500)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), ok: r.status === 0 };
}

const fmt = (x: number, d = 0): string => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main(): Promise<void> {
  const machine = machineInfo(['fast-check', 'tsx', 'typescript']);
  const loads: number[] = [loadavg()[0] ?? NaN];
  const wt = mkdtempSync(join(tmpdir(), 'llmbda-suites-base-'));
  rmSync(wt, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', wt, flags.base], { cwd: ROOT, stdio: 'ignore' });
  const md: string[] = [];
  try {
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(wt, 'node_modules'));
    const baseRev = execFileSync('git', ['rev-parse', '--short', flags.base], { cwd: ROOT, encoding: 'utf8' }).trim();

    // 1. Suite throughput, old and new alternating.
    const rows: string[][] = [];
    const verdictRows: string[][] = [];
    const ratios: Record<string, number> = {};
    for (const suite of SUITES) {
      const old: SeedRun[][] = [], now: SeedRun[][] = [];
      for (let i = 0; i < REPEATS; i++) {
        old.push(measureSuite(wt, suite));
        now.push(measureSuite(ROOT, suite));
        loads.push(loadavg()[0] ?? NaN);
        const rate = (rs: SeedRun[]): number => (1000 * rs.reduce((a, r) => a + r.runs, 0)) / rs.reduce((a, r) => a + r.cpuMs, 0);
        log(`  ${suite} repeat ${i + 1}: old ${fmt(rate(old.at(-1)!))} cases/s, new ${fmt(rate(now.at(-1)!))} cases/s (load ${(loadavg()[0] ?? NaN).toFixed(1)})`);
      }
      const rate = (rs: SeedRun[]): number => (1000 * rs.reduce((a, r) => a + r.runs, 0)) / rs.reduce((a, r) => a + r.cpuMs, 0);
      const o = median(old.map(rate)), n = median(now.map(rate));
      ratios[suite] = n / o;
      const perCase = (rs: SeedRun[][]): string => `${fmt(median(rs.map((r) => (r.reduce((a, x) => a + x.cpuMs, 0) * 1000) / r.reduce((a, x) => a + x.runs, 0))))} µs`;
      rows.push([suite, fmt(o), fmt(n), `${(n / o).toFixed(2)}×`, perCase(old), perCase(now), `${fmt(Math.min(...old.map(rate)))}–${fmt(Math.max(...old.map(rate)))}`, `${fmt(Math.min(...now.map(rate)))}–${fmt(Math.max(...now.map(rate)))}`]);
      const v = (rs: SeedRun[]): string => rs.map((r) => `${r.status}${r.discarded ? ` (${r.discarded} discarded)` : ''}`).join(', ');
      verdictRows.push([suite, v(old[0]!), v(now[0]!)]);
      log(`${suite}: old ${fmt(o)} cases/s, new ${fmt(n)} cases/s: ${(n / o).toFixed(2)}×`);
    }
    const met = (ratios['tipni'] ?? 0) >= 3;
    md.push(`#### Suite throughput on ${LATTICE}: commit ${baseRev} (before evaluator v2) against this checkout`,
      '',
      mdTable(['suite', `cases/s at ${baseRev}`, 'cases/s now', 'ratio', `CPU per case at ${baseRev}`, 'CPU per case now', `range at ${baseRev}`, 'range now'], rows),
      '',
      `- Each cell: median over ${REPEATS} fresh processes per side, run alternately; a process runs the suite for seeds ${SEEDS.join(', ')} (${fmt(RUNS)} cases each, tuned profile, reference semantics) through that checkout's own \`runSuite\`, under tsx; the time is the CPU (user + system) of those runs in that process, module loading excluded (JIT warm-up included).`,
      '- The two commits generate different cases from the same seeds (the generator was extended in between), so only the rates compare; the verdicts of the first repeat, per seed:',
      '',
      mdTable(['suite', `verdicts at ${baseRev}`, 'verdicts now'], verdictRows),
      '',
      `- Target (issue 12): TIPNI on ${LATTICE} ≥ 3× the cases/s of ${baseRev} in the same run: **${met ? 'met' : 'not met'}** (${(ratios['tipni'] ?? NaN).toFixed(2)}×).`);

    // 2. The worker pool.
    if (!flags['no-check']) {
      if (!flags['no-build']) execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
      if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) throw new Error('no build: run npm run build');
      const one: { wall: number; cpu: number; ok: boolean }[] = [], pool: { wall: number; cpu: number; ok: boolean }[] = [];
      const checkLoads: number[] = [];
      for (let i = 0; i < CHECK_REPEATS; i++) {
        checkLoads.push(loadavg()[0] ?? NaN);
        one.push(measureCheck(1));
        pool.push(measureCheck(undefined));
        log(`  check repeat ${i + 1}: --workers 1 ${one.at(-1)!.wall.toFixed(1)} s wall (${one.at(-1)!.cpu.toFixed(1)} s CPU), default ${pool.at(-1)!.wall.toFixed(1)} s wall (${pool.at(-1)!.cpu.toFixed(1)} s CPU) (load ${(loadavg()[0] ?? NaN).toFixed(1)})`);
      }
      loads.push(...checkLoads);
      const w1 = median(one.map((x) => x.wall)), wp = median(pool.map((x) => x.wall));
      const c1 = median(one.map((x) => x.cpu)), cp = median(pool.map((x) => x.cpu));
      const gain = w1 / wp;
      md.push('',
        `#### The worker pool: \`llmbda check --seed 1 --runs ${CHECK_RUNS}\` (compiled package)`,
        '',
        mdTable(['workers', 'wall (median)', 'CPU user+sys (median)', 'all verdicts hold'], [
          ['1 (`--workers 1`)', `${w1.toFixed(1)} s`, `${c1.toFixed(1)} s`, one.every((x) => x.ok) ? 'yes' : 'no'],
          ['default (one per core)', `${wp.toFixed(1)} s`, `${cp.toFixed(1)} s`, pool.every((x) => x.ok) ? 'yes' : 'no'],
        ]),
        '',
        `- ${CHECK_REPEATS} alternating runs each; GNU time of the whole process (its worker threads included). 1-minute load average before each pair: ${checkLoads.map((l) => l.toFixed(1)).join(', ')} (the machine is shared: with other processes on both cores, no pool can gain).`,
        `- Wall-clock gain of the pool: ${gain.toFixed(2)}×; CPU of the pool against one worker: ${(cp / c1).toFixed(2)}×. Target (issue 12): ≥ 1.6× on 2 cores: **${gain >= 1.6 ? 'met' : 'not met'}** in this run.`);
    }
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: ROOT, stdio: 'ignore' });
  }
  const command = `npm run bench:suites${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const body = [
    '### Suite throughput and the worker pool (`npm run bench:suites`)',
    '',
    machineMarkdown(machine, command, [`1-minute load average during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`]),
    '',
    ...md,
  ].join('\n');
  process.stdout.write(`${body}\n`);
  if (!flags['no-doc']) updateDoc('bench:suites', body);
}

await main();
