/**
 * `npm run bench:jit`: how much of the remaining cold-start gap of issue 12 is V8's optimising compiler
 * (TurboFan), measured by running the same measurements under V8 flags that change only the compiler's
 * work, side by side in one run:
 *
 * - `default`: no flags (what every other benchmark and every user gets);
 * - `inline-100`: `--max-inlined-bytecode-size-cumulative=100` (V8's default is 920): TurboFan still
 *   optimises hot functions but inlines far less into each, so each compile job is smaller;
 * - `no-opt`: `--no-opt`: no TurboFan at all (Ignition and Sparkplug only): no compile cost, and no
 *   optimised code either;
 * - `late-opt`: `--interrupt-budget=1000000` (V8's default is 67,584): a function must run about fifteen times
 *   longer before TurboFan compiles it, so short runs compile only their hottest functions.
 *
 * 1. Evaluations (`bench/eval-v2-one.mjs`, the bench:eval-v2 protocol: a fresh process, the program loaded
 *    untimed, up to 3 evaluations, one when it takes ≥ 1 s CPU, the cell the median CPU of the process):
 *    the first sizes past one second of WebPPL's plain enumeration ((a) N = 20, (b) N = 11), (a) N = 32 (a
 *    small size against `dp.cache`), and the counter at N = 10⁶ (a long run, where optimised code pays).
 * 2. TIPNI on powerset-us (`bench/suites-run.mjs`, the bench:suites protocol: seeds 1–3, 1,000 cases each,
 *    first pass and warm pass) at commit `--base` (default fa18371, a temporary worktree) and in this
 *    checkout, each under each flag set.
 * 3. The default check (`llmbda check --seed 1 --workers 1 --no-corpus`, this checkout's compiled package, GNU
 *    time of the whole process) under each flag set: whether a flag that helps the first 3,000 cases of one
 *    suite also helps what users run.
 *
 * Every measurement is a fresh process; flag sets (and checkouts) alternate within each repeat; cells are
 * medians over `--repeats`. CPU is user + system of all the process's threads, so it includes the
 * compiler's background threads: that is the cost these flags change. The flags are a diagnosis, not a
 * setting: nothing in the package sets them (docs/benchmarks.md, "Where the cold time goes").
 *
 * Flags: --repeats R (default 3), --check-repeats R (default 2), --base COMMIT, --no-eval, --no-suites, --no-check,
 * --no-doc, --source (the sources through tsx instead of the compiled package, for the evaluations and the suites:
 * bench/lib/measured.ts; the check always runs the compiled package).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { measureCheck, measureSuite, rate, worktree, type CheckRun } from './lib/checkouts.ts';
import { machineInfo, machineMarkdown, mdTable, ROOT, updateDoc } from './lib/doc.ts';
import { measureEvalSync, prepareLoading, type EvalRun } from './lib/measured.ts';
import { median, showMs } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    repeats: { type: 'string', default: '3' },
    'check-repeats': { type: 'string', default: '2' },
    base: { type: 'string', default: 'fa18371' },
    'no-eval': { type: 'boolean', default: false },
    'no-suites': { type: 'boolean', default: false },
    'no-check': { type: 'boolean', default: false },
    'no-doc': { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
  },
});
const LOADING = prepareLoading(flags.source, 'bench:jit');
const REPEATS = Number(flags.repeats);
const CHECK_REPEATS = Number(flags['check-repeats']);
if (!Number.isInteger(REPEATS) || REPEATS < 1 || !Number.isInteger(CHECK_REPEATS) || CHECK_REPEATS < 1) {
  process.stderr.write('usage: npm run bench:jit -- [--repeats R] [--check-repeats R] [--base COMMIT] [--no-eval] [--no-suites] [--no-check] [--no-doc] [--source]\n');
  process.exit(2);
}
const log = (s: string): void => { process.stderr.write(`${s}\n`); };
const load = (): number => loadavg()[0] ?? NaN;

/** The flag sets compared, in the order they run within a repeat. */
const FLAG_SETS: readonly { readonly name: string; readonly flags: readonly string[] }[] = [
  { name: 'default', flags: [] },
  { name: 'inline-100', flags: ['--max-inlined-bytecode-size-cumulative=100'] },
  { name: 'no-opt', flags: ['--no-opt'] },
  { name: 'late-opt', flags: ['--interrupt-budget=1000000'] },
];

/** The evaluations: where cold cost decides a target, and one long run. */
const EVALS: readonly { readonly shape: string; readonly n: number; readonly label: string }[] = [
  { shape: 'coins', n: 20, label: '(a) sum of flips, N = 20 (first size past 1 s of WebPPL)' },
  { shape: 'chain', n: 11, label: '(b) 3-way chain, N = 11 (first size past 1 s of WebPPL)' },
  { shape: 'coins', n: 32, label: '(a) sum of flips, N = 32 (against dp.cache)' },
  { shape: 'counter', n: 1_000_000, label: 'deterministic counter, N = 10⁶ (a long run)' },
];

/** One bench:eval-v2 measurement of v2 in a fresh process under `nodeFlags`. */
const measureEval = (shape: string, n: number, nodeFlags: readonly string[]): EvalRun =>
  measureEvalSync(shape, n, 'v2', { repeats: 3, repeatBelowMs: 1000 }, LOADING, nodeFlags);

const fmt = (x: number): string => x.toLocaleString('en-US', { maximumFractionDigits: 0 });

async function main(): Promise<void> {
  const machine = machineInfo(['fast-check', 'tsx', 'typescript']);
  const loads: number[] = [load()];
  const md: string[] = [];

  if (!flags['no-eval']) {
    const rows: string[][] = [];
    for (const e of EVALS) {
      const runs = FLAG_SETS.map(() => [] as EvalRun[]);
      for (let i = 0; i < REPEATS; i++) {
        FLAG_SETS.forEach((f, k) => runs[k]!.push(measureEval(e.shape, e.n, f.flags)));
        loads.push(load());
        log(`  ${e.shape} N = ${e.n} repeat ${i + 1}: ${FLAG_SETS.map((f, k) => `${f.name} ${showMs(runs[k]!.at(-1)!.cpuMs)}`).join(', ')} (load ${load().toFixed(1)})`);
      }
      const cell = runs.map((rs) => median(rs.map((r) => r.cpuMs)));
      const cold = runs.map((rs) => median(rs.map((r) => r.coldCpuMs)));
      rows.push([e.label, String(runs[0]![0]!.steps.toLocaleString('en-US')),
        ...FLAG_SETS.map((_, k) => `${showMs(cell[k]!)} (first ${showMs(cold[k]!)})`),
        ...FLAG_SETS.slice(1).map((_, k) => `${(cell[0]! / cell[k + 1]!).toFixed(2)}×`)]);
    }
    md.push('#### Evaluations (evaluator v2): median CPU of the bench:eval-v2 protocol, per V8 flag set',
      '',
      mdTable(['program', 'rule apps', ...FLAG_SETS.map((f) => `${f.name} cpu (first evaluation)`), ...FLAG_SETS.slice(1).map((f) => `default / ${f.name}`)], rows),
      '',
      `- Each cell: the median over ${REPEATS} fresh processes of the process's median CPU over up to 3 evaluations (one when an evaluation takes ≥ 1 s), as bench:eval-v2 measures v2; "first" is the process's first evaluation. A ratio > 1: the flag set is faster.`);
  }

  if (!flags['no-suites']) {
    const tree = worktree(flags.base, LOADING);
    try {
      const sides = [{ name: tree.rev, dir: tree.dir }, { name: 'now', dir: ROOT }];
      const cells = sides.map(() => FLAG_SETS.map(() => [] as { cold: number; warm: number }[]));
      for (let i = 0; i < REPEATS; i++) {
        for (const [k, f] of FLAG_SETS.entries()) {
          for (const [s, side] of sides.entries()) {
            const r = measureSuite(side.dir, { suite: 'tipni', lattice: 'powerset-us', runs: 1000, seeds: [1, 2, 3], nodeFlags: f.flags, loading: LOADING });
            cells[s]![k]!.push({ cold: rate(r.cold), warm: rate(r.warm) });
          }
        }
        loads.push(load());
        log(`  tipni repeat ${i + 1}: ${sides.map((side, s) => FLAG_SETS.map((f, k) => `${side.name}/${f.name} ${fmt(cells[s]![k]!.at(-1)!.cold)}`).join(', ')).join('; ')} cases/s (load ${load().toFixed(1)})`);
      }
      const med = (s: number, k: number, pass: 'cold' | 'warm'): number => median(cells[s]![k]!.map((c) => c[pass]));
      const rows = FLAG_SETS.map((f, k) => [f.name,
        fmt(med(0, k, 'cold')), fmt(med(1, k, 'cold')), `**${(med(1, k, 'cold') / med(0, k, 'cold')).toFixed(2)}×**`,
        `${(med(1, k, 'cold') / med(0, 0, 'cold')).toFixed(2)}×`,
        fmt(med(0, k, 'warm')), fmt(med(1, k, 'warm')), `${(med(1, k, 'warm') / med(0, k, 'warm')).toFixed(2)}×`]);
      md.push('', `#### TIPNI on powerset-us: commit ${tree.rev} against this checkout, per V8 flag set`,
        '',
        mdTable(['V8 flags', `cases/s ${tree.rev}`, 'cases/s now', `now / ${tree.rev} (same flags)`, `now / ${tree.rev} default`, `warm ${tree.rev}`, 'warm now', 'warm ratio'], rows),
        '',
        `- Cases per CPU second (all threads), median over ${REPEATS} fresh processes per checkout and flag set, alternating; seeds 1, 2, 3 (1,000 cases each, tuned profile, reference semantics), then the same seeds again (warm), as bench:suites. "now / ${tree.rev} default" compares this checkout under the row's flags with ${tree.rev} under none.`);
      const best = FLAG_SETS.map((f, k) => ({ name: f.name, ratio: med(1, k, 'cold') / med(0, 0, 'cold') })).sort((a, b) => b.ratio - a.ratio)[0]!;
      md.push(`- Issue 12's target, TIPNI's first pass ≥ 3× ${tree.rev}'s cases/s: ${(med(1, 0, 'cold') / med(0, 0, 'cold')).toFixed(2)}× by default; the best flag set for this checkout, \`${best.name}\`, gives ${best.ratio.toFixed(2)}× against ${tree.rev} without flags (${best.ratio >= 3 ? 'would meet it' : 'short of it too'}).`);
    } finally {
      tree.drop();
    }
  }

  if (!flags['no-check']) {
    // The check always runs the compiled package; under --source nothing has built it yet.
    if (LOADING === 'source') prepareLoading(false, 'bench:jit (the check)');
    const runs = FLAG_SETS.map(() => [] as CheckRun[]);
    for (let i = 0; i < CHECK_REPEATS; i++) {
      FLAG_SETS.forEach((f, k) => runs[k]!.push(measureCheck(['--seed', '1', '--workers', '1', '--no-corpus', '--json'], f.flags)));
      loads.push(load());
      log(`  check repeat ${i + 1}: ${FLAG_SETS.map((f, k) => `${f.name} ${runs[k]!.at(-1)!.wall.toFixed(1)} s wall (${runs[k]!.at(-1)!.cpu.toFixed(1)} s CPU)`).join(', ')} (load ${load().toFixed(1)})`);
    }
    const wall = runs.map((rs) => median(rs.map((r) => r.wall)));
    const cpu = runs.map((rs) => median(rs.map((r) => r.cpu)));
    md.push('', '#### The default check: `llmbda check --seed 1 --workers 1 --no-corpus`, per V8 flag set', '',
      mdTable(['V8 flags', 'wall (median)', 'CPU user+sys (median)', 'default / flags, wall', 'default / flags, CPU', 'all verdicts hold'],
        FLAG_SETS.map((f, k) => [f.name, `${wall[k]!.toFixed(1)} s`, `${cpu[k]!.toFixed(1)} s`, `${(wall[0]! / wall[k]!).toFixed(2)}×`, `${(cpu[0]! / cpu[k]!).toFixed(2)}×`, runs[k]!.every((r) => r.ok) ? 'yes' : 'no'])),
      '',
      `- ${CHECK_REPEATS} run${CHECK_REPEATS === 1 ? '' : 's'} per flag set, alternating; GNU time of the whole process. A ratio > 1: the flag set is faster. The whole check is ≈ 60 jobs of 2,000 cases or more, long enough for TurboFan's code to pay.`);
  }

  const command = `npm run bench:jit${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const body = [
    '### Where the cold time goes: V8\'s optimising compiler (`npm run bench:jit`)',
    '',
    machineMarkdown(machine, command, [`1-minute load average during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`]),
    `- Flag sets: ${FLAG_SETS.map((f) => `\`${f.name}\`${f.flags.length ? ` (\`${f.flags.join(' ')}\`)` : ' (none)'}`).join(', ')}. A diagnosis: the package sets no V8 flag.`,
    '',
    ...md,
  ].join('\n');
  process.stdout.write(`${body}\n`);
  if (!flags['no-doc']) updateDoc('bench:jit', body);
}

await main();
