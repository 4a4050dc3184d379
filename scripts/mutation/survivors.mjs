#!/usr/bin/env node
// Reads Stryker's JSON report (reports/mutation/mutation.json) and prints, per file: mutants, killed,
// survived, no coverage, timeout, score; then every surviving / uncovered mutant with its line and
// replacement. `--markdown` prints the per-file table only (for docs/mutation.md).
import { readFileSync } from 'node:fs';

const path = process.argv.find((a) => a.endsWith('.json')) ?? 'reports/mutation/mutation.json';
const markdown = process.argv.includes('--markdown');
const report = JSON.parse(readFileSync(path, 'utf8'));
const rows = [];
const left = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  const count = (s) => mutants.filter((m) => m.status === s).length;
  const killed = count('Killed'), timeout = count('Timeout'), survived = count('Survived'), noCov = count('NoCoverage');
  const errors = count('CompileError') + count('RuntimeError');
  const ignored = count('Ignored');
  const valid = killed + timeout + survived + noCov;
  rows.push({ file, mutants: mutants.length, ignored, killed, timeout, survived, noCov, errors, score: valid ? (100 * (killed + timeout)) / valid : 100 });
  for (const m of mutants) if (m.status === 'Survived' || m.status === 'NoCoverage') left.push({ file, m });
}
if (markdown) {
  console.log('| file | mutants | static (not run) | killed | timed out | survived | no coverage | score |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| \`${r.file}\` | ${r.mutants} | ${r.ignored} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCov} | ${r.score.toFixed(2)} % |`);
  if (rows.length > 1) {
    const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
    const valid = sum('killed') + sum('timeout') + sum('survived') + sum('noCov');
    const score = valid ? (100 * (sum('killed') + sum('timeout'))) / valid : 100;
    console.log(`| **all ${rows.length} files** | ${sum('mutants')} | ${sum('ignored')} | ${sum('killed')} | ${sum('timeout')} | ${sum('survived')} | ${sum('noCov')} | ${score.toFixed(2)} % |`);
  }
} else {
  for (const r of rows) console.log(`${r.file}: ${r.mutants} mutants (${r.ignored} static, not run), ${r.killed} killed, ${r.timeout} timed out, ${r.survived} survived, ${r.noCov} no coverage, ${r.errors} errors: score ${r.score.toFixed(2)} %`);
  for (const { file, m } of left) {
    const { start, end } = m.location;
    console.log(`${m.status} #${m.id} ${file}:${start.line}:${start.column}-${end.line}:${end.column} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? '')}`);
  }
}
