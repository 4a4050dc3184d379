/**
 * `npm run bench:warm-up`: what evaluator v2's warm-up evaluations (src/semantics/v2/warm-up.ts) give and cost,
 * v2 with them (the default) against v2 without (`warmUp: false`, `bench/eval-v2-one.mjs`'s `v2-unwarmed`), side by
 * side in one run: one fresh process per measurement, the two alternating within each repeat, the bench:eval-v2
 * protocol (the program loaded untimed, then 3 evaluations, CPU of all the process's threads). Per program: the
 * first evaluation (the warm-up included, when on), the second, the third, and bench:eval-v2's cell (the median
 * of the three); each a median over `--repeats` processes. The empty program's first evaluation is the warm-up's
 * own cost.
 *
 * Flags: --repeats R (default 3), --no-doc, --source (the sources through tsx instead of the compiled package:
 * bench/lib/measured.ts).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { measureEvalSync, prepareLoading, type EvalEngine, type EvalRun } from './lib/measured.ts';
import { median, showMs } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    repeats: { type: 'string', default: '3' },
    'no-doc': { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
  },
});
const LOADING = prepareLoading(flags.source, 'bench:warm-up');
const REPEATS = Number(flags.repeats);
if (!Number.isInteger(REPEATS) || REPEATS < 1) {
  process.stderr.write('usage: npm run bench:warm-up -- [--repeats R] [--no-doc] [--source]\n');
  process.exit(2);
}
const log = (s: string): void => { process.stderr.write(`${s}\n`); };
const load = (): number => loadavg()[0] ?? NaN;

/** Every bench:eval-v2 shape, at a size where the second evaluation is long enough to see. */
const PROGRAMS: readonly { readonly shape: string; readonly n: number; readonly label: string }[] = [
  { shape: 'empty', n: 0, label: 'empty program (the warm-up\'s own cost)' },
  { shape: 'coins', n: 20, label: '(a) sum of N flips, N = 20' },
  { shape: 'coins', n: 128, label: '(a) sum of N flips, N = 128' },
  { shape: 'coins', n: 256, label: '(a) sum of N flips, N = 256' },
  { shape: 'chain', n: 12, label: '(b) 3-way chain, N = 12' },
  { shape: 'chain', n: 256, label: '(b) 3-way chain, N = 256' },
  { shape: 'counter', n: 1_000_000, label: 'deterministic counter, N = 10⁶' },
  { shape: 'sumrec', n: 100_000, label: 'non-tail recursion, N = 10⁵' },
  { shape: 'straight', n: 16, label: 'straight-line flips, N = 16' },
  { shape: 'strings', n: 12, label: 'flips into a string, N = 12' },
];
const ENGINES = [{ name: 'with warm-up', engine: 'v2' }, { name: 'without', engine: 'v2-unwarmed' }] as const;

/** One measurement: the bench:eval-v2 protocol's three evaluations in a fresh process. */
function measure(shape: string, n: number, engine: EvalEngine): EvalRun {
  const out = measureEvalSync(shape, n, engine, { repeats: 3 }, LOADING);
  if (out.cpus.length !== 3) throw new Error(`measuring ${shape} N = ${n} (${engine}): ${out.cpus.length} evaluations, want 3`);
  return out;
}

function main(): void {
  const machine = machineInfo(['tsx', 'typescript']);
  const loads: number[] = [load()];
  const rows: string[][] = [];
  for (const p of PROGRAMS) {
    const runs = ENGINES.map(() => [] as EvalRun[]);
    for (let i = 0; i < REPEATS; i++) {
      ENGINES.forEach((e, k) => runs[k]!.push(measure(p.shape, p.n, e.engine)));
      loads.push(load());
      log(`  ${p.shape} N = ${p.n} repeat ${i + 1}: ${ENGINES.map((e, k) => `${e.name} ${runs[k]!.at(-1)!.cpus.map(showMs).join(' / ')}`).join('; ')} (load ${load().toFixed(1)})`);
    }
    const at = (k: number, j: number): number => median(runs[k]!.map((r) => r.cpus[j]!));
    const cell = (k: number): number => median(runs[k]!.map((r) => r.cpuMs));
    rows.push([p.label,
      ...ENGINES.flatMap((_, k) => [`${showMs(at(k, 0))} / ${showMs(at(k, 1))} / ${showMs(at(k, 2))}`, showMs(cell(k))]),
      `${(cell(1) / cell(0)).toFixed(2)}×`, `${(at(1, 0) / at(0, 0)).toFixed(2)}×`]);
  }
  const command = `npm run bench:warm-up${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const body = [
    '### Warm-up evaluations: with and without (`npm run bench:warm-up`)',
    '',
    machineMarkdown(machine, command, [`1-minute load average during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`]),
    '',
    mdTable(['program', 'with warm-up: 1st / 2nd / 3rd evaluation', 'with: cell', 'without: 1st / 2nd / 3rd', 'without: cell', 'cell without / with', '1st without / with'], rows),
    '',
    `- CPU (user + system, all threads) of each of a fresh process's three evaluations, median over ${REPEATS} processes per side, the sides alternating; "cell" is bench:eval-v2's (the median of the three), also a median over the processes. A ratio > 1: the warm-up is faster.`,
  ].join('\n');
  process.stdout.write(`${body}\n`);
  if (!flags['no-doc']) updateDoc('bench:warm-up', body);
}

main();
