/**
 * One measurement of `bench:suites` (and bench:jit's TIPNI rows), run in its own process:
 * `node bench/suites-run.mjs ROOT SUITE LATTICE PROFILE RUNS SEED...`. Imports the checkout at ROOT's own COMPILED
 * package (ROOT/dist, built by its own `npm run build`): `runSuite`, `referenceCtx`, lattice registry and suite registry
 * (paths present at the old commit and now). With LLMBDA_BENCH_SOURCE=1 it imports ROOT's TypeScript sources instead,
 * and must then run under tsx (`--import tsx`; a bench's `--source`, bench/lib/measured.ts). Runs the suite once per
 * seed in this process and prints one JSON line: the CPU time (user + system) and wall time of the runs alone
 * (module loading excluded), cases and verdicts. Plain JavaScript, so that the process holds nothing but Node and the
 * package (no tsx loader thread).
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [root, suiteName, latName, profile, runsArg, ...seedArgs] = process.argv.slice(2);
if (!root || !suiteName || !latName || !profile || !runsArg || seedArgs.length === 0) {
  process.stderr.write('usage: node bench/suites-run.mjs ROOT SUITE LATTICE PROFILE RUNS SEED...\n');
  process.exit(2);
}
const source = process.env.LLMBDA_BENCH_SOURCE === '1';
const at = (p) => pathToFileURL(join(root, source ? `src/${p}.ts` : `dist/src/${p}.js`)).href;
const { runSuite } = await import(at('runner/suite'));
const { referenceCtx } = await import(at('llmbda/context'));
const { latticeByName } = await import(at('lattice/registry'));
const { LLMBDA_SUITES } = await import(at('api/registry'));
const suite = LLMBDA_SUITES.find((s) => s.name === suiteName);
const lat = latticeByName(latName);
if (!suite || !lat) { process.stderr.write(`unknown suite ${suiteName} or lattice ${latName}\n`); process.exit(2); }
const ctx = referenceCtx(lat, { profile });
const results = [];
for (const s of seedArgs) {
  const seed = Number(s);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const v = runSuite(suite, ctx, { runs: Number(runsArg), seed });
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  results.push({
    seed, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: wall, runs: v.runs, discarded: v.discarded,
    status: v.status ?? (v.ok ? 'holds' : v.counterexample ? 'fails' : 'vacuous'),
    ...(v.counterexample ? { path: v.counterexample.path, reason: v.counterexample.reason } : {}),
  });
}
process.stdout.write(`${JSON.stringify(results)}\n`);
