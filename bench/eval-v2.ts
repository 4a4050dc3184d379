/**
 * `npm run bench:eval-v2` (issue 12): evaluator v2 against the substitution evaluator (the executable
 * spec, same run) and WebPPL's plain `enumerate` (and its `dp.cache` idiom where the family has one), on
 * merging shapes, non-merging shapes, a deterministic loop and a non-tail recursion. Every LLMbda
 * measurement runs in its own process (peak RSS is that run's) and is repeated (median); every answer is
 * compared EXACTLY with an independent computation (`eval-v2-shapes.ts`), WebPPL's by the largest
 * relative error per outcome and the total variation distance. Writes the section `bench:eval-v2` of
 * docs/benchmarks.md.
 *
 * Flags: --cap SECONDS (per measurement, default 60), --repeats R (default 3), --no-doc.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as Q from '../src/distributions/rational.ts';
import { renderTable } from '../src/util/table.ts';
import { SHAPES, type Shape } from './eval-v2-shapes.ts';
import { runInProcess, runWebppl, type Capped, type WebpplResult } from './lib/isolate.ts';
import { ratToNumber } from './lib/compare.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { fittedDegree, showMs, showRatio } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { cap: { type: 'string' }, repeats: { type: 'string' }, 'no-doc': { type: 'boolean', default: false } } });
const CAP_MS = 1000 * Number(flags.cap ?? 60);
const REPEATS = Number(flags.repeats ?? 3);
const ONE = fileURLToPath(new URL('./eval-v2-one.ts', import.meta.url));

interface Ours {
  readonly ok: boolean; readonly error?: string; readonly ms: number; readonly cpuMs: number; readonly steps: number;
  readonly peakMemo?: number; readonly peakRound?: number; readonly maxRssMB: number; readonly mass: string;
  readonly missing: readonly string[]; readonly dist: readonly (readonly [string, string])[];
}

/** One LLMbda measurement in a fresh process, killed at the cap. */
function ours(shape: string, n: number, engine: 'v2' | 'substitution'): Promise<Capped<Ours>> {
  return runInProcess<Ours>(ONE, { shape, n, engine, repeats: REPEATS }, CAP_MS, CAP_MS * REPEATS + 5000);
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

const cellOurs = (c: Capped<Ours> | undefined): string =>
  c === undefined ? '' : c.kind === 'done' ? (c.result.ok ? `${showMs(c.result.ms)} (cpu ${showMs(c.result.cpuMs)}), ${c.result.maxRssMB} MB` : `error: ${(c.result.error ?? '').split(':')[0]}`) : c.kind === 'timeout' ? `> ${showMs(CAP_MS)}` : 'crash';
const cellW = (c: Capped<WebpplResult> | undefined): string =>
  c === undefined ? '' : c.kind === 'done' ? showMs(c.result.inferMs) : c.kind === 'timeout' ? `> ${showMs(CAP_MS)}` : 'crash';
/** Our cost: the CPU time of the measuring process (wall time on this shared 2-core machine is mostly waiting). */
const okMs = (c: Capped<Ours> | undefined): number | undefined => (c?.kind === 'done' && c.result.ok ? c.result.cpuMs : undefined);
const wMs = (c: Capped<WebpplResult> | undefined): number | undefined => (c?.kind === 'done' ? c.result.inferMs : undefined);
const ratio = (theirs: number | undefined, mine: number | undefined): string => (theirs !== undefined && mine !== undefined ? showRatio(theirs / mine) : '');

interface Plan { readonly shape: string; readonly ns: readonly number[]; readonly substitutionUpTo: number; readonly cachedUpTo?: number }
const PLANS: readonly Plan[] = [
  { shape: 'counter', ns: [1000, 10_000, 100_000, 1_000_000], substitutionUpTo: 1000 },
  { shape: 'sumrec', ns: [1000, 10_000, 100_000], substitutionUpTo: 100 },
  { shape: 'coins', ns: [16, 32, 64, 128, 256], substitutionUpTo: 128, cachedUpTo: 256 },
  { shape: 'chain', ns: [16, 32, 64, 128, 256], substitutionUpTo: 128, cachedUpTo: 256 },
  { shape: 'straight', ns: [8, 12, 16], substitutionUpTo: 12 },
  { shape: 'strings', ns: [8, 12, 16], substitutionUpTo: 12 },
];

const md: string[] = [];
const info = machineInfo(['webppl', 'typescript']);
process.stderr.write(`load ${info.load.toFixed(2)}\n`);
for (const p of PLANS) {
  const s = SHAPES[p.shape]!;
  const rows: string[][] = [];
  const stepPts: [number, number][] = [];
  const timePts: [number, number][] = [];
  for (const n of p.ns) {
    process.stderr.write(`${p.shape} N=${n}\n`);
    const v2 = await ours(p.shape, n, 'v2');
    const sub = n <= p.substitutionUpTo ? await ours(p.shape, n, 'substitution') : undefined;
    const wp = await runWebppl(s.webppl(n), CAP_MS, { repeatBelowMs: 1e9, maxRuns: REPEATS });
    const wc = s.webpplCached && n <= (p.cachedUpTo ?? 0) ? await runWebppl(s.webpplCached(n), CAP_MS, { repeatBelowMs: 1e9, maxRuns: REPEATS }) : undefined;
    const r = v2.kind === 'done' && v2.result.ok ? v2.result : undefined;
    if (r) { stepPts.push([n, r.steps]); timePts.push([n, r.cpuMs]); }
    rows.push([
      String(n), cellOurs(v2), r ? r.steps.toLocaleString('en-US') : '', r ? `${r.peakRound ?? ''} / ${r.peakMemo ?? ''}` : '',
      r ? exactCheck(s, n, r) : '', cellOurs(sub), ratio(okMs(sub), okMs(v2)),
      cellW(wp), ratio(wMs(wp), okMs(v2)), r && wp.kind === 'done' ? floatCheck(r, wp.result) : '',
      s.webpplCached ? cellW(wc) : '—', s.webpplCached ? ratio(wMs(wc), okMs(v2)) : '—',
    ]);
  }
  const header = ['N', 'v2 wall (cpu), peak RSS', 'v2 rule apps', 'v2 peak round / memo', 'v2 vs independent', 'substitution', 'v2 speed-up', 'WebPPL enumerate', 'WebPPL / v2', 'WebPPL error', 'WebPPL dp.cache', 'dp.cache / v2'];
  const notes = [
    `${s.description}; ${s.merging ? 'merging' : 'non-merging'} shape.`,
    `Fitted degree over N: v2 rule applications ${fittedDegree(stepPts).toFixed(2)}, v2 CPU time ${fittedDegree(timePts).toFixed(2)}.`,
  ];
  const title = `${s.name}`;
  process.stdout.write(`\n${title}\n${renderTable(header, rows)}\n${notes.map((x) => `  ${x}\n`).join('')}`);
  md.push(`#### ${title}\n\n${mdTable(header, rows)}\n\n${notes.map((x) => `- ${x}`).join('\n')}\n`);
}
if (!flags['no-doc']) {
  updateDoc('bench:eval-v2', [
    machineMarkdown(info, 'npm run bench:eval-v2', [
      `Each LLMbda cell: median of ${REPEATS} evaluations in one fresh process (wall, and CPU of the process), and that process's peak RSS (includes Node and tsx, ≈ 90 MB).`,
      `WebPPL cells: fastest of ${REPEATS} runs in one process (bench/webppl-runner.cjs), wall time of inference only. Cap ${CAP_MS / 1000} s per measurement.`,
      'Ratios are times-faster of v2 (>1: v2 faster), measured in the same run: v2 speed-up is CPU against CPU; WebPPL / v2 and dp.cache / v2 are WebPPL\'s inference time (wall, in its own process) against the CPU time of our process.',
    ]),
    ...md,
  ].join('\n\n'));
}
