/**
 * Measure the catalogue: for every unsound variant and every lattice it should leak on, hunt with a
 * few seeds and record cases and wall time to the first failure, and the counterexample size as
 * fast-check left it and after the minimiser. Prints a Markdown table (docs/variants.md quotes it).
 *
 *   npx tsx scripts/hunt/measure.ts [--seeds 5] [--variant NAME] [--json]
 */
import { CATALOGUE } from '../../src/variants/catalogue.ts';
import { hunt } from '../../src/api/hunt.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const seeds = Number(flag('--seeds') ?? '5');
const only = flag('--variant');
const json = args.includes('--json');

interface Row { variant: string; lattice: string; suite: string; found: number; seeds: number; cases: number[]; ms: number[]; shrunk: number[]; size: number[]; totalMs: number[] }
const rows: Row[] = [];
const median = (xs: number[]): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
for (const v of CATALOGUE) {
  if (only && v.name !== only) continue;
  for (const lattice of v.expected?.leaksOn ?? []) {
    const row: Row = { variant: v.name, lattice, suite: v.expected?.caughtBy ?? 'tipni', found: 0, seeds, cases: [], ms: [], shrunk: [], size: [], totalMs: [] };
    for (let s = 1; s <= seeds; s++) {
      const t0 = performance.now();
      const r = await hunt({ variant: v.name, lattices: [lattice], seed: s, timeMs: 30_000, save: false });
      row.totalMs.push(performance.now() - t0);
      if (!r.finding) continue;
      row.found++;
      row.cases.push(r.finding.testsToFailure);
      row.ms.push(r.finding.timeToFailureMs);
      row.shrunk.push(r.finding.shrunkSize);
      row.size.push(r.finding.size);
    }
    rows.push(row);
    if (!json) process.stderr.write(`${v.name} ${lattice}: ${row.found}/${seeds}, sizes ${row.size.join(',')}\n`);
  }
}
if (json) {
  process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
} else {
  process.stdout.write('| variant | lattice | suite | found | median cases to failure | median time to failure | max time to failure | max hunt time (with shrinking) | size after fast-check (median) | size after minimiser (min–max) |\n|---|---|---|---|---|---|---|---|---|---|\n');
  for (const r of rows) {
    process.stdout.write(`| \`${r.variant}\` | ${r.lattice} | ${r.suite} | ${r.found}/${r.seeds} | ${median(r.cases)} | ${(median(r.ms) / 1000).toFixed(2)} s | ${(Math.max(...r.ms) / 1000).toFixed(2)} s | ${(Math.max(...r.totalMs) / 1000).toFixed(1)} s | ${median(r.shrunk)} | ${Math.min(...r.size)}–${Math.max(...r.size)} |\n`);
  }
}
