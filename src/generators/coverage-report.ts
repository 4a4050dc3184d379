/**
 * `npm run coverage:generators [-- --n N --seed S --no-doc]`: the construct × operand-shape coverage table
 * of the tuned and naive generators on every shipped lattice (see coverage.ts), printed and written to
 * the generated section of docs/generators.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { latticeByName } from '../lattice/registry.ts';
import { CONSTRUCTS, SHAPES, applicable, measureCoverage, type CoverageTable } from './coverage.ts';

const { values } = parseArgs({ options: { n: { type: 'string', default: '2000' }, seed: { type: 'string', default: '13' }, 'no-doc': { type: 'boolean', default: false } } });
const n = Number(values.n), seed = Number(values.seed);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(seed)) {
  process.stderr.write('usage: npm run coverage:generators -- [--n N] [--seed S] [--no-doc]\n');
  process.exit(2);
}

const pct = (x: number): string => (x === 0 ? '—' : x < 0.001 ? '<0.1%' : `${(100 * x).toFixed(1)}%`);
function table(t: CoverageTable): string {
  const head = `| construct \\ operand | ${SHAPES.join(' | ')} |\n|---|${SHAPES.map(() => '---:').join('|')}|`;
  const rows = CONSTRUCTS.map((c) => `| ${c} | ${SHAPES.map((s) => (applicable(c).includes(s) ? pct(t.cells[c][s]) : 'n/a')).join(' | ')} |`);
  const zero = CONSTRUCTS.flatMap((c) => applicable(c).filter((s) => t.cells[c][s] === 0).map((s) => `${c} × ${s}`));
  return `#### ${t.profile} generator on ${t.lattice} (${t.programs} programs)\n\n${head}\n${rows.join('\n')}\n\n` +
    `Unreached cells: ${zero.length === 0 ? 'none' : zero.join(', ')}.\n`;
}

const parts: string[] = [];
for (const lat of ['powerset-us', 'two-point', 'chain(3)']) {
  for (const profile of ['tuned', 'naive'] as const) {
    const t = measureCoverage(latticeByName(lat)!, { n, seed, profile });
    const s = table(t);
    process.stdout.write(`${s}\n`);
    parts.push(s);
  }
}

if (!values['no-doc']) {
  const file = new URL('../../docs/generators.md', import.meta.url);
  const begin = '<!-- BEGIN GENERATED coverage:generators -->', end = '<!-- END GENERATED coverage:generators -->';
  const doc = readFileSync(file, 'utf8');
  const i = doc.indexOf(begin), j = doc.indexOf(end);
  if (i < 0 || j < 0) throw new Error('docs/generators.md lacks the generated-section markers');
  const body = `${begin}\n\nWritten by \`npm run coverage:generators -- --n ${n} --seed ${seed}\`; each cell is the fraction of generated programs (side 0 of TIPNI pairs) in which the construct met an operand of that shape at run time, at least once; n/a: not applicable (indexing a scalar is just stuck); —: never reached.\n\n${parts.join('\n')}\n`;
  writeFileSync(file, doc.slice(0, i) + body + doc.slice(j));
}
