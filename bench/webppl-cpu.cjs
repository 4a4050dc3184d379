// WebPPL side of `npm run bench:eval-v2-loops` with CPU time: argv[2] = JSON {source, runs}. Compiles the
// program once, runs it `runs` times in this process (same compiled code, as bench/webppl-runner.cjs) and
// prints one JSON line {compileMs, cpuMs, wallMs, cpuRuns, wallRuns, dist}: cpuMs is the median CPU time
// (user + system, process.cpuUsage) of a run, wallMs its median wall time. CPU time is what the LLMbda side
// reports, so the ratio of the two does not count the time either process waited for a core on a loaded
// machine (webppl-runner.cjs's inference wall time does).
'use strict';
const webppl = require('webppl');

const task = JSON.parse(process.argv[2] ?? '{}');
const runs = Math.max(1, Number(task.runs ?? 3));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const t0 = performance.now();
const compiled = webppl.compile(task.source);
const compileMs = performance.now() - t0;
const cpus = [];
const walls = [];
let dist;
const once = () => {
  const c0 = process.cpuUsage();
  const t1 = performance.now();
  webppl.prepare(compiled, (_store, d) => {
    const wall = performance.now() - t1;
    const c = process.cpuUsage(c0);
    cpus.push((c.user + c.system) / 1000);
    walls.push(wall);
    if (dist === undefined) dist = Object.values(d.getDist()).map((x) => [x.val, x.prob]);
    if (cpus.length < runs) { setImmediate(once); return; }
    process.stdout.write(`${JSON.stringify({ compileMs, cpuMs: median(cpus), wallMs: median(walls), cpuRuns: cpus, wallRuns: walls, dist })}\n`);
  }).run();
};
once();
