// WebPPL side of `npm run bench:eval`: reads a WebPPL program on stdin, compiles it, prints
// {"compiled": ms}, runs it (the program's value must be a distribution) and prints
// {"compileMs", "inferMs", "coldMs", "runs", "dist": [[value, probability], …]} as one JSON line each.
// A run under REPEAT_BELOW_MS is repeated (same process, same compiled code) up to MAX_RUNS times and the
// fastest is reported as inferMs, exactly as the LLMbda worker does; coldMs is the first run.
// CommonJS because webppl is; run in a fresh process per measurement so the parent can kill it at its cap.
'use strict';
const webppl = require('webppl');

const REPEAT_BELOW_MS = Number(process.env.BENCH_REPEAT_BELOW_MS ?? 1000);
const MAX_RUNS = Number(process.env.BENCH_MAX_RUNS ?? 3);

let source = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { source += chunk; });
process.stdin.on('end', () => {
  const t0 = performance.now();
  const compiled = webppl.compile(source);
  const compileMs = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ compiled: compileMs })}\n`);
  const times = [];
  let dist;
  const once = () => {
    const t1 = performance.now();
    webppl.prepare(compiled, (_store, d) => {
      const ms = performance.now() - t1;
      times.push(ms);
      if (dist === undefined) dist = Object.values(d.getDist()).map((x) => [x.val, x.prob]);
      if (times.length < MAX_RUNS && ms < REPEAT_BELOW_MS) {
        setImmediate(once); // leave the trampoline before starting the next run
        return;
      }
      process.stdout.write(`${JSON.stringify({ compileMs, inferMs: Math.min(...times), coldMs: times[0], runs: times.length, dist })}\n`);
    }).run();
  };
  once();
});
