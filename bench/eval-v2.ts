/**
 * `npm run bench:eval-v2` (issue 12): evaluator v2 against the substitution evaluator (the executable
 * spec, same run) and WebPPL's plain `enumerate` (and its `dp.cache` idiom where the family has one), on
 * merging shapes, non-merging shapes, a deterministic loop and a non-tail recursion. Every answer is
 * compared EXACTLY with an independent computation (`eval-v2-shapes.ts`), WebPPL's by the largest
 * relative error per outcome and the total variation distance. Writes the section `bench:eval-v2` of
 * docs/benchmarks.md.
 *
 * Both sides are measured the same way, so neither is flattered:
 * - every measurement (ours: `eval-v2-one.mjs`, the compiled package under plain `node`; WebPPL:
 *   `webppl-runner.cjs`, WebPPL under plain `node`) runs in its own fresh process,
 *   loads and compiles the program untimed, then evaluates it up to `--repeats` times while an evaluation
 *   takes under 1 s of CPU; the cell is the median CPU time of the measuring process (user + system: on a
 *   shared 2-core machine wall time is mostly waiting), and that process's peak RSS. An empty run of each
 *   side (the program `0`) gives the baseline RSS and start-up cost, reported separately.
 * - WebPPL's plain `enumerate` has its own, larger cap (`--webppl-cap`), so the sizes where it first takes
 *   more than 1 s are measured, not bounded; once it hits the cap, larger sizes are not run (a lower bound).
 * - small sizes (`dp.cache` at N ≤ 32): both views of both sides, `--pairs` times, each time in fresh
 *   processes: the first evaluation of a fresh process (cold: JIT warm-up included) and the steady state
 *   (median of `--warm-runs` evaluations after `--warmup` unmeasured ones); the ratio is taken per pair and
 *   the median ratio reported.
 *
 * Flags: --cap SECONDS (per measurement, default 60), --webppl-cap SECONDS (WebPPL `enumerate`, default
 * 120), --repeats R (default 3), --pairs P (default 3), --warmup W (default 20), --warm-runs R (default 15),
 * --shapes a,b (default all), --no-small, --no-doc, --source (measure the sources through tsx instead of the
 * compiled package: bench/lib/measured.ts).
 */
import { parseArgs } from 'node:util';
import * as Q from '../src/distributions/rational.ts';
import { renderTable } from '../src/util/table.ts';
import { SHAPES, type Shape } from './eval-v2-shapes.ts';
import { runInProcess, runWebppl, type Capped, type WebpplResult } from './lib/isolate.ts';
import { ratToNumber } from './lib/compare.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { EVAL_ONE, evalTask, loaderArgs, loadingLine, prepareLoading } from './lib/measured.ts';
import { fittedDegree, median, showMs, showRatio } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    cap: { type: 'string' }, 'webppl-cap': { type: 'string' }, repeats: { type: 'string' }, pairs: { type: 'string' },
    warmup: { type: 'string' }, 'warm-runs': { type: 'string' }, shapes: { type: 'string' },
    'no-small': { type: 'boolean', default: false }, 'no-doc': { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
  },
});
const LOADING = prepareLoading(flags.source, 'bench:eval-v2');
const CAP_MS = 1000 * Number(flags.cap ?? 60);
const WEBPPL_CAP_MS = 1000 * Number(flags['webppl-cap'] ?? 120);
const REPEATS = Number(flags.repeats ?? 3);
const PAIRS = Number(flags.pairs ?? 3);
const WARMUP = Number(flags.warmup ?? 20);
const WARM_RUNS = Number(flags['warm-runs'] ?? 15);
/** An evaluation taking this much CPU or more is not repeated (both sides). */
const REPEAT_BELOW_MS = 1000;

interface Ours {
  readonly ok: boolean; readonly error?: string; readonly ms: number; readonly cpuMs: number; readonly steps: number;
  readonly runs: number; readonly coldCpuMs: number;
  readonly peakMemo?: number; readonly peakRound?: number; readonly maxRssMB: number; readonly mass: string;
  readonly missing: readonly string[]; readonly dist: readonly (readonly [string, string])[];
}

interface Protocol { readonly repeats: number; readonly warmup: number; readonly repeatBelowMs: number }
const MAIN: Protocol = { repeats: REPEATS, warmup: 0, repeatBelowMs: REPEAT_BELOW_MS };
const STEADY: Protocol = { repeats: WARM_RUNS, warmup: WARMUP, repeatBelowMs: Infinity };

/** One LLMbda measurement in a fresh process, killed at the cap. */
function ours(shape: string, n: number, engine: 'v2' | 'substitution', p: Protocol = MAIN): Promise<Capped<Ours>> {
  const { repeats, warmup, repeatBelowMs } = p;
  return runInProcess<Ours>(EVAL_ONE, evalTask(shape, n, engine, { repeats, warmup, repeatBelowMs }, LOADING),
    CAP_MS, CAP_MS * (repeats + warmup) + 5000, loaderArgs(LOADING));
}

/** One WebPPL measurement in a fresh process, by the same protocol. */
function theirs(source: string, capMs: number, p: Protocol = MAIN): Promise<Capped<WebpplResult>> {
  return runWebppl(source, capMs, { repeatBelowMs: Number.isFinite(p.repeatBelowMs) ? p.repeatBelowMs : 1e12, maxRuns: p.repeats, warmup: p.warmup });
}

/** Exact agreement with the independent answer. */
function exactCheck(s: Shape, n: number, r: Ours): string {
  if (s.exact) {
    const want = new Map(s.exact(n).map(([v, p]) => [v, p]));
    const got = new Map(r.dist.map(([v, p]) => [v, p]));
    if (want.size !== got.size || [...want].some(([v, p]) => got.get(v) !== p)) return 'DIFFERS';
    return 'exact ✓';
  }
  const bad = s.check?.(n, r.dist);
  return bad === undefined ? 'exact ✓' : `DIFFERS: ${bad}`;
}

/** WebPPL against our exact answer: largest relative error per outcome and total variation. */
function floatCheck(r: Ours, w: WebpplResult): string {
  const ours = new Map(r.dist.map(([v, p]) => [v, ratToNumber(Q.parseRational(p)!)]));
  const theirs = new Map<string, number>();
  for (const [v, p] of w.dist) { const k = typeof v === 'string' ? JSON.stringify(v) : String(v); theirs.set(k, (theirs.get(k) ?? 0) + p); }
  let rel = 0, tv = 0;
  for (const k of new Set([...ours.keys(), ...theirs.keys()])) {
    const a = ours.get(k) ?? 0, b = theirs.get(k) ?? 0;
    tv += Math.abs(a - b) / 2;
    rel = Math.max(rel, a === 0 ? (b === 0 ? 0 : Infinity) : Math.abs(a - b) / a);
  }
  return `rel ${rel.toExponential(1)}, TV ${tv.toExponential(1)}`;
}

const okOurs = (c: Capped<Ours> | undefined): Ours | undefined => (c?.kind === 'done' && c.result.ok ? c.result : undefined);
const okW = (c: Capped<WebpplResult> | undefined): WebpplResult | undefined => (c?.kind === 'done' ? c.result : undefined);
const runsNote = (k: number): string => (k === REPEATS ? '' : ` ×${k}`);
const cellOurs = (c: Capped<Ours> | undefined): string =>
  c === undefined ? '' : c.kind === 'done'
    ? (c.result.ok ? `${showMs(c.result.cpuMs)}${runsNote(c.result.runs)} (wall ${showMs(c.result.ms)}), ${c.result.maxRssMB} MB` : `error: ${(c.result.error ?? '').split(':')[0]}`)
    : c.kind === 'timeout' ? `> ${showMs(c.capMs)}` : 'crash';
const cellW = (c: Capped<WebpplResult> | 'skipped' | undefined, skippedCap: number): string =>
  c === undefined ? '' : c === 'skipped' ? `> ${showMs(skippedCap)} (not run)` : c.kind === 'done'
    ? `${showMs(c.result.medianCpuMs)}${runsNote(c.result.runs)} (wall ${showMs(c.result.medianMs)}), ${c.result.maxRssMB} MB`
    : c.kind === 'timeout' ? `> ${showMs(c.capMs)}` : `crash (${c.message.slice(0, 50)})`;
/** Ratio their CPU / our CPU (> 1: v2 faster); a lower bound when their side hit its cap. */
function ratioCell(w: Capped<WebpplResult> | 'skipped' | undefined, capMs: number, mine: Ours | undefined): string {
  if (w === undefined || mine === undefined) return '';
  if (w === 'skipped' || w.kind === 'timeout') return `> ${showRatio(capMs / mine.cpuMs)}`;
  return w.kind === 'done' ? showRatio(w.result.medianCpuMs / mine.cpuMs) : '';
}

interface Plan {
  readonly shape: string; readonly ns: readonly number[]; readonly substitutionUpTo: number; readonly cachedUpTo?: number;
}
const PLANS: readonly Plan[] = [
  { shape: 'counter', ns: [1000, 10_000, 100_000, 1_000_000], substitutionUpTo: 1000 },
  { shape: 'thenflip', ns: [1000, 100_000, 1_000_000], substitutionUpTo: 0 },
  { shape: 'sumrec', ns: [1000, 10_000, 100_000, 1_000_000], substitutionUpTo: 100 },
  // WebPPL's plain enumerate first takes > 1 s at (a) N ≈ 18 and (b) N ≈ 11 (2^N and 3^N paths).
  { shape: 'coins', ns: [16, 18, 20, 22, 32, 64, 128, 256], substitutionUpTo: 128, cachedUpTo: 256 },
  { shape: 'chain', ns: [10, 11, 12, 13, 16, 32, 64, 128, 256], substitutionUpTo: 128, cachedUpTo: 256 },
  { shape: 'straight', ns: [8, 12, 16], substitutionUpTo: 12 },
  { shape: 'strings', ns: [8, 12, 16], substitutionUpTo: 12 },
];
const only = flags.shapes?.split(',');
const plans = only ? PLANS.filter((p) => only.includes(p.shape)) : PLANS;

const md: string[] = [];
const info = machineInfo(['webppl', 'typescript']);
const say = (s: string): void => { process.stderr.write(`${s}\n`); };
say(`load ${info.load.toFixed(2)}`);

// Baselines: an empty run of each side, in the same run.
const baseOurs = okOurs(await ours('empty', 0, 'v2'));
const baseW = okW(await theirs(SHAPES.empty!.webppl(0), CAP_MS));
const baseline = `Empty run (the program \`0\`), same run: LLMbda process peak RSS ${baseOurs?.maxRssMB ?? '?'} MB (Node, ${LOADING === 'compiled' ? 'the compiled package' : 'tsx, the sources'}, the prelude), `
  + `first evaluation ${baseOurs ? showMs(baseOurs.coldCpuMs) : '?'} CPU; WebPPL process ${baseW?.maxRssMB ?? '?'} MB (Node, WebPPL and its compiler, the compiled program), `
  + `first run ${baseW ? showMs(baseW.coldCpuMs) : '?'} CPU. Peaks in the tables are raw (baseline included); "above empty" subtracts each side's own baseline.`;
say(baseline);

const aboveBase = (mine: Ours | undefined, w: WebpplResult | undefined): string =>
  mine && w && baseOurs && baseW ? `${Math.max(0, mine.maxRssMB - baseOurs.maxRssMB)} / ${Math.max(0, w.maxRssMB - baseW.maxRssMB)} MB` : '';

for (const p of plans) {
  const s = SHAPES[p.shape]!;
  const rows: string[][] = [];
  const stepPts: [number, number][] = [];
  const timePts: [number, number][] = [];
  let wpCapped = false;
  for (const n of p.ns) {
    say(`${p.shape} N=${n}`);
    const v2 = await ours(p.shape, n, 'v2');
    const sub = n <= p.substitutionUpTo ? await ours(p.shape, n, 'substitution') : undefined;
    const wp: Capped<WebpplResult> | 'skipped' = wpCapped ? 'skipped' : await theirs(s.webppl(n), WEBPPL_CAP_MS);
    if (wp !== 'skipped' && wp.kind === 'timeout') wpCapped = true;
    const wc = s.webpplCached && n <= (p.cachedUpTo ?? 0) ? await theirs(s.webpplCached(n), CAP_MS) : undefined;
    const r = okOurs(v2);
    const w = wp === 'skipped' ? undefined : okW(wp);
    if (r) { stepPts.push([n, r.steps]); timePts.push([n, r.cpuMs]); }
    rows.push([
      String(n), cellOurs(v2), r ? r.steps.toLocaleString('en-US') : '', r ? `${r.peakRound ?? ''} / ${r.peakMemo ?? ''}` : '',
      r ? exactCheck(s, n, r) : '', cellOurs(sub), r && okOurs(sub) ? showRatio(okOurs(sub)!.cpuMs / r.cpuMs) : '',
      cellW(wp, WEBPPL_CAP_MS), ratioCell(wp, WEBPPL_CAP_MS, r),
      r && w ? showRatio(r.maxRssMB / w.maxRssMB) : '', aboveBase(r, w),
      r && w ? floatCheck(r, w) : '',
      s.webpplCached ? cellW(wc, CAP_MS) : '—', s.webpplCached ? ratioCell(wc, CAP_MS, r) : '—',
    ]);
  }
  const header = ['N', 'v2 cpu (wall), peak RSS', 'v2 rule apps', 'v2 peak round / memo', 'v2 vs independent', 'substitution', 'v2 speed-up',
    'WebPPL enumerate cpu (wall), peak RSS', 'WebPPL / v2', 'RSS v2 / WebPPL', 'RSS above empty v2 / WebPPL', 'WebPPL error', 'WebPPL dp.cache', 'dp.cache / v2'];
  const notes = [
    `${s.description}; ${s.merging ? 'merging' : 'non-merging'} shape.`,
    `Fitted degree over N: v2 rule applications ${fittedDegree(stepPts).toFixed(2)}, v2 CPU time ${fittedDegree(timePts).toFixed(2)}.`,
  ];
  process.stdout.write(`\n${s.name}\n${renderTable(header, rows)}\n${notes.map((x) => `  ${x}\n`).join('')}`);
  md.push(`#### ${s.name}\n\n${mdTable(header, rows)}\n\n${notes.map((x) => `- ${x}`).join('\n')}\n`);
}

// Small sizes against dp.cache: cold and steady state, both sides alike, repeated in fresh processes.
if (!flags['no-small']) {
  const rows: string[][] = [];
  for (const shape of ['coins', 'chain'].filter((x) => !only || only.includes(x))) {
    const s = SHAPES[shape]!;
    for (const n of [8, 16, 32]) {
      const cold: [number, number][] = [];
      const warm: [number, number][] = [];
      for (let i = 0; i < PAIRS; i++) {
        say(`small ${shape} N=${n} pair ${i + 1}`);
        const mine = okOurs(await ours(shape, n, 'v2', STEADY));
        const w = okW(await theirs(s.webpplCached!(n), CAP_MS, STEADY));
        if (mine && w) { cold.push([mine.coldCpuMs, w.coldCpuMs]); warm.push([mine.cpuMs, w.medianCpuMs]); }
      }
      const view = (xs: readonly [number, number][]): string[] => {
        if (xs.length === 0) return ['', '', '', ''];
        const ratios = xs.map(([a, b]) => b / a);
        return [showMs(median(xs.map((x) => x[0]))), showMs(median(xs.map((x) => x[1]))), showRatio(median(ratios)),
          `${showRatio(Math.min(...ratios))} – ${showRatio(Math.max(...ratios))}`];
      };
      rows.push([s.name, String(n), String(cold.length), ...view(cold), ...view(warm)]);
    }
  }
  const header = ['shape', 'N', 'pairs', 'cold: v2 cpu', 'cold: dp.cache cpu', 'cold: dp.cache / v2 (median)', 'cold: range',
    'steady: v2 cpu', 'steady: dp.cache cpu', 'steady: dp.cache / v2 (median)', 'steady: range'];
  const title = 'Small sizes against `dp.cache`: first evaluation and steady state, both sides alike';
  const notes = [
    `Each pair: one fresh process per side. Cold: the first evaluation of that process (CPU; JIT warm-up included). Steady: the median CPU of ${WARM_RUNS} evaluations after ${WARMUP} unmeasured ones in the same process. Cells: medians over the pairs; the ratio is taken per pair, then its median (and range) reported.`,
  ];
  process.stdout.write(`\n${title}\n${renderTable(header, rows)}\n${notes.map((x) => `  ${x}\n`).join('')}`);
  md.push(`#### ${title}\n\n${mdTable(header, rows)}\n\n${notes.map((x) => `- ${x}`).join('\n')}\n`);
}

if (!flags['no-doc']) {
  updateDoc('bench:eval-v2', [
    machineMarkdown(info, `npm run bench:eval-v2${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`, [
      `Both sides measured alike: one fresh process per measurement, the program loaded/compiled untimed, then up to ${REPEATS} evaluations (fewer when one takes ≥ ${REPEAT_BELOW_MS / 1000} s CPU: "×k" gives the count when it is not ${REPEATS}); each cell is the median CPU time of the measuring process (user + system), wall in parentheses, and the process's peak RSS.`,
      `${loadingLine(LOADING)}; WebPPL's runner likewise runs WebPPL under plain \`node\`.`,
      baseline,
      `Caps: ${CAP_MS / 1000} s per measurement; WebPPL's plain \`enumerate\` ${WEBPPL_CAP_MS / 1000} s, and after it hits the cap larger sizes are not run ("> cap (not run)", ratio a lower bound).`,
      'Ratios are times-faster of v2 (> 1: v2 faster), CPU against CPU, measured in the same run. "RSS v2 / WebPPL" compares raw peaks (target: ≤ 2).',
    ]),
    ...md,
  ].join('\n\n'));
}
