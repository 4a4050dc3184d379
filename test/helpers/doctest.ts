/**
 * The doc-test runner (docs/doctest.md): every fenced block of README.md and docs/*.md is extracted,
 * `console` blocks (a `$ command` and the output it claims) are run in a scratch copy of the project and
 * their output compared with the claim, verbatim or as a marked excerpt. Bad or unmarked blocks are
 * reported as lint problems, so a block cannot silently escape the test.
 */
import { execFile } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the `<!-- doctest: … -->` line right above a fence says. */
export type Marker =
  | { readonly kind: 'run'; readonly mode: 'verbatim' | 'excerpt'; readonly exit: number }
  | { readonly kind: 'skip'; readonly reason: string };

/** One fenced block of a markdown file. */
export interface DocBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The info string's first word ('' for a bare fence). */
  readonly lang: string;
  readonly body: string;
  /** The raw marker text (after `doctest:`), when the line above the fence is a doctest comment. */
  readonly markerText: string | undefined;
}

/** One `$ command` of a console block and the output lines it claims. */
export interface Step {
  readonly command: string;
  readonly expected: readonly string[];
}

/** The languages a fenced block may carry without running; `console` is the one that runs. */
export const QUIET_LANGS: ReadonlySet<string> = new Set(['sh', 'bash', 'ts', 'js', 'json', 'python', 'lam', 'text', 'ebnf']);

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*doctest:\s*([\s\S]*?)\s*-->\s*$/;

/** Every fenced block of `text`, with the doctest marker on the line right above it (if any). */
export function extractBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const fence = open[2]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j]!;
      if (l.trim().startsWith(fence[0]!.repeat(fence.length)) && l.trim().replace(/[`~]/g, '') === '') break;
      body.push(l.startsWith(open[1]!) ? l.slice(open[1]!.length) : l);
    }
    const above = i > 0 ? MARKER.exec(lines[i - 1]!) : null;
    blocks.push({ file, line: i + 1, lang: open[3]!, body: body.join('\n'), markerText: above ? above[1]! : undefined });
    i = j;
  }
  return blocks;
}

/** Doctest comments that are not right above a fence (a misplaced marker would silently do nothing). */
export function strayMarkers(file: string, text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (MARKER.test(l) && !FENCE.test(lines[i + 1] ?? '')) out.push(`${file}:${i + 1}: doctest marker not directly above a fenced block`);
  });
  return out;
}

/** Parse a marker's text: `skip REASON`, or any of `verbatim`, `excerpt`, `exit=N`. */
export function parseMarker(text: string | undefined): Marker | string {
  if (text === undefined) return { kind: 'run', mode: 'verbatim', exit: 0 };
  const skip = /^skip\b\s*(.*)$/s.exec(text);
  if (skip) return skip[1]!.trim() === '' ? 'a skip needs a reason: <!-- doctest: skip WHY -->' : { kind: 'skip', reason: skip[1]!.trim() };
  let mode: 'verbatim' | 'excerpt' = 'verbatim';
  let exit = 0;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const e = /^exit=(\d+)$/.exec(word);
    if (word === 'verbatim' || word === 'excerpt') mode = word;
    else if (e) exit = Number(e[1]);
    else return `unknown doctest option '${word}' (expected verbatim, excerpt, exit=N or skip REASON)`;
  }
  return { kind: 'run', mode, exit };
}

/**
 * The steps of a console block: a line starting with `$ ` is a command (a trailing `\` continues it on the
 * next line), the lines up to the next command are its claimed output.
 */
export function parseConsole(body: string): Step[] | string {
  const steps: { command: string; expected: string[] }[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.startsWith('$ ')) {
      let command = l.slice(2);
      while (command.endsWith('\\') && i + 1 < lines.length) command = `${command.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
      steps.push({ command, expected: [] });
    } else if (steps.length === 0) {
      if (l.trim() !== '') return 'a console block starts with a `$ command` line';
    } else steps[steps.length - 1]!.expected.push(l);
  }
  if (steps.length === 0) return 'a console block has no `$ command` line';
  return steps;
}

/** Every lint problem of one file's blocks: bare fences, unknown languages, bad or misplaced markers. */
export function lint(blocks: readonly DocBlock[]): string[] {
  const problems: string[] = [];
  for (const b of blocks) {
    const at = `${b.file}:${b.line}`;
    if (b.lang === '') problems.push(`${at}: a fenced block needs a language: console (runs, docs/doctest.md), or one of ${[...QUIET_LANGS].join(', ')}`);
    else if (b.lang !== 'console' && !QUIET_LANGS.has(b.lang)) problems.push(`${at}: unknown block language '${b.lang}'`);
    if (b.lang !== 'console') {
      if (b.markerText !== undefined) problems.push(`${at}: a doctest marker above a '${b.lang}' block (only console blocks run)`);
      continue;
    }
    const m = parseMarker(b.markerText);
    if (typeof m === 'string') problems.push(`${at}: ${m}`);
    const s = parseConsole(b.body);
    if (typeof s === 'string') problems.push(`${at}: ${s}`);
  }
  return problems;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Output as compared: no colour escapes, no trailing spaces, no trailing blank lines. */
export function normalise(text: string): string[] {
  const lines = text.replace(ANSI, '').replace(/\r\n/g, '\n').split('\n').map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** One claimed line against one actual line: `[..]` in the claim matches any run of characters. */
export function lineMatches(claim: string, actual: string): boolean {
  const trimmed = claim.trimEnd();
  if (!trimmed.includes('[..]')) return trimmed === actual;
  const re = trimmed.split('[..]').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${re}$`).test(actual);
}

/**
 * Where the claim and the output part ways, or undefined when the output shows what the block claims.
 * Verbatim: line by line, a claimed line `...` standing for any number of lines. Excerpt: every claimed
 * line appears in the output, in order, with anything in between.
 */
export function compareOutput(claimed: readonly string[], actual: readonly string[], mode: 'verbatim' | 'excerpt'): string | undefined {
  const claim = normalise(claimed.join('\n'));
  if (mode === 'excerpt') {
    let k = 0;
    for (const c of claim) {
      if (c === '...' || c === '') continue;
      while (k < actual.length && !lineMatches(c, actual[k]!)) k++;
      if (k === actual.length) return `claimed line not found in the output (in order):\n  ${c}`;
      k++;
    }
    return undefined;
  }
  // verbatim, with `...` lines: a small backtracking match
  const memo = new Map<string, boolean>();
  const go = (i: number, k: number): boolean => {
    const key = `${i},${k}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (i === claim.length) r = k === actual.length;
    else if (claim[i] === '...') r = go(i + 1, k) || (k < actual.length && go(i, k + 1));
    else r = k < actual.length && lineMatches(claim[i]!, actual[k]!) && go(i + 1, k + 1);
    memo.set(key, r);
    return r;
  };
  if (go(0, 0)) return undefined;
  let n = 0;
  while (n < claim.length && n < actual.length && claim[n] !== '...' && lineMatches(claim[n]!, actual[n]!)) n++;
  return `output differs from line ${n + 1}:\n  claimed: ${claim[n] ?? '(end of output)'}\n  actual:  ${actual[n] ?? '(end of output)'}\n--- whole output ---\n${actual.join('\n')}`;
}

/** A scratch copy of the project for one doc file's blocks: data copied, code linked, `llmbda` on PATH. */
export interface Scratch {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  dispose(): void;
}

/** Copies `copy` (folders or files of `repo`), links `link`, and puts `llmbda` and an `npx llmbda` shim on PATH. */
export function makeScratch(repo: string, copy: readonly string[], link: readonly string[]): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'llmbda-doctest-'));
  const work = join(dir, 'project');
  const shims = join(dir, 'shims');
  mkdirSync(work);
  mkdirSync(shims);
  for (const c of copy) cpSync(join(repo, c), join(work, c), { recursive: true });
  for (const l of link) symlinkSync(join(repo, l), join(work, l));
  const llmbda = join(shims, 'llmbda');
  writeFileSync(llmbda, `#!/bin/sh\nexec "${process.execPath}" "${join(repo, 'bin/llmbda.js')}" "$@"\n`);
  const npx = join(shims, 'npx');
  writeFileSync(npx, `#!/bin/sh\nif [ "$1" = llmbda ]; then shift; exec "${llmbda}" "$@"; fi\necho "doctest: only 'npx llmbda' runs in a doc test (got npx $1)" >&2\nexit 127\n`);
  chmodSync(llmbda, 0o755);
  chmodSync(npx, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${shims}:${process.env['PATH'] ?? ''}`, LLMBDA_SOURCE: process.env['LLMBDA_SOURCE'] ?? '', NO_COLOR: '1', FORCE_COLOR: '0', COLUMNS: '120' };
  delete env['CI'];
  return { dir: work, env, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Run one shell command (stdout and stderr interleaved, as on a terminal). */
export function runCommand(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile('bash', ['-c', `${command} 2>&1`], { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      done({ code, output: stdout });
    });
  });
}

/** Run a console block's steps in `scratch`; the first problem, or undefined when every step shows its claim. */
export async function runBlock(block: DocBlock, scratch: Scratch): Promise<string | undefined> {
  const marker = parseMarker(block.markerText);
  const steps = parseConsole(block.body);
  if (typeof marker === 'string') return marker;
  if (typeof steps === 'string') return steps;
  if (marker.kind === 'skip') return undefined;
  for (const [i, s] of steps.entries()) {
    const r = await runCommand(s.command, scratch.dir, scratch.env);
    // exit=N is the last command's code; the commands before it (setting up files) must succeed
    const exit = i === steps.length - 1 ? marker.exit : 0;
    if (r.code !== exit) return `$ ${s.command}\nexit code ${r.code}, the block expects ${exit}\n--- output ---\n${r.output}`;
    const problem = compareOutput(s.expected, normalise(r.output), marker.mode);
    if (problem !== undefined) return `$ ${s.command}\n${problem}`;
  }
  return undefined;
}

/** Shell-like words of one command line: quotes grouped and removed, a `#` comment outside quotes dropped. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: string | undefined;
  for (const ch of line) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else if (ch === '#' && !inWord) {
      break;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/**
 * The `llmbda` invocations a block shows (sh, bash and console blocks): the words after `npx llmbda`,
 * `llmbda` or `node bin/llmbda.js`, one list per command line (a trailing `\` continues a line).
 */
export function llmbdaInvocations(block: DocBlock): string[][] {
  if (!['sh', 'bash', 'console'].includes(block.lang)) return [];
  const lines: string[] = [];
  for (const raw of block.body.split('\n')) {
    if (block.lang === 'console' && !raw.startsWith('$ ') && !(lines.length > 0 && lines[lines.length - 1]!.endsWith('\\'))) continue;
    const l = block.lang === 'console' && raw.startsWith('$ ') ? raw.slice(2) : raw;
    if (lines.length > 0 && lines[lines.length - 1]!.endsWith('\\')) lines[lines.length - 1] = `${lines[lines.length - 1]!.slice(0, -1)} ${l.trim()}`;
    else lines.push(l);
  }
  const out: string[][] = [];
  for (const l of lines) {
    const w = shellWords(l);
    for (let i = 0; i < w.length; i++) {
      const at = w[i] === 'npx' && w[i + 1] === 'llmbda' ? i + 2 : w[i] === 'llmbda' ? i + 1 : w[i] === 'node' && w[i + 1] === 'bin/llmbda.js' ? i + 2 : -1;
      if (at >= 0) {
        const end = w.findIndex((x, k) => k >= at && ['|', '&&', '||', ';', '>', '2>&1'].includes(x));
        out.push(w.slice(at, end < 0 ? undefined : end));
        break;
      }
    }
  }
  return out;
}

/** The part of a command tree a flag check needs (commander's `Command` has this shape). */
export interface CommandShape {
  name(): string;
  readonly commands: readonly CommandShape[];
  readonly options: readonly { readonly long?: string | undefined; readonly short?: string | undefined }[];
}

/** What is wrong with one invocation against the command tree: an unknown subcommand or flag. */
export function checkInvocation(program: CommandShape, words: readonly string[]): string | undefined {
  let cmd = program;
  let i = 0;
  for (; i < words.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === words[i]);
    if (!sub) break;
    cmd = sub;
  }
  if (cmd === program && !words.some((w) => ['--version', '-V', '--help', '-h'].includes(w))) return `no such command: llmbda ${words[0] ?? ''}`;
  if (cmd.commands.length > 0 && !words.slice(i).some((w) => w === '--help' || w === '-h')) return `llmbda ${words.slice(0, i).join(' ')} needs a subcommand: ${cmd.commands.map((c) => c.name()).join(', ')}`;
  for (const raw of words.slice(i)) {
    const w = raw.replace(/^\[/, '').replace(/\]$/, '');
    if (!w.startsWith('-') || /^-\d/.test(w)) continue;
    const flag = w.split('=')[0]!;
    if (['--help', '-h'].includes(flag) || (cmd === program && ['--version', '-V'].includes(flag))) continue;
    if (!cmd.options.some((o) => o.long === flag || o.short === flag)) return `llmbda ${words.slice(0, i).join(' ')} has no option ${flag}`;
  }
  return undefined;
}
