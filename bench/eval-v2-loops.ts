/**
 * `npm run bench:eval-v2-loops` (issue 12, deterministic loops and depth): the tail-recursive counter
 * `count N 0` and the non-tail recursion `sum N`, N = 10^3 … 10^6, on evaluator v2 as `evaluate` runs it
 * (with its deterministic fast path), on v2's general machine alone (`direct: false`, what v2 did before
 * the fast path), and WebPPL's plain `enumerate` — side by side in one run. WebPPL runs once per size in
 * bench/webppl-runner.cjs, which reports both its inference wall time (fastest run, as every other benchmark)
 * and the CPU time of its process during inference (median of the same number of runs): CPU against CPU is
 * the ratio the target is judged by, since on a loaded machine wall time counts waiting for a core. Every LLMbda measurement is
 * its own process on the default main-thread stack (no `--stack-size`, no worker); its peak RSS is that
 * run's. Answers are compared exactly with the independent ones of `eval-v2-shapes.ts` (`N`, `N(N+1)/2`).
 * Writes the section `bench:eval-v2-loops` of docs/benchmarks.md.
 *
 * Flags: --cap SECONDS (per measurement, default 60), --repeats R (default 3, every size), --no-doc, --source (the
 * sources through tsx instead of the compiled package: bench/lib/measured.ts).
 */
import { parseArgs } from 'node:util';
import { renderTable } from '../src/util/table.ts';
import { SHAPES } from './eval-v2-shapes.ts';
import { runInProcess, runWebppl, type Capped, type WebpplResult } from './lib/isolate.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { EVAL_ONE, evalTask, loaderArgs, loadingLine, prepareLoading } from './lib/measured.ts';
import { fittedDegree, showMs, showRatio } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { cap: { type: 'string' }, repeats: { type: 'string' }, 'no-doc': { type: 'boolean', default: false }, source: { type: 'boolean', default: false } } });
const LOADING = prepareLoading(flags.source, 'bench:eval-v2-loops');
const CAP_MS = 1000 * Number(flags.cap ?? 60);
const REPEATS = Number(flags.repeats ?? 3);
interface Ours {
  readonly ok: boolean; readonly error?: string; readonly ms: number; readonly cpuMs: number; readonly steps: number;
  readonly maxRssMB: number; readonly mass: string; readonly dist: readonly (readonly [string, string])[];
}

function ours(shape: string, n: number, engine: 'v2' | 'v2-general', repeats: number): Promise<Capped<Ours>> {
  return runInProcess<Ours>(EVAL_ONE, evalTask(shape, n, engine, { repeats }, LOADING), CAP_MS, CAP_MS * repeats + 5000, loaderArgs(LOADING));
}

const done = (c: Capped<Ours> | undefined): Ours | undefined => (c?.kind === 'done' && c.result.ok ? c.result : undefined);
const cell = (c: Capped<Ours> | undefined): string =>
  c === undefined ? '—' : c.kind === 'done'
    ? (c.result.ok ? `cpu ${showMs(c.result.cpuMs)} (wall ${showMs(c.result.ms)}), ${c.result.maxRssMB} MB` : `error: ${(c.result.error ?? '').slice(0, 80)}`)
    : c.kind === 'timeout' ? `> ${showMs(CAP_MS)}` : 'crash';
const cellW = (c: Capped<WebpplResult>): string =>
  c.kind === 'done' ? showMs(c.result.inferMs) : c.kind === 'timeout' ? `> ${showMs(CAP_MS)}` : `crash (${c.message.slice(0, 60)})`;

const PLANS = [
  { shape: 'counter', ns: [1000, 10_000, 100_000, 1_000_000], generalUpTo: 100_000 },
  { shape: 'sumrec', ns: [1000, 10_000, 100_000, 1_000_000], generalUpTo: 100_000 },
] as const;

const md: string[] = [];
const info = machineInfo(['webppl', 'typescript']);
process.stderr.write(`load ${info.load.toFixed(2)}\n`);
for (const p of PLANS) {
  const s = SHAPES[p.shape]!;
  const rows: string[][] = [];
  const cpuPts: [number, number][] = [];
  const stepPts: [number, number][] = [];
  for (const n of p.ns) {
    process.stderr.write(`${p.shape} N=${n}\n`);
    const repeats = REPEATS;
    const fast = await ours(p.shape, n, 'v2', repeats);
    const general = n <= p.generalUpTo ? await ours(p.shape, n, 'v2-general', repeats) : undefined;
    const wp = await runWebppl(s.webppl(n), CAP_MS, { repeatBelowMs: 1e9, maxRuns: repeats });
    // WebPPL's answer checked against the independent one before its CPU time is compared.
    const wcDone = wp.kind === 'done' && wp.result.dist.length === 1 && String(wp.result.dist[0]![0]) === s.exact!(n)[0]![0] ? wp.result : undefined;
    const r = done(fast);
    if (r) { cpuPts.push([n, r.cpuMs]); stepPts.push([n, r.steps]); }
    const want = s.exact!(n);
    const exact = r ? (r.mass === '1' && r.dist.length === 1 && r.dist[0]![0] === want[0]![0] && r.dist[0]![1] === '1' ? 'exact ✓' : 'DIFFERS') : '';
    const g = done(general);
    rows.push([
      n.toLocaleString('en-US'), cell(fast), r ? `${((1000 * r.cpuMs) / n).toFixed(2)} µs` : '', r ? r.steps.toLocaleString('en-US') : '', exact,
      cell(general), r && g ? showRatio(g.cpuMs / r.cpuMs) : '',
      cellW(wp), r && wp.kind === 'done' ? showRatio(r.cpuMs / wp.result.inferMs) : '',
      wcDone ? `cpu ${showMs(wcDone.medianCpuMs)} (wall ${showMs(wcDone.medianMs)})` : wp.kind === 'done' ? 'DIFFERS' : wp.kind === 'timeout' ? `> ${showMs(CAP_MS)}` : 'crash',
      r && wcDone ? showRatio(r.cpuMs / wcDone.medianCpuMs) : '',
    ]);
  }
  const header = ['N', 'v2 (default)', 'v2 cpu / N', 'rule apps', 'v2 vs independent', 'v2 general machine only', 'fast-path gain (cpu)', 'WebPPL enumerate', 'v2 cpu / WebPPL', 'WebPPL cpu (median)', 'v2 cpu / WebPPL cpu'];
  const notes = [
    `${s.description}.`,
    `Fitted degree over N = 10^3…10^6 of v2's CPU time ${fittedDegree(cpuPts).toFixed(2)} (over 10^4…10^6, past the fixed start-up and JIT warm-up: ${fittedDegree(cpuPts.filter(([n]) => n >= 10_000)).toFixed(2)}), of its rule applications ${fittedDegree(stepPts).toFixed(2)}.`,
  ];
  process.stdout.write(`\n${s.name}\n${renderTable(header, rows)}\n${notes.map((x) => `  ${x}\n`).join('')}`);
  md.push(`#### ${s.name}\n\n${mdTable(header, rows)}\n\n${notes.map((x) => `- ${x}`).join('\n')}\n`);
}
if (!flags['no-doc']) {
  updateDoc('bench:eval-v2-loops', [
    machineMarkdown(info, 'npm run bench:eval-v2-loops', [
      `LLMbda cells: median of ${REPEATS} evaluations in one fresh process on the default main-thread stack; CPU of the process during the evaluations, wall, and that process's peak RSS (includes Node${LOADING === 'compiled' ? '' : ' and tsx'}).`,
      `${loadingLine(LOADING)}.`,
      `WebPPL cells: fastest of the same number of runs in one process (bench/webppl-runner.cjs), wall time of inference only. Cap ${CAP_MS / 1000} s per measurement.`,
      '"v2 cpu / WebPPL" is v2\'s CPU time over WebPPL\'s inference wall time (< 1: v2 faster); on a loaded machine WebPPL\'s wall time includes waiting, so this flatters WebPPL\'s side least when the load is low.',
      '"WebPPL cpu (median)": the same runs\' CPU time of WebPPL\'s process during inference (median, compiled once, its answer checked against the independent one); "v2 cpu / WebPPL cpu" compares CPU with CPU, which a loaded machine distorts least: the issue\'s "≤ 3× WebPPL" is judged by this column.',
    ]),
    ...md,
  ].join('\n\n'));
}
