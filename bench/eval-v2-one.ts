/**
 * One measurement of `npm run bench:eval-v2`, in its own process (so peak memory is this run's):
 * argv[2] = JSON `{shape, n, engine, repeats, warmup?, repeatBelowMs?}`. The same protocol as
 * bench/webppl-runner.cjs: `warmup` unmeasured evaluations first, then measured ones, repeated while an
 * evaluation takes less CPU than `repeatBelowMs` (default: always), up to `repeats`. Prints one JSON line:
 * every measured run's wall and CPU time and their medians, the process's first evaluation (cold),
 * rule applications, v2's peak table sizes, peak RSS, the distribution.
 */
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import { print } from '../src/syntax/printer.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { resolveModel } from '../src/semantics/models/index.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { failureKey } from '../src/semantics/config.ts';
import { SHAPES } from './eval-v2-shapes.ts';
import { median } from './lib/stats.ts';

/**
 * `v2-general`: v2 without its deterministic fast path (`direct: false`), to measure what the fast path gives;
 * `v2-rounds`: v2 without frontier runs (`frontier: false`: round entries taken apart by the general machine);
 * `v2-unwarmed`: v2 without its warm-up evaluations (`warmUp: false`), to measure what they give.
 */
const task = JSON.parse(process.argv[2] ?? '{}') as {
  shape: string; n: number; engine: 'v2' | 'v2-general' | 'v2-rounds' | 'v2-unwarmed' | 'substitution'; repeats: number; warmup?: number; repeatBelowMs?: number;
};
const WARMUP = task.warmup ?? 0;
const REPEAT_BELOW_MS = task.repeatBelowMs ?? Infinity;
const shape = SHAPES[task.shape]!;
const lat = latticeByName('powerset-us')!;
const model = resolveModel(shape.model);
const prelude = loadPrelude(lat, model.preludeSource);
const expr = closeProgram(parse(shape.llmbda(task.n), lat), prelude);
const FUEL = 1_000_000_000;
const walls: number[] = [];
const cpus: number[] = [];
let cold: [number, number] | undefined;
let last: ReturnType<typeof evaluateV2<unknown>> | ReturnType<typeof evaluate<unknown>> | undefined;
try {
  for (let i = 0; walls.length < task.repeats; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = task.engine !== 'substitution'
      ? evaluateV2(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, expr, FUEL, { prelude, ...(task.engine === 'v2-general' ? { direct: false } : task.engine === 'v2-rounds' ? { frontier: false } : task.engine === 'v2-unwarmed' ? { warmUp: false } : {}) })
      : evaluate(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, expr, FUEL, { prelude, engine: 'substitution' });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    cold ??= [ms, cpu];
    if (i < WARMUP) continue;
    walls.push(ms);
    cpus.push(cpu);
    if (cpu >= REPEAT_BELOW_MS) break;
  }
  const r = last!;
  process.stdout.write(`${JSON.stringify({
    ok: true, ms: median(walls), cpuMs: median(cpus), runs: walls.length, walls, cpus, warmup: WARMUP,
    coldMs: cold![0], coldCpuMs: cold![1], steps: r.steps,
    peakMemo: 'peakMemo' in r ? r.peakMemo : undefined, peakRound: 'peakRound' in r ? r.peakRound : undefined,
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    mass: Q.show(r.mass), missing: r.missing.map((m) => `${Q.show(m.weight)} ${failureKey(m.failure)}`),
    dist: entries(r.finals).map(([f, w]) => [f.value.body.kind === 'num' ? Q.show(f.value.body.value) : f.value.body.kind === 'str' ? JSON.stringify(f.value.body.value) : print(f.value, lat), Q.show(w)]),
  })}\n`);
} catch (e) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : String(e) })}\n`);
}
