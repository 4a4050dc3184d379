/**
 * One measurement of `npm run bench:eval-v2` (and bench:eval-v2-loops, bench:jit, bench:warm-up), in its own
 * process (so peak memory is this run's): argv[2] = JSON `{program, model, engine, repeats, warmup?,
 * repeatBelowMs?, source?}` (`bench/lib/measured.ts`'s `evalTask`). The same protocol as bench/webppl-runner.cjs:
 * `warmup` unmeasured evaluations first, then measured ones, repeated while an evaluation takes less CPU than
 * `repeatBelowMs` (default: always), up to `repeats`. Prints one JSON line: every measured run's wall and CPU time
 * and their medians, the process's first evaluation (cold), rule applications, v2's peak table sizes, peak RSS,
 * the distribution.
 *
 * Plain JavaScript on purpose: it runs the COMPILED package (dist/, what `llmbda` and the package's exports run)
 * under plain `node`, as WebPPL's runner runs WebPPL, so the measuring process holds nothing but Node and the
 * package. With `source: true` (a bench's `--source`) it imports the TypeScript sources instead, and must then be
 * started under tsx (`--import tsx`), whose loader thread costs the process ≈ 34 MB and CPU of its own
 * (docs/benchmarks.md, "What the measuring process runs").
 */
const task = JSON.parse(process.argv[2] ?? '{}');
const at = (p) => new URL(task.source ? `../src/${p}.ts` : `../dist/src/${p}.js`, import.meta.url).href;
const Q = await import(at('distributions/rational'));
const { entries } = await import(at('distributions/subdist'));
const { latticeByName } = await import(at('lattice/registry'));
const { parse } = await import(at('syntax/parser'));
const { print } = await import(at('syntax/printer'));
const { evaluate } = await import(at('semantics/evaluate'));
const { evaluateV2 } = await import(at('semantics/v2/index'));
const { resolveModel } = await import(at('semantics/models/index'));
const { closeProgram, loadPrelude } = await import(at('semantics/prelude'));
const { failureKey } = await import(at('semantics/config'));

/**
 * `v2-general`: v2 without its deterministic fast path (`direct: false`), to measure what the fast path gives;
 * `v2-rounds`: v2 without frontier runs (`frontier: false`: round entries taken apart by the general machine);
 * `v2-unwarmed`: v2 without its warm-up evaluations (`warmUp: false`), to measure what they give.
 */
const V2_OPTIONS = { v2: {}, 'v2-general': { direct: false }, 'v2-rounds': { frontier: false }, 'v2-unwarmed': { warmUp: false } };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const WARMUP = task.warmup ?? 0;
const REPEAT_BELOW_MS = task.repeatBelowMs ?? Infinity;
const FUEL = 1_000_000_000;
try {
  if (typeof task.program !== 'string' || typeof task.model !== 'string') throw new Error('task needs program and model');
  if (task.engine !== 'substitution' && !(task.engine in V2_OPTIONS)) throw new Error(`unknown engine ${task.engine}`);
  const lat = latticeByName('powerset-us');
  const model = resolveModel(task.model);
  const prelude = loadPrelude(lat, model.preludeSource);
  const expr = closeProgram(parse(task.program, lat), prelude);
  const conv = { label: lat.bottom, messages: [] };
  const walls = [];
  const cpus = [];
  let cold;
  let last;
  for (let i = 0; walls.length < task.repeats; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = task.engine === 'substitution'
      ? evaluate(model, lat, lat.bottom, conv, expr, FUEL, { prelude, engine: 'substitution' })
      : evaluateV2(model, lat, lat.bottom, conv, expr, FUEL, { prelude, ...V2_OPTIONS[task.engine] });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1000;
    cold ??= [ms, cpu];
    if (i < WARMUP) continue;
    walls.push(ms);
    cpus.push(cpu);
    if (cpu >= REPEAT_BELOW_MS) break;
  }
  const r = last;
  const show = (v) => (v.body.kind === 'num' ? Q.show(v.body.value) : v.body.kind === 'str' ? JSON.stringify(v.body.value) : print(v, lat));
  process.stdout.write(`${JSON.stringify({
    ok: true, ms: median(walls), cpuMs: median(cpus), runs: walls.length, walls, cpus, warmup: WARMUP,
    coldMs: cold[0], coldCpuMs: cold[1], steps: r.steps,
    peakMemo: 'peakMemo' in r ? r.peakMemo : undefined, peakRound: 'peakRound' in r ? r.peakRound : undefined,
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    mass: Q.show(r.mass), missing: r.missing.map((m) => `${Q.show(m.weight)} ${failureKey(m.failure)}`),
    dist: entries(r.finals).map(([f, w]) => [show(f.value), Q.show(w)]),
  })}\n`);
} catch (e) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: e instanceof Error ? `${e.name}: ${e.message.slice(0, 200)}` : String(e) })}\n`);
}
