/**
 * `npm run bench:suites`: suite throughput and the worker pool, side by side in one run (issue 12).
 *
 * 1. Generated cases per second of property suites on powerset-us (TIPNI first), for the OLD commit
 *    (a temporary git worktree of `--base`, default fa18371: the last commit before evaluator v2, sharing
 *    this checkout's node_modules) and for THIS checkout. Each measurement is a fresh process
 *    (`bench/suites-run.mjs`, under plain `node` the same way for both) that runs the suite for each seed with
 *    that checkout's own compiled `runSuite` (each checkout built by its own `npm run build`); what is timed is
 *    the CPU time (user + system) of the runs in that process, module loading excluded. Old and new alternate, `--repeats` times; the table gives medians.
 * 2. The worker pool: `llmbda check` (the compiled package, built first) with `--workers 1`, with one worker
 *    per core, and with `--workers 1 --no-shared` (what the suites' shared evaluations give), same seed, alternating;
 *    wall-clock and the CPU of the whole process tree (GNU time).
 *
 * Each process runs the seeds twice: the first pass (cold: JIT warm-up included) is the headline rate, the
 * second (warm: the same cases again) shows the steady state. `--mid COMMIT` adds a third checkout (e.g. the
 * commit a change started from) measured the same way.
 *
 * Flags: --repeats R (default 5), --runs N (cases per seed, default 1000), --seeds 1,2,3, --base COMMIT, --mid COMMIT,
 * --check-runs N (the check's --runs, default 300), --check-repeats R (default 3), --no-check, --no-build,
 * --suites tipni,… , --no-doc, --source (the checkouts' sources through tsx instead of their compiled packages:
 * bench/lib/measured.ts). --no-build uses this checkout's dist/ as it is (the worktrees are always built).
 */
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { measureCheck, measureSuite as measureSuiteIn, rate, worktree, type CheckRun, type SeedRun } from './lib/checkouts.ts';
import { machineInfo, machineMarkdown, mdTable, ROOT, updateDoc } from './lib/doc.ts';
import { prepareLoading } from './lib/measured.ts';
import { median } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    repeats: { type: 'string', default: '5' },
    runs: { type: 'string', default: '1000' },
    seeds: { type: 'string', default: '1,2,3' },
    base: { type: 'string', default: 'fa18371' },
    mid: { type: 'string' },
    suites: { type: 'string', default: 'tipni,confinement,theorem3,stripping' },
    'check-runs': { type: 'string', default: '300' },
    'check-repeats': { type: 'string', default: '3' },
    'no-check': { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    'no-doc': { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
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
  process.stderr.write('usage: npm run bench:suites -- [--repeats R] [--runs N] [--seeds 1,2,3] [--base COMMIT] [--suites a,b] [--check-runs N] [--check-repeats R] [--no-check] [--no-build] [--no-doc] [--source]\n');
  process.exit(2);
}
const LOADING = prepareLoading(flags.source, 'bench:suites', !flags['no-build']);
const log = (s: string): void => { process.stderr.write(`${s}\n`); };

/** One measuring process of `suite` on the lattice, with the checkout at `root` (compiled, or its sources). */
const measureSuite = (root: string, suite: string): { cold: SeedRun[]; warm: SeedRun[] } => measureSuiteIn(root, { suite, lattice: LATTICE, runs: RUNS, seeds: SEEDS, loading: LOADING });

/** `llmbda check` of this checkout (compiled dist/), one worker or a pool, with or without shared evaluations. */
const checkRun = (workers: number, shared = true): CheckRun =>
  measureCheck(['--seed', '1', '--runs', String(CHECK_RUNS), '--no-corpus', '--json', '--workers', String(workers), ...(shared ? [] : ['--no-shared'])]);

const fmt = (x: number, d = 0): string => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

async function main(): Promise<void> {
  const machine = machineInfo(['fast-check', 'tsx', 'typescript']);
  const loads: number[] = [loadavg()[0] ?? NaN];
  const trees = [worktree(flags.base, LOADING), ...(flags.mid ? [worktree(flags.mid, LOADING)] : [])];
  const md: string[] = [];
  try {
    const sides = [...trees.map((t) => ({ name: t.rev, dir: t.dir })), { name: 'now', dir: ROOT }];
    const baseRev = trees[0]!.rev;

    // 1. Suite throughput, the checkouts alternating.
    const rows: string[][] = [];
    const verdictRows: string[][] = [];
    const ratios: Record<string, number> = {};
    for (const suite of SUITES) {
      const runs = sides.map(() => [] as { cold: SeedRun[]; warm: SeedRun[] }[]);
      for (let i = 0; i < REPEATS; i++) {
        sides.forEach((side, k) => runs[k]!.push(measureSuite(side.dir, suite)));
        loads.push(loadavg()[0] ?? NaN);
        log(`  ${suite} repeat ${i + 1}: ${sides.map((side, k) => `${side.name} ${fmt(rate(runs[k]!.at(-1)!.cold))} cases/s (warm ${fmt(rate(runs[k]!.at(-1)!.warm))})`).join(', ')} (load ${(loadavg()[0] ?? NaN).toFixed(1)})`);
      }
      const cold = runs.map((rs) => median(rs.map((r) => rate(r.cold))));
      const warm = runs.map((rs) => median(rs.map((r) => rate(r.warm))));
      const o = cold[0]!, n = cold.at(-1)!;
      ratios[suite] = n / o;
      rows.push([suite, ...cold.map((x) => fmt(x)), `**${(n / o).toFixed(2)}×**`, ...warm.map((x) => fmt(x)), `${(warm.at(-1)! / warm[0]!).toFixed(2)}×`]);
      const v = (rs: readonly SeedRun[]): string => rs.map((r) => `${r.status}${r.discarded ? ` (${r.discarded} discarded)` : ''}`).join(', ');
      verdictRows.push([suite, ...runs.map((rs) => v(rs[0]!.cold))]);
      log(`${suite}: ${sides.map((side, k) => `${side.name} ${fmt(cold[k]!)}`).join(', ')} cases/s: ${(n / o).toFixed(2)}×`);
    }
    const met = (ratios['tipni'] ?? 0) >= 3;
    md.push(`#### Suite throughput on ${LATTICE}: ${sides.map((x) => x.name === 'now' ? 'this checkout' : `commit ${x.name}`).join(' against ')}`,
      '',
      mdTable(['suite', ...sides.map((x) => `cases/s ${x.name}`), `ratio now / ${baseRev}`, ...sides.map((x) => `warm cases/s ${x.name}`), `warm ratio`], rows),
      '',
      `- Cases per CPU second, median over ${REPEATS} fresh processes per checkout, run alternately. A process runs the suite for seeds ${SEEDS.join(', ')} (${fmt(RUNS)} cases each, tuned profile, reference semantics) through that checkout's own \`runSuite\` (${LOADING === 'compiled' ? 'its compiled package, built by its own \`npm run build\`, under plain \`node\`' : 'its sources, under tsx'}), then the same seeds again; the time is the CPU (user + system, all threads of the process) of those runs, module loading excluded. The first pass (JIT warm-up included) is the headline; the second ("warm") runs the same cases again.`,
      `- Commit ${baseRev} is the last before evaluator v2${flags.mid ? `; ${trees[1]!.rev} is where this measurement's changes started` : ''}. The commits generate different cases from the same seeds (the generator was extended in between), so only the rates compare. Verdicts of the first repeat, per seed:`,
      '',
      mdTable(['suite', ...sides.map((x) => `verdicts ${x.name}`)], verdictRows),
      '',
      `- Target (issue 12): TIPNI on ${LATTICE} ≥ 3× the cases/s of ${baseRev} in the same run: **${met ? 'met' : 'not met'}** (${(ratios['tipni'] ?? NaN).toFixed(2)}×).`);

    // 2. The worker pool.
    if (!flags['no-check']) {
      // The check always runs the compiled package; under --source nothing has built it yet.
      if (LOADING === 'source') prepareLoading(false, 'bench:suites (the check)', !flags['no-build']);
      const one: CheckRun[] = [], pool: CheckRun[] = [];
      const alone: CheckRun[] = [], poolAlone: CheckRun[] = [];
      const checkLoads: number[] = [];
      for (let i = 0; i < CHECK_REPEATS; i++) {
        checkLoads.push(loadavg()[0] ?? NaN);
        one.push(checkRun(1));
        pool.push(checkRun(availableParallelism()));
        alone.push(checkRun(1, false));
        poolAlone.push(checkRun(availableParallelism(), false));
        log(`  check repeat ${i + 1}: --workers 1 ${one.at(-1)!.wall.toFixed(1)} s wall (${one.at(-1)!.cpu.toFixed(1)} s CPU), --workers ${availableParallelism()} ${pool.at(-1)!.wall.toFixed(1)} s wall (${pool.at(-1)!.cpu.toFixed(1)} s CPU), --workers 1 --no-shared ${alone.at(-1)!.wall.toFixed(1)} s wall (${alone.at(-1)!.cpu.toFixed(1)} s CPU), --workers ${availableParallelism()} --no-shared ${poolAlone.at(-1)!.wall.toFixed(1)} s wall (${poolAlone.at(-1)!.cpu.toFixed(1)} s CPU) (load ${(loadavg()[0] ?? NaN).toFixed(1)})`);
      }
      loads.push(...checkLoads);
      const w1 = median(one.map((x) => x.wall)), wp = median(pool.map((x) => x.wall)), wa = median(alone.map((x) => x.wall));
      const c1 = median(one.map((x) => x.cpu)), cp = median(pool.map((x) => x.cpu)), ca = median(alone.map((x) => x.cpu));
      const wpa = median(poolAlone.map((x) => x.wall)), cpa = median(poolAlone.map((x) => x.cpu));
      const gain = w1 / wp;
      md.push('',
        `#### The worker pool: \`llmbda check --seed 1 --runs ${CHECK_RUNS}\` (compiled package)`,
        '',
        mdTable(['workers', 'wall (median)', 'CPU user+sys (median)', 'all verdicts hold'], [
          ['1 (`--workers 1`)', `${w1.toFixed(1)} s`, `${c1.toFixed(1)} s`, one.every((x) => x.ok) ? 'yes' : 'no'],
          [`one per core (\`--workers ${availableParallelism()}\`)`, `${wp.toFixed(1)} s`, `${cp.toFixed(1)} s`, pool.every((x) => x.ok) ? 'yes' : 'no'],
          ['1, without shared evaluations (`--workers 1 --no-shared`)', `${wa.toFixed(1)} s`, `${ca.toFixed(1)} s`, alone.every((x) => x.ok) ? 'yes' : 'no'],
          [`one per core, without shared evaluations (\`--workers ${availableParallelism()} --no-shared\`)`, `${wpa.toFixed(1)} s`, `${cpa.toFixed(1)} s`, poolAlone.every((x) => x.ok) ? 'yes' : 'no'],
        ]),
        '',
        `- ${CHECK_REPEATS} alternating runs each; GNU time of the whole process (its worker threads included). 1-minute load average before each pair: ${checkLoads.map((l) => l.toFixed(1)).join(', ')} (the machine is shared: Linux divides CPU between sessions, not threads, so while other sessions keep both cores busy a second worker cannot shorten the run; \`check\` then defaults to one worker).`,
        `- Wall-clock gain of the pool: ${gain.toFixed(2)}×; CPU of the pool against one worker: ${(cp / c1).toFixed(2)}×. Target (issue 12): ≥ 1.6× on 2 cores: **${gain >= 1.6 ? 'met' : 'not met'}** in this run.`,
        `- What the shared evaluations give (docs/design.md, "Shared evaluations"; \`--no-shared\` against the default): one worker ${(wa / w1).toFixed(2)}× wall, ${(ca / c1).toFixed(2)}× CPU; one per core ${(wpa / wp).toFixed(2)}× wall, ${(cpa / cp).toFixed(2)}× CPU (the pool keeps a group's jobs on one worker, \`PoolOptions.groupOf\`).`);
    }
  } finally {
    for (const t of trees) t.drop();
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
