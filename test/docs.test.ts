/**
 * Docs that cannot go stale (docs/doctest.md): every `console` block of README.md, docs/*.md and
 * counterexamples/README.md is run in a scratch copy of the project and must show what it claims;
 * every other fenced block carries a language that says it is not command output; skipped blocks carry
 * a reason and are listed here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.ts';
import { checkInvocation, extractBlocks, lint, llmbdaInvocations, makeScratch, parseMarker, runBlock, strayMarkers, type DocBlock, type Scratch } from './helpers/doctest.ts';

const REPO = process.cwd();

/** The markdown files the package ships and a reader sees first. */
export const DOC_FILES: readonly string[] = [
  'README.md',
  ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
  'counterexamples/README.md',
];

const blocksOf = (file: string): DocBlock[] => extractBlocks(file, readFileSync(file, 'utf8'));
const ALL = DOC_FILES.flatMap(blocksOf);
const consoleBlocks = ALL.filter((b) => b.lang === 'console');
const skipped = consoleBlocks.flatMap((b) => {
  const m = parseMarker(b.markerText);
  return typeof m !== 'string' && m.kind === 'skip' ? [{ at: `${b.file}:${b.line}`, reason: m.reason }] : [];
});
const runnable = consoleBlocks.filter((b) => {
  const m = parseMarker(b.markerText);
  return typeof m !== 'string' && m.kind === 'run';
});

describe('docs: every fenced block is marked for the doc test', () => {
  it('no bare fences, no unknown languages, no bad or stray doctest markers', () => {
    const problems = [...DOC_FILES.flatMap((f) => strayMarkers(f, readFileSync(f, 'utf8'))), ...lint(ALL)];
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('the skipped console blocks, each with its reason', () => {
    // Listed on purpose: a skip is a block the test does not check, so it should be seen.
    console.log(`doc test: ${runnable.length} console blocks run, ${skipped.length} skipped:\n${skipped.map((s) => `  ${s.at}: ${s.reason}`).join('\n')}`);
    for (const s of skipped) expect(s.reason.length, s.at).toBeGreaterThan(10);
    expect(runnable.length).toBeGreaterThan(skipped.length);
  });
});

describe('docs: every llmbda command shown (sh, bash and console blocks) names a real command and real flags', () => {
  it('each invocation parses against the CLI\'s command tree', () => {
    const program = buildProgram({ exitCode: 0 });
    const shown = ALL.flatMap((b) => llmbdaInvocations(b).map((w) => ({ at: `${b.file}:${b.line}`, w })));
    const problems = shown.flatMap(({ at, w }) => {
      const p = checkInvocation(program, w);
      return p === undefined ? [] : [`${at}: ${p}  (llmbda ${w.join(' ')})`];
    });
    expect(problems, problems.join('\n')).toEqual([]);
    expect(shown.length).toBeGreaterThan(50);
  });
});

for (const file of DOC_FILES) {
  const blocks = runnable.filter((b) => b.file === file);
  if (blocks.length === 0) continue;
  // The blocks of one file run in order in one scratch copy (a block may use what an earlier one wrote).
  describe(`docs: ${file} shows what the commands print`, () => {
    let scratch: Scratch;
    beforeAll(() => {
      scratch = makeScratch(REPO, ['examples', 'counterexamples', 'tsconfig.json'], ['src', 'properties', 'node_modules']);
    });
    afterAll(() => scratch.dispose());
    for (const b of blocks) {
      it(`${b.file}:${b.line}`, async () => {
        const problem = await runBlock(b, scratch);
        expect(problem, `${b.file}:${b.line}\n${problem ?? ''}`).toBeUndefined();
      }, 300_000); // wall clock on a loaded machine; the whole doc test is about 60 s of CPU
    }
  });
}
