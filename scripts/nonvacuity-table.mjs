#!/usr/bin/env node
// The non-vacuity table of docs/properties.md, from `llmbda check --json` on stdin:
//   npx llmbda check --runs 2000 --seed 1 --json | node scripts/nonvacuity-table.mjs
// One row per LLMbda suite, one column per shipped lattice: each counter's share of cases (%), then the
// thresholds. A counter that is not `met` is marked with its status.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(0, 'utf8'));
const lattices = ['two-point', 'powerset-us', 'chain(3)'];
const rows = new Map();
for (const c of report.cases) {
  if (!lattices.includes(c.lattice)) continue;
  const row = rows.get(c.suite) ?? { counters: new Map() };
  rows.set(c.suite, row);
  for (const n of c.nonVacuity ?? []) {
    const counter = row.counters.get(n.counter) ?? { threshold: n.threshold?.decimal, byLattice: {} };
    row.counters.set(n.counter, counter);
    const pct = ((100 * n.count) / n.cases).toFixed(1);
    counter.byLattice[c.lattice] = n.status === 'met' ? pct : `${pct} (${n.status})`;
  }
}
const pct = (d) => `${Number((100 * Number(d)).toFixed(1))}`;
const out = [`| suite: counters | ${lattices.join(' | ')} | thresholds (≥ %) |`, `|---|${lattices.map(() => '---|').join('')}---|`];
for (const [suite, row] of rows) {
  const names = [...row.counters.keys()];
  if (names.length === 0) continue;
  if (suite === 'generators') {
    // The construct counters: only the two rarest per lattice.
    const cells = lattices.map((l) => names.map((n) => [n, Number.parseFloat(row.counters.get(n).byLattice[l])])
      .sort((a, b) => a[1] - b[1]).slice(0, 2).map(([n, v]) => `${n} ${v.toFixed(1)}`).join(', '));
    out.push(`| generators: two rarest of ${names.length} constructs | ${cells.join(' | ')} | each ${pct(row.counters.get(names[0]).threshold)} |`);
    continue;
  }
  const cells = lattices.map((l) => names.map((n) => row.counters.get(n).byLattice[l] ?? '–').join(' / '));
  out.push(`| ${suite}: ${names.join(' / ')} | ${cells.join(' | ')} | ${names.map((n) => pct(row.counters.get(n).threshold)).join(' / ')} |`);
}
process.stdout.write(`${out.join('\n')}\n`);
