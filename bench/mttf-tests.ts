/**
 * `npm run bench:mttf-tests`: tests-to-failure only, per variant × lattice × profile — the
 * load-independent half of `bench:mttf`, fast enough to iterate on the generators with.
 *
 * Each trial hunts (shrinking off) until the first failure or `--max-tests` cases; an unsolved trial
 * counts as `--max-tests` (the mean is then a lower bound, shown `≥`). Seeds are `bench:mttf`'s with
 * `--seed-offset` added to the trial number, so tuning can use seeds the benchmark does not (offset
 * ≥ its trial count) and then be checked on the benchmark's own (offset 0). Writes nothing to docs.
 *
 * Flags: --trials N (default 20), --seed-offset K (default 100), --max-tests N (default 20000),
 * --cap SECONDS per trial (default 60), --workers N, --variant NAME (repeatable), --lattice NAME
 * (repeatable), --profile tuned|naive (repeatable; default both).
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { renderTable } from '../src/util/table.ts';
import { CATALOGUE } from '../src/variants/catalogue.ts';
import { hashString } from '../src/semantics/models/index.ts';
import type { Profile } from '../src/generators/programs.ts';
import type { TrialJob, TrialResult } from './mttf-worker.ts';
import { runPool } from './lib/pool.ts';
import { geomean, mean, median } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    'seed-offset': { type: 'string', default: '100' },
    'max-tests': { type: 'string', default: '20000' },
    cap: { type: 'string', default: '60' },
    workers: { type: 'string' },
    variant: { type: 'string', multiple: true },
    lattice: { type: 'string', multiple: true },
    profile: { type: 'string', multiple: true },
  },
});

const TRIALS = Number(flags.trials);
const OFFSET = Number(flags['seed-offset']);
const MAX_TESTS = Number(flags['max-tests']);
const CAP_MS = 1000 * Number(flags.cap);
const WORKERS = Number(flags.workers ?? availableParallelism());
const PROFILES = (flags.profile ?? ['tuned', 'naive']) as Profile[];
if (![TRIALS, OFFSET, MAX_TESTS, WORKERS].every((x) => Number.isInteger(x) && x >= 0) || TRIALS < 1 || MAX_TESTS < 1 || WORKERS < 1 || !(CAP_MS > 0)
  || PROFILES.some((p) => p !== 'tuned' && p !== 'naive')) {
  process.stderr.write('usage: npm run bench:mttf-tests -- [--trials N] [--seed-offset K] [--max-tests N] [--cap S] [--workers N] [--variant NAME]… [--lattice NAME]… [--profile tuned|naive]…\n');
  process.exit(2);
}

/** `bench:mttf`'s seeds (bench/mttf.ts `seedOf`). */
const seedOf = (variant: string, lattice: string, trial: number): number => (hashString(`${variant}/${lattice}`) + 7919 * trial) % 2_147_483_647;

const jobs: TrialJob[] = [];
for (const v of CATALOGUE) {
  if (flags.variant && !flags.variant.includes(v.name)) continue;
  for (const lattice of v.expected?.leaksOn ?? []) {
    if (flags.lattice && !flags.lattice.includes(lattice)) continue;
    for (let t = 0; t < TRIALS; t++) {
      for (const profile of PROFILES) {
        jobs.push({ variant: v.name, lattice, suite: v.expected?.caughtBy ?? 'tipni', profile, seed: seedOf(v.name, lattice, OFFSET + t), capMs: CAP_MS, control: false, huntOnly: true, maxTests: MAX_TESTS });
      }
    }
  }
}

const started = performance.now();
const results = (await runPool<TrialJob, TrialResult>(jobs, { entry: 'mttf-worker.ts', workers: WORKERS, stackSizeMb: 64 }))
  .filter((r): r is TrialResult => r !== undefined);
const key = (j: TrialJob): string => `${j.variant}\u0000${j.lattice}`;
const rows = [...new Set(results.map((r) => key(r.job)))];
const testsOf = (r: TrialResult): number => (r.found ? r.tests : MAX_TESTS);
const cell = (k: string, p: Profile): { mean: number; median: number; solved: number; n: number } | undefined => {
  const rs = results.filter((r) => key(r.job) === k && r.job.profile === p);
  if (rs.length === 0) return undefined;
  const xs = rs.map(testsOf);
  return { mean: mean(xs), median: median(xs), solved: rs.filter((r) => r.found).length, n: rs.length };
};
const show = (c: ReturnType<typeof cell>): string => (c ? `${c.solved < c.n ? '≥ ' : ''}${c.mean.toFixed(0)} (${c.median.toFixed(0)})` : '—');
const table = rows.map((k) => {
  const [variant, lattice] = k.split('\u0000') as [string, string];
  const t = cell(k, 'tuned');
  const n = cell(k, 'naive');
  return [variant, lattice, ...PROFILES.map((p) => show(cell(k, p))),
    t && n ? (n.mean / t.mean).toFixed(2) : '—', t && n ? (t.mean <= n.mean ? 'yes' : 'NO') : '—'];
});
process.stdout.write(`${renderTable(['variant', 'lattice', ...PROFILES.map((p) => `${p} mean (median) tests`), 'naive / tuned', 'tuned ≤ naive'], table)}\n`);
for (const p of PROFILES) {
  const means = rows.map((k) => cell(k, p)?.mean).filter((x): x is number => x !== undefined);
  process.stdout.write(`${p}: geometric mean of row means ${geomean(means).toFixed(1)} tests, worst row ${Math.max(...means).toFixed(0)}\n`);
}
process.stdout.write(`${jobs.length} trials, seeds trial ${OFFSET}…${OFFSET + TRIALS - 1}, ${((performance.now() - started) / 1000).toFixed(1)} s on ${WORKERS} workers\n`);
