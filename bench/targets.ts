/**
 * `npm run bench:targets`: how fast the target suites find the three real-world faults planted in the
 * example environment-based interpreter (examples/targets/env-interpreter.ts, issue 13), the way
 * `bench:mttf` measures catalogue variants: `--trials` trials with distinct seeds per (fault, lattice),
 * shrinking off, each until the first failure or the cap; the correct interpreter gets the same suites
 * as a control and must report nothing. Tables go to stdout and to docs/benchmarks.md.
 *
 * Flags: --quick (3 trials, 10 s cap), --trials N, --cap SECONDS, --no-doc.
 */
import { parseArgs } from 'node:util';
import { renderTable } from '../src/util/table.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { hashString } from '../src/semantics/models/index.ts';
import { runTargetSuite, targetDiff, targetTipni, type AnyTargetSuite } from '../src/targets/suites.ts';
import { makeEnvTarget } from '../examples/targets/env-target.ts';
import type { Faults } from '../examples/targets/env-interpreter.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { mean, median, showMs } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false }, trials: { type: 'string' }, cap: { type: 'string' }, 'no-doc': { type: 'boolean', default: false } } });
const TRIALS = Number(flags.trials ?? (flags.quick ? 3 : 10));
const CAP_MS = 1000 * Number(flags.cap ?? (flags.quick ? 10 : 60));
const FAULTS: readonly [keyof Faults, AnyTargetSuite][] = [['binopTopLabels', targetTipni], ['varTopLabel', targetDiff], ['deepLabelWalksEnv', targetDiff]];
const LATTICES = ['two-point', 'powerset-us', 'chain(3)'];

const rows: string[][] = [];
const started = Date.now();
for (const [fault, suite] of FAULTS) {
  for (const name of LATTICES) {
    const tests: number[] = [], times: number[] = [];
    let found = 0;
    for (let t = 0; t < TRIALS; t++) {
      const seed = (hashString(`${fault}/${name}`) + 7919 * t) % 2_147_483_647;
      const v = await runTargetSuite(suite, { target: makeEnvTarget(latticeByName(name)!, { [fault]: true }), profile: 'tuned' }, { runs: 1_000_000, seed, noShrink: true, timeoutMs: CAP_MS });
      if (v.counterexample) { found++; tests.push(v.counterexample.testsToFailure); times.push(v.timeMs); }
      process.stderr.write(`  ${fault} on ${name}, trial ${t + 1}: ${v.counterexample ? `found after ${v.counterexample.testsToFailure} tests, ${showMs(v.timeMs)}` : `nothing in ${v.runs} tests`}\n`);
    }
    rows.push([fault, name, suite.name, `${found}/${TRIALS}`, found ? String(Math.round(mean(tests))) : '—', found ? String(median(tests)) : '—', found ? showMs(mean(times)) : '—', found ? showMs(Math.max(...times)) : '—']);
  }
}
const controls: string[][] = [];
for (const name of LATTICES) {
  for (const suite of [targetTipni, targetDiff] as AnyTargetSuite[]) {
    const v = await runTargetSuite(suite, { target: makeEnvTarget(latticeByName(name)!), profile: 'tuned' }, { runs: 2000, seed: 1, noShrink: true, timeoutMs: CAP_MS });
    controls.push(['correct interpreter', name, suite.name, String(v.runs), v.counterexample ? 'FLAGGED' : 'nothing found']);
  }
}
const header = ['fault', 'lattice', 'suite', 'found', 'mean tests', 'median tests', 'mean time', 'max time'];
process.stdout.write(`\n${renderTable(header, rows)}\n\n${renderTable(['control', 'lattice', 'suite', 'cases', 'result'], controls)}\n`);
if (!flags['no-doc']) {
  const cmd = `npm run bench:targets${flags.quick ? ' -- --quick' : ''}`;
  updateDoc('bench:targets', [
    '### Real-world faults in the example target (`npm run bench:targets`)', '',
    machineMarkdown(machineInfo([]), cmd, [`${TRIALS} trials per (fault, lattice), distinct seeds, shrinking off, cap ${CAP_MS / 1000} s; total ${Math.round((Date.now() - started) / 1000)} s.`]), '',
    mdTable(header, rows), '', mdTable(['control', 'lattice', 'suite', 'cases', 'result'], controls), '',
  ].join('\n'));
}
