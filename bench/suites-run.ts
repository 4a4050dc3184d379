/**
 * One measurement of `bench:suites`, run in its own process with the checkout to measure as the working
 * directory's sources: `tsx bench/suites-run.ts ROOT SUITE LATTICE PROFILE RUNS SEED...`. Imports that
 * checkout's own `runSuite`, `referenceCtx`, lattice registry and suite registry (paths present at the old
 * commit and now), runs the suite once per seed in this process, and prints one JSON line: the CPU time
 * (user + system) and wall time of the runs alone (module loading excluded), cases and verdicts.
 */
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [root, suiteName, latName, profile, runsArg, ...seedArgs] = process.argv.slice(2);
if (!root || !suiteName || !latName || !profile || !runsArg || seedArgs.length === 0) {
  process.stderr.write('usage: tsx bench/suites-run.ts ROOT SUITE LATTICE PROFILE RUNS SEED...\n');
  process.exit(2);
}
const at = (p: string): string => pathToFileURL(join(root, p)).href;
interface V { readonly runs: number; readonly discarded: number; readonly status?: string; readonly ok: boolean; readonly counterexample?: { readonly path: string; readonly reason: string } }
const { runSuite } = (await import(at('src/runner/suite.ts'))) as { runSuite: (s: unknown, c: unknown, o: { runs: number; seed: number }) => V };
const { referenceCtx } = (await import(at('src/llmbda/context.ts'))) as { referenceCtx: (l: unknown, x: object) => unknown };
const { latticeByName } = (await import(at('src/lattice/registry.ts'))) as { latticeByName: (n: string) => unknown };
const { LLMBDA_SUITES } = (await import(at('src/api/registry.ts'))) as { LLMBDA_SUITES: readonly { name: string }[] };
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
