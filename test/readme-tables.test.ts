/**
 * README's tables that name things in the code stay equal to the code: the suite table lists exactly the
 * suites `llmbda check --suite` accepts; the layout table lists the layers in test/layers.test.ts's order,
 * then every other top-level folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkSuiteNames } from '../src/api/registry.ts';
import { EXIT_CODES_HELP } from '../src/cli/exit-codes.ts';
import { LAYERS } from './helpers/layers.ts';

const README = readFileSync('README.md', 'utf8');

/** The first-column code names of the markdown table right after the heading or text `after`. */
function firstColumn(after: string): string[] {
  const start = README.indexOf(after);
  if (start < 0) throw new Error(`README has no '${after}'`);
  const lines = README.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[] = [];
  for (const l of lines.slice(first + 2)) {
    if (!l.startsWith('|')) break;
    const m = /^\|\s*`([^`]+)`/.exec(l);
    if (m) rows.push(m[1]!);
  }
  return rows;
}

describe('README tables match the code', () => {
  it('the suite table lists exactly the suites llmbda check accepts, in its order', () => {
    expect(firstColumn('### The suites')).toEqual(checkSuiteNames());
  });

  it('docs/README.md\'s code reading order names every layer, in the layers\' order', () => {
    const docs = readFileSync('docs/README.md', 'utf8');
    const order = docs.slice(docs.indexOf('Code reading order follows the layers'));
    const named = [...order.matchAll(/`((?:src\/[a-z0-9-]+)|properties)`/g)].map((m) => m[1]!);
    expect(named).toEqual(LAYERS.filter((l) => !l.endsWith('.ts')));
  });

  it('the exit-code tables of README.md and docs/ci.md list exactly the codes every --help lists', () => {
    const inHelp = [...EXIT_CODES_HELP.matchAll(/^ {2}(\d+) {2}/gm)].map((m) => m[1]!);
    expect(inHelp).toEqual(['0', '1', '2', '3', '4']);
    for (const text of [README, readFileSync('docs/ci.md', 'utf8')]) {
      const start = text.indexOf('| code | meaning |');
      const rows = text.slice(start).split('\n').slice(2).filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('|')));
      expect(rows.map((r) => /^\|\s*(\d+)\s*\|/.exec(r)?.[1])).toEqual(inHelp);
    }
  });

  it('the layout table lists the layers bottom to top, then every other top-level folder', () => {
    expect(firstColumn('## Layout (the pipeline)')).toEqual(LAYERS.filter((l) => !l.endsWith('.ts')));
    const others = readdirSync('.').filter((f) => !f.startsWith('.') && statSync(f).isDirectory() && !['node_modules', 'dist', 'coverage', 'src', 'properties', 'reports'].includes(f));
    expect(new Set(firstColumn('Outside the layers:'))).toEqual(new Set(others));
  });
});
