/**
 * stryker.config.mjs mutates only a line range of src/semantics/ev.ts (the helpers the rules use, `join`
 * … `serialise`; docs/mutation.md). Lines move when ev.ts is edited, and a stale range silently mutates
 * other code (it had drifted onto `checkOutcomes` and `sum`): the range must start at `join` and end at
 * `serialise`.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';

describe('the Stryker configuration', () => {
  it("mutates exactly ev.ts's rule helpers, join … serialise", () => {
    const config = readFileSync(new URL('../stryker.config.mjs', import.meta.url), 'utf8');
    const ranges = [...config.matchAll(/^\s*'src\/semantics\/ev\.ts:(\d+)-(\d+)',/gm)];
    expect(ranges).toHaveLength(1);
    const [from, to] = [Number(ranges[0]![1]), Number(ranges[0]![2])];
    const lines = readFileSync(new URL('../src/semantics/ev.ts', import.meta.url), 'utf8').split('\n');
    expect(lines[from - 1]).toMatch(/^ {2}join\(/);
    expect(lines[to - 1]).toMatch(/^ {2}serialise\(/);
  });

  // v2's files are measured against the v2 tests only (LLMBDA_MUTATION_V2, docs/mutation.md), taken from this list:
  // a v2 test file missing from it (test/v2-frontier.test.ts was, for a day) judges no mutant of the code it tests.
  it('lists every v2 test file for the mutation run', () => {
    const config = readFileSync(new URL('../vitest.mutation.config.ts', import.meta.url), 'utf8');
    const listed = new Set([...config.matchAll(/^\s*'(test\/[^']+)',/gm)].map((m) => m[1]));
    const v2Tests = readdirSync(new URL('.', import.meta.url)).filter((f) => /^v2-.*\.test\.ts$/.test(f)).map((f) => `test/${f}`);
    expect(v2Tests.length).toBeGreaterThan(5);
    expect(v2Tests.filter((f) => !listed.has(f))).toEqual([]);
  });
});
