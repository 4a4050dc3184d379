/**
 * The doc-test runner itself (test/helpers/doctest.ts, docs/doctest.md) on fake docs: a block whose
 * claimed output is wrong fails, with the line where claim and output part ways; a right one passes;
 * excerpts, `[..]`, `...`, exit codes, skips without a reason, bare fences and stray markers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { checkInvocation, compareOutput, extractBlocks, lint, llmbdaInvocations, makeScratch, parseConsole, parseMarker, runBlock, shellWords, strayMarkers, type DocBlock, type Scratch } from './helpers/doctest.ts';

const REPO = process.cwd();

const doc = (s: string): DocBlock[] => extractBlocks('fake.md', s);

describe('doctest: extracting and linting blocks', () => {
  it('finds every fence with its language, line and the marker right above it', () => {
    const bs = doc('# T\n<!-- doctest: excerpt exit=1 -->\n```console\n$ echo hi\nhi\n```\n\n```ts\nlet x = 1;\n```\n');
    expect(bs.map((b) => [b.lang, b.line, b.markerText])).toEqual([['console', 3, 'excerpt exit=1'], ['ts', 8, undefined]]);
    expect(bs[0]!.body).toBe('$ echo hi\nhi');
  });

  it('reports a bare fence, an unknown language, a marker on a non-console block, a skip without reason', () => {
    const problems = lint(doc('```\nout\n```\n```rust\nx\n```\n<!-- doctest: excerpt -->\n```ts\nx\n```\n<!-- doctest: skip -->\n```console\n$ true\n```\n'));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^fake\.md:1: a fenced block needs a language/);
    expect(problems[1]).toMatch(/^fake\.md:4: unknown block language 'rust'/);
    expect(problems[2]).toMatch(/^fake\.md:8: a doctest marker above a 'ts' block/);
    expect(problems[3]).toMatch(/^fake\.md:12: a skip needs a reason/);
  });

  it('reports a marker not directly above a fence, and a console block without a command', () => {
    expect(strayMarkers('fake.md', '<!-- doctest: excerpt -->\n\n```console\n$ true\n```\n')).toEqual(['fake.md:1: doctest marker not directly above a fenced block']);
    expect(lint(doc('```console\njust output\n```\n'))[0]).toMatch(/starts with a `\$ command`/);
  });

  it('parses markers and continued commands', () => {
    expect(parseMarker(undefined)).toEqual({ kind: 'run', mode: 'verbatim', exit: 0 });
    expect(parseMarker('excerpt exit=4')).toEqual({ kind: 'run', mode: 'excerpt', exit: 4 });
    expect(parseMarker('skip takes 20 minutes')).toEqual({ kind: 'skip', reason: 'takes 20 minutes' });
    expect(parseMarker('fast')).toMatch(/unknown doctest option 'fast'/);
    expect(parseConsole('$ a \\\n  --b\nout\n$ c')).toEqual([{ command: 'a --b', expected: ['out'] }, { command: 'c', expected: [] }]);
  });
});

describe('doctest: comparing claimed and actual output', () => {
  const out = ['LEAK FOUND after 12 cases in 0.31 s', 'program: x', 'why: Σ max = 2 > 1'];
  it('verbatim: equal passes; one changed line fails and says where', () => {
    expect(compareOutput(out, out, 'verbatim')).toBeUndefined();
    const p = compareOutput(['LEAK FOUND after 12 cases in 0.31 s', 'program: y', 'why: Σ max = 2 > 1'], out, 'verbatim');
    expect(p).toMatch(/^output differs from line 2:\n {2}claimed: program: y\n {2}actual: {2}program: x/);
    expect(compareOutput(out.slice(0, 2), out, 'verbatim')).toMatch(/from line 3/); // a missing line fails too
  });
  it('verbatim: [..] matches within a line, ... matches any number of lines', () => {
    expect(compareOutput(['LEAK FOUND after [..] cases in [..] s', '...'], out, 'verbatim')).toBeUndefined();
    expect(compareOutput(['LEAK FOUND after [..] cases in [..] ms', '...'], out, 'verbatim')).toBeDefined();
  });
  it('excerpt: claimed lines in order pass, out of order or absent fail', () => {
    expect(compareOutput(['program: x', 'why: Σ max = 2 > 1'], out, 'excerpt')).toBeUndefined();
    expect(compareOutput(['why: Σ max = 2 > 1', 'program: x'], out, 'excerpt')).toMatch(/not found in the output/);
    expect(compareOutput(['program: y'], out, 'excerpt')).toMatch(/program: y/);
  });
});

describe('doctest: running blocks in a scratch copy', () => {
  let scratch: Scratch | undefined;
  const run = async (md: string): Promise<string | undefined> => {
    scratch ??= makeScratch(REPO, ['examples'], []);
    return runBlock(doc(md)[0]!, scratch);
  };

  it('a fake doc whose claimed output is wrong fails; with the right output it passes', async () => {
    expect(await run('```console\n$ printf "a\\nb\\n"\na\nb\n```\n')).toBeUndefined();
    expect(await run('```console\n$ printf "a\\nb\\n"\na\nc\n```\n')).toMatch(/claimed: c\n {2}actual: {2}b/);
  });

  it('checks the exit code (0 unless the marker says exit=N)', async () => {
    expect(await run('```console\n$ exit 1\n```\n')).toMatch(/exit code 1, the block expects 0/);
    expect(await run('<!-- doctest: exit=1 -->\n```console\n$ exit 1\n```\n')).toBeUndefined();
    // exit=N is the last command's; a setup command before it must succeed
    expect(await run('<!-- doctest: exit=1 -->\n```console\n$ true\n$ exit 1\n```\n')).toBeUndefined();
    expect(await run('<!-- doctest: exit=1 -->\n```console\n$ exit 1\n$ exit 1\n```\n')).toMatch(/exit code 1, the block expects 0/);
  });

  it('runs in the scratch copy, where npx llmbda is this checkout\'s CLI', async () => {
    expect(await run('```console\n$ ls examples/coins.lam\nexamples/coins.lam\n```\n')).toBeUndefined();
    expect(await run('```console\n$ npx llmbda --version\n0.0.0-wrong\n```\n')).toMatch(/claimed: 0\.0\.0-wrong/);
  });

  afterAll(() => scratch?.dispose());
});

describe('doctest: the llmbda commands a doc shows use real flags', () => {
  const tree = new Command('llmbda');
  tree.command('hunt').option('--variant <v>').option('--no-progress');
  tree.command('banking').command('table').option('--detail');

  it('splits shell words (quotes, comments) and finds invocations in sh and console blocks', () => {
    expect(shellWords(`npx llmbda run a.lam --model 'const:"ok"'   # a comment`)).toEqual(['npx', 'llmbda', 'run', 'a.lam', '--model', 'const:"ok"']);
    const [sh, con] = doc('```sh\nnpx llmbda hunt --variant x \\\n  --no-progress\nls\n```\n```console\n$ llmbda banking table\nllmbda output is not a command\n```\n');
    expect(llmbdaInvocations(sh!)).toEqual([['hunt', '--variant', 'x', '--no-progress']]);
    expect(llmbdaInvocations(con!)).toEqual([['banking', 'table']]);
  });

  it('accepts real commands and flags, reports an unknown flag, command or missing subcommand', () => {
    expect(checkInvocation(tree, ['hunt', '--variant', 'x', '--no-progress', '[--help]'])).toBeUndefined();
    expect(checkInvocation(tree, ['banking', 'table', '--detail'])).toBeUndefined();
    expect(checkInvocation(tree, ['hunt', '--variantt', 'x'])).toBe('llmbda hunt has no option --variantt');
    expect(checkInvocation(tree, ['banking', 'table', '--json'])).toBe('llmbda banking table has no option --json');
    expect(checkInvocation(tree, ['hunts'])).toBe('no such command: llmbda hunts');
    expect(checkInvocation(tree, ['banking'])).toMatch(/needs a subcommand: table/);
  });
});
