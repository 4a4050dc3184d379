// WebPPL side of `npm run bench:eval` and `bench:eval-v2`: reads a WebPPL program on stdin, compiles it,
// prints {"compiled": ms}, runs it (the program's value must be a distribution) and prints one JSON line:
//   {compileMs, inferMs, coldMs, runs, times, cpus, warmup, medianMs, medianCpuMs, coldCpuMs, maxRssMB, dist}.
// BENCH_WARMUP runs are made first and not measured (steady state); then measured runs, repeated (same
// process, same compiled code) while a run takes less CPU than BENCH_REPEAT_BELOW_MS, up to BENCH_MAX_RUNS. Per run: wall time
// of inference and CPU time of this process (process.cpuUsage: user + system, every thread of the process,
// so GC helper threads count, as they do for the LLMbda side). inferMs is the fastest wall time (what
// `bench:eval` reports); coldMs / coldCpuMs the first run of the process (warm-up runs included in "first");
// maxRssMB the peak resident set of this process (process.resourceUsage().maxRSS).
// CommonJS because webppl is; run in a fresh process per measurement so the parent can kill it at its cap.
'use strict';
const webppl = require('webppl');

const REPEAT_BELOW_MS = Number(process.env.BENCH_REPEAT_BELOW_MS ?? 1000);
const MAX_RUNS = Number(process.env.BENCH_MAX_RUNS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 0);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

let source = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { source += chunk; });
process.stdin.on('end', () => {
  const t0 = performance.now();
  const compiled = webppl.compile(source);
  const compileMs = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ compiled: compileMs })}\n`);
  const times = [];
  const cpus = [];
  let cold;
  let warmLeft = WARMUP;
  let dist;
  const once = () => {
    const c0 = process.cpuUsage();
    const t1 = performance.now();
    webppl.prepare(compiled, (_store, d) => {
      const ms = performance.now() - t1;
      const c = process.cpuUsage(c0);
      const cpu = (c.user + c.system) / 1000;
      if (cold === undefined) cold = [ms, cpu];
      if (dist === undefined) dist = Object.values(d.getDist()).map((x) => [x.val, x.prob]);
      if (warmLeft > 0) warmLeft--;
      else { times.push(ms); cpus.push(cpu); }
      if (warmLeft > 0 || (times.length < MAX_RUNS && cpu < REPEAT_BELOW_MS)) {
        setImmediate(once); // leave the trampoline before starting the next run
        return;
      }
      process.stdout.write(`${JSON.stringify({
        compileMs, inferMs: Math.min(...times), coldMs: cold[0], runs: times.length, times, cpus, warmup: WARMUP,
        medianMs: median(times), medianCpuMs: median(cpus), coldCpuMs: cold[1],
        maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024), dist,
      })}\n`);
    }).run();
  };
  once();
});
