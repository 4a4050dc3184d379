/**
 * Nothing lost, nothing hangs (issue 16), end to end: the CLI is spawned as a user runs it and signalled.
 * A finding survives Ctrl-C (printed, saved, valid); `kill` during `check` prints the finished verdicts;
 * the cursor comes back; bad `--out` folders are user errors after the report; saves never make the
 * corpus worse (concurrent writers, curated entries); user code that loops, throws or returns garbage
 * is stopped and named; flags are bounded; verdicts depend on the seed alone.
 * Every spawn costs a few hundred ms of start-up (the compiled package; about a second from the sources with
 * LLMBDA_SOURCE=1), so budgets are small and at most two run at once.
 */
import { describe, it, expect } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadEntry, findingName, saveFinding, type CorpusEntry } from '../src/llmbda/corpus.ts';
import { poolSize } from '../src/runner/pool.ts';
import { writeFileAtomic } from '../src/util/atomic-write.ts';
import { runPool } from '../src/runner/pool.ts';
import { catastrophicReason } from '../src/util/safe-regex.ts';
import { tableModel } from '../src/semantics/models/index.ts';
import { runJob as hogJob, type HogJob } from './fixtures/robust/hog-job.ts';

interface Ran { readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly stdout: string; readonly stderr: string }

const ROOT = resolve('.');
const BIN = join(ROOT, 'bin/llmbda.js');
const FIX = 'test/fixtures/robust';
const MAX_CHILDREN = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(f: () => Promise<T>): Promise<T> {
  if (running >= MAX_CHILDREN) await new Promise<void>((go) => waiting.push(go));
  running++;
  try { return await f(); } finally { running--; waiting.shift()?.(); }
}

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, NO_COLOR: '1', LLMBDA_SOURCE: process.env['LLMBDA_SOURCE'] ?? '', ...extra });

/** Run the CLI to the end. */
function llmbda(args: readonly string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  return slot(() => new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: env(opts.env), timeout: 120_000, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string; signal?: NodeJS.Signals }) | null;
      done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr });
    });
  }));
}

/** Start the CLI; send `signal` once the output matches `until`, or after `until` ms; resolve when it ends. */
function signalled(args: readonly string[], until: ((out: { stdout: string; stderr: string }) => boolean) | number, signal: NodeJS.Signals): Promise<Ran & { endedAfterSignalMs: number }> {
  return slot(() => new Promise((done) => {
    const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: env() });
    let stdout = '', stderr = '';
    let sentAt = 0;
    const send = (): void => { if (sentAt === 0) { sentAt = Date.now(); child.kill(signal); } };
    const poke = (): void => { if (typeof until === 'function' && until({ stdout, stderr })) send(); };
    const timer = typeof until === 'number' ? setTimeout(send, until) : undefined;
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); poke(); });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); poke(); });
    const kill = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code, sig) => {
      clearTimeout(kill);
      if (timer) clearTimeout(timer);
      done({ code, signal: sig, stdout, stderr, endedAfterSignalMs: sentAt ? Date.now() - sentAt : -1 });
    });
  }));
}

const tmp = (): string => mkdtempSync(join(tmpdir(), 'llmbda-robust-'));
const noStackTrace = (s: string): void => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);
const jsonFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

describe.concurrent('keeping every finding', () => {
  it('SIGINT while shrinking prints the best counterexample so far, leaves a valid corpus file and exits 130', async () => {
    const out = tmp();
    // Seed 2 finds the leak after about 100 cases, when the fixture's Recv has become slow, so shrinking takes seconds.
    const r = await signalled(['hunt', '--variant', `${FIX}/slow-leak.ts`, '--lattice', 'powerset-us', '--suite', 'tipni', '--seed', '2', '--runs', '500', '--out', out],
      ({ stderr }) => stderr.includes('Found a counterexample'), 'SIGINT');
    expect(r.stderr).toContain('Found a counterexample');
    expect(r.code).toBe(130);
    expect(r.endedAfterSignalMs).toBeGreaterThan(0);
    expect(r.endedAfterSignalMs).toBeLessThan(3000); // "within a second", plus process teardown on a loaded machine
    expect(r.stdout).toContain('INTERRUPTED (SIGINT) while shrinking');
    expect(r.stdout).toContain('LEAK FOUND: tipni fails under variant slow-recv-at-pc');
    const files = jsonFiles(out);
    expect(files).toEqual([`${findingName(`${FIX}/slow-leak.ts`, 'tipni', 'powerset-us', 2)}.json`]);
    const e = loadEntry(join(out, files[0]!));
    expect(e.expected).toEqual({ reference: 'holds', variant: 'fails' });
    expect(r.stdout).toContain(`(${e.size} AST nodes)`);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
    rmSync(out, { recursive: true, force: true });
  }, 150_000);

  it('SIGTERM during check prints the verdicts finished so far and exits 143', async () => {
    // Two jobs on two workers: lattice-laws finishes in seconds, TIPNI at 100,000 runs takes minutes. On a heavily
    // loaded machine nothing may have finished after 15 s ("0 of 2 verdicts finished", still a correct interrupt);
    // then the run is repeated with the signal sent later, so a finished verdict is there to print.
    const args = ['check', '--runs', '100000', '--seed', '1', '--lattice', 'two-point', '--suite', 'lattice-laws', '--suite', 'tipni', '--workers', '2', '--no-corpus'];
    let r = await signalled(args, 15_000, 'SIGTERM');
    if (r.code === 143 && /INTERRUPTED \(SIGTERM\): 0 of \d+ verdicts finished/.test(r.stdout)) r = await signalled(args, 60_000, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.endedAfterSignalMs).toBeLessThan(3000);
    expect(r.stdout).toMatch(/lattice-laws\s+two-point\s+100000\s+\S+\s+holds/);
    expect(r.stdout).toMatch(/INTERRUPTED \(SIGTERM\): 1 of 2 verdicts finished/);
  }, 240_000);

  it('Ctrl-C in a terminal shows the cursor again (the progress bar hid it)', async () => {
    const out = await slot(() => new Promise<{ code: number | null; text: string }>((done) => {
      // `script` gives the command a pseudo-terminal; ETX on its input is a real Ctrl-C (SIGINT to the foreground group).
      const child = spawn('script', ['-qfec', `${JSON.stringify(process.execPath)} ${BIN} check --runs 3000 --seed 1 --lattice two-point --no-corpus`, '/dev/null'], { cwd: ROOT, env: env() });
      let text = '';
      let sent = false;
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        if (!sent && text.includes('\x1b[?25l') && text.includes('checking')) { sent = true; setTimeout(() => child.stdin.write('\x03'), 1500); }
      });
      const kill = setTimeout(() => child.kill('SIGKILL'), 120_000);
      child.on('close', (code) => { clearTimeout(kill); done({ code, text }); });
    }));
    expect(out.code).toBe(130);
    const hidden = out.text.indexOf('\x1b[?25l');
    expect(hidden).toBeGreaterThanOrEqual(0);
    expect(out.text.lastIndexOf('\x1b[?25h')).toBeGreaterThan(hidden);
    expect(out.text).toContain('INTERRUPTED (SIGINT)');
  }, 150_000);

  it('an --out that is a file, or not writable, is a user error (exit 2) after the report is printed', async () => {
    const dir = tmp();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const args = ['hunt', '--variant', 'recv-at-pc', '--lattice', 'powerset-us', '--seed', '2', '--runs', '200'];
    const [asFile, readOnly] = await Promise.all([llmbda([...args, '--out', file]), llmbda([...args, '--out', '/sys/llmbda-robust-out'])]);
    for (const r of [asFile, readOnly]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('LEAK FOUND: tipni fails under variant recv-at-pc');
      expect(r.stderr).toMatch(/llmbda: cannot write/);
      noStackTrace(r.stderr);
    }
    expect(asFile.stderr).toContain(file);
    expect(readOnly.stderr).toContain('/sys/llmbda-robust-out');
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('writeFileAtomic leaves the old file when the write fails, and no temporary file behind', () => {
    const dir = tmp();
    const f = join(dir, 'x.json');
    writeFileAtomic(f, 'old');
    expect(() => writeFileAtomic(join(dir, 'missing', 'x.json'), 'new')).toThrow(/cannot write .*missing/);
    writeFileAtomic(f, 'new');
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['x.json']);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe.concurrent('corpus integrity', () => {
  it('two concurrent writers, 10 rounds: each (variant, suite, lattice, seed) keeps the smallest entry, never a worse or mixed file', async () => {
    const dir = tmp();
    const writer = (id: string): Promise<Record<number, number[]>> => new Promise((done, fail) => {
      execFile(process.execPath, ['--import', 'tsx', `${FIX}/save-race.ts`, dir, id], { cwd: ROOT, env: env(), timeout: 120_000 }, (err, stdout) => {
        if (err) fail(err); else done(JSON.parse(stdout) as Record<number, number[]>);
      });
    });
    const [a, b] = await Promise.all([writer('A'), writer('B')]);
    const files = jsonFiles(dir);
    expect(files).toHaveLength(10);
    for (let round = 0; round < 10; round++) {
      const f = join(dir, `${findingName('recv-at-pc', 'tipni', 'powerset-us', round)}.json`);
      const e: CorpusEntry = loadEntry(f);
      expect(e.size).toBe(Math.min(...a[round]!, ...b[round]!));
      expect(e.title).toMatch(new RegExp(`^writer [AB] size ${e.size}$`)); // not a mix of two writes
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('a shipped (curated) entry is never replaced by a larger one, whatever its file name', async () => {
    const dir = tmp();
    const shipped = join(dir, 'send-no-nsu-powerset-us-1.json');
    // The shipped 5-node entry, keyed to seed 3: unminimised, seed 3's hunt ends at a larger case
    // (58 nodes with the generators of issue 12; seed 1 now finds a 5-node case at once).
    const entry = JSON.parse(readFileSync('counterexamples/send-no-nsu-powerset-us-1.json', 'utf8')) as { seed: number };
    writeFileSync(shipped, `${JSON.stringify({ ...entry, seed: 3 }, null, 2)}\n`);
    const before = readFileSync(shipped, 'utf8');
    const r = await llmbda(['hunt', '--variant', 'send-no-nsu', '--lattice', 'powerset-us', '--suite', 'tipni', '--seed', '3', '--runs', '2000', '--no-minimise', '--out', dir]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Not saved: .*send-no-nsu-powerset-us-1\.json already holds a case .* with 5 AST nodes/);
    expect(readFileSync(shipped, 'utf8')).toBe(before);
    expect(jsonFiles(dir)).toEqual(['send-no-nsu-powerset-us-1.json']);
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('saveFinding replaces an entry by a smaller or equal one only', () => {
    const dir = tmp();
    const base = loadEntry('counterexamples/recv-at-pc-powerset-us-1.json');
    const e = (size: number): CorpusEntry => ({ ...base, seed: 7, size, title: `size ${size}` });
    expect(saveFinding(dir, e(9)).kind).toBe('written');
    expect(saveFinding(dir, e(12))).toMatchObject({ kind: 'kept', size: 9 });
    expect(saveFinding(dir, e(9)).kind).toBe('written');
    expect(saveFinding(dir, e(4)).kind).toBe('written');
    expect(loadEntry(join(dir, `${findingName(base.variant, base.suite, base.lattice, 7)}.json`)).size).toBe(4);
    rmSync(dir, { recursive: true, force: true });
  });

  it('check skips a corrupt corpus file with a warning, and replays the others apart from the verdict', async () => {
    const dir = tmp();
    copyFileSync('counterexamples/recv-at-pc-powerset-us-1.json', join(dir, 'good.json'));
    writeFileSync(join(dir, 'broken.json'), '');
    const r = await llmbda(['check', '--suite', 'tipni', '--lattice', 'powerset-us', '--runs', '40', '--seed', '2', '--corpus', dir]);
    expect(r.stderr).toMatch(/warning: corpus: skipped .*broken\.json: not valid JSON/);
    expect(r.stdout).toContain('saved cases: all 1 replayed as recorded');
    expect(r.stdout).toMatch(/tipni\s+powerset-us\s+40/);
    noStackTrace(r.stderr);
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('replay rejects a model whose response weights sum over 1 (a weight of "2")', async () => {
    const dir = tmp();
    const e = JSON.parse(readFileSync('counterexamples/recv-at-pc-powerset-us-1.json', 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'w.json'), JSON.stringify({ ...e, model: { kind: 'constant', responses: [['x', '2']] } }));
    const r = await llmbda(['replay', join(dir, 'w.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/field "model\.responses\[0\]\[1\]" makes the weights sum to 2 > 1/);
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);
});

describe.concurrent('user code in a sandbox of time', () => {
  const hunt = (variant: string, ...more: string[]): Promise<Ran> =>
    llmbda(['hunt', '--variant', `${FIX}/${variant}`, '--lattice', 'powerset-us', '--seed', '1', '--runs', '50', '--case-timeout', '2s', ...more]);

  it('a looping rule is stopped by the per-case limit and named (file and rule), exit 2', async () => {
    const r = await hunt('loop-rule.ts');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: case \d+ timed out in test\/fixtures\/robust\/loop-rule\.ts:Recv: no progress for 2\.0 s/);
  }, 150_000);

  it('replay under a looping variant is stopped too (it judges in a supervised worker)', async () => {
    const r = await llmbda(['replay', 'counterexamples/recv-at-pc-powerset-us-1.json', '--variant', `${FIX}/loop-rule.ts`, '--case-timeout', '1s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timed out in test\/fixtures\/robust\/loop-rule\.ts:Recv/);
  }, 150_000);

  it('replay of a folder: an entry whose variant loops is stopped and reported as it is alone, and the entries after it still replay', async () => {
    // One worker replays the whole folder; the looping entry's worker is stopped, a fresh one goes on with the rest.
    const dir = tmp();
    const e = JSON.parse(readFileSync('counterexamples/recv-at-pc-powerset-us-1.json', 'utf8')) as Record<string, unknown>;
    copyFileSync('counterexamples/recv-at-pc-powerset-us-1.json', join(dir, 'a.json'));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...e, variant: resolve(FIX, 'loop-rule.ts') }));
    copyFileSync('counterexamples/send-no-nsu-powerset-us-1.json', join(dir, 'c.json'));
    const [all, alone] = await Promise.all([
      llmbda(['replay', dir, '--case-timeout', '1s', '--reporter', 'json']),
      llmbda(['replay', join(dir, 'b.json'), '--case-timeout', '1s']),
    ]);
    expect(alone.code).toBe(2);
    const why = /^llmbda: (.*)\n$/.exec(alone.stderr)?.[1];
    expect(why).toMatch(/^case \d+ timed out in \S*test\/fixtures\/robust\/loop-rule\.ts:Recv/);
    expect(all.code).toBe(2);
    const doc = JSON.parse(all.stdout) as { cases: { id: string; result: string; message: string }[]; text: string };
    expect(doc.cases.map((c) => [c.id.slice(dir.length + 1), c.result])).toEqual([['a.json', 'passed'], ['b.json', 'error'], ['c.json', 'passed']]);
    expect(doc.cases[1]!.message).toBe(why);
    expect(doc.text).toContain('Replayed 3 entries: 2 as recorded, 0 regressed, 1 could not be loaded.');
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('a throwing rule is the user\'s error, with file and line, exit 2', async () => {
    const r = await hunt('throw-rule.ts');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: user code failed in test\/fixtures\/robust\/throw-rule\.ts:9 \(Recv\): boom from the user rule/);
    noStackTrace(r.stderr);
  }, 150_000);

  it('a rule returning the wrong shape is caught at the boundary, exit 2', async () => {
    const r = await hunt('garbage-rule.ts');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('user code failed in test/fixtures/robust/garbage-rule.ts (Recv): returned number 42, not a distribution');
  }, 150_000);

  it('a looping lattice join: check reports the law suite as timed out in FILE:join (a per-case outcome), and ends', async () => {
    const r = await llmbda(['check', '--lattice', `${FIX}/loop-join.ts`, '--runs', '100', '--seed', '1', '--case-timeout', '2s']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error: a case timed out in test/fixtures/robust/loop-join.ts:join: no progress for 2 s');
    expect(r.stdout).toContain('the lattice laws fail, so the theorem suites were not run on it');
  }, 150_000);

  it('a lattice file whose top-level await never settles is reported within the import limit, exit 2', async () => {
    const r = await llmbda(['check', '--lattice', `${FIX}/never-settles.ts`, '--runs', '10'], { env: { LLMBDA_IMPORT_TIMEOUT_MS: '1500' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: user code did not finish loading in lattice file \S*never-settles\.ts within 1\.5 s/);
  }, 150_000);
});

describe.concurrent('limits and flags', () => {
  it('seeds are 32-bit: 2^32 and negative seeds are rejected, not wrapped', async () => {
    const [big, neg, max, mutants] = await Promise.all([
      llmbda(['hunt', '--variant', 'recv-at-pc', '--seed', '4294967297', '--runs', '1']),
      llmbda(['check', '--seed', '-4294967295', '--runs', '1']),
      llmbda(['run', 'examples/fenton-denning.lam', '--seed', '4294967295', '--sample', '2']),
      llmbda(['mutants', '--seed', '4294967297', '--list']),
    ]);
    for (const r of [big, neg, mutants]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--seed needs an integer from 0 to 4294967295 \(seeds are 32-bit\)/);
    }
    expect(max.code).toBe(0);
  }, 150_000);

  it('--stack-mb is bounded (a clear error, not EAGAIN)', async () => {
    const r = await llmbda(['run', 'examples/fenton-denning.lam', '--stack-mb', '1000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--stack-mb must be at most 4096');
  }, 150_000);

  it('--workers is capped at the core count', () => {
    expect(poolSize(1000, 50)).toBe(Math.min(availableParallelism(), 50));
    expect(poolSize(1000, 1)).toBe(1);
    expect(poolSize(undefined, 3)).toBe(Math.min(availableParallelism(), 3));
  });

  it('hunt --time 0 is inconclusive (exit 4), never a clean bill', async () => {
    // The reference has nothing to find, so the verdict depends only on the budget; a leaky variant could be
    // caught within the least share each target gets (100 ms), which is a correct exit 1, not this test's point.
    const r = await llmbda(['hunt', '--variant', 'reference', '--lattice', 'two-point', '--time', '0']);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^INCONCLUSIVE: variant reference survived \d+ generated cases?/);
    expect(r.stdout).not.toContain('No counterexample');
  }, 150_000);
});

describe.concurrent('verdicts that depend on the seed alone', () => {
  it('check --seed gives the same verdict from the repository root and from an empty folder', async () => {
    const dir = tmp();
    const args = ['check', '--runs', '20', '--seed', '1', '--suite', 'tipni', '--lattice', 'powerset-us', '--json'];
    const [here, there] = await Promise.all([llmbda(args), llmbda(args, { cwd: dir })]);
    // The report document (docs/schema/report.schema.json): every case's verdict, runs, seed and non-vacuity counts.
    type Doc = { exitCode: number; summary: unknown; cases: { id: string; verdict: string; result: string; runs: number; seed: number | null; nonVacuity: unknown }[] };
    const verdicts = (r: Ran): unknown => {
      const j = JSON.parse(r.stdout) as Doc;
      expect(j.cases.length).toBeGreaterThan(0);
      return { exitCode: j.exitCode, summary: j.summary, cases: j.cases.map(({ id, verdict, result, runs, seed, nonVacuity }) => ({ id, verdict, result, runs, seed, nonVacuity })) };
    };
    expect(verdicts(here)).toEqual(verdicts(there));
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('hunt --runs N --seed S: identical alone and with eight running at once, and its replay command reproduces it', async () => {
    const args = ['hunt', '--variant', 'recv-at-pc', '--lattice', 'powerset-us', '--suite', 'tipni', '--seed', '5', '--runs', '60', '--json'];
    // The report document (docs/schema/report.schema.json) without its timings: wall-clock times, and "in 0.05 s" in the texts.
    const untimed = (s: string): string => s.replace(/ in \d+(\.\d+)? s\b/g, ' in _ s');
    const strip = (r: Ran): unknown => {
      const j = JSON.parse(r.stdout) as { timeMs?: number; text: string; cases: { timeMs?: number; message: string }[] };
      expect(j.cases.length).toBeGreaterThan(0);
      delete j.timeMs;
      j.text = untimed(j.text);
      j.cases = j.cases.map(({ timeMs: _ms, ...c }) => ({ ...c, message: untimed(c.message) }));
      return j;
    };
    const alone = await llmbda(args);
    expect(alone.code).toBe(1);
    const eight = await Promise.all(Array.from({ length: 8 }, () => new Promise<Ran>((done) => {
      execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: env(), timeout: 240_000 }, (err, stdout, stderr) => {
        done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, signal: null, stdout, stderr });
      });
    })));
    for (const r of eight) expect(strip(r)).toEqual(strip(alone));
    const text = await llmbda(args.filter((a) => a !== '--json'));
    const replay = /Replay: npx llmbda (hunt .*)/.exec(text.stdout)?.[1];
    expect(replay).toContain('--runs 60');
    const again = await llmbda([...replay!.split(' ').map((a) => a.replace(/^'(.*)'$/, '$1')), '--json']);
    expect(strip(again)).toEqual(strip(alone));
  }, 300_000);
});

describe.concurrent('the remaining gaps: loading, memory, regexes, huge messages, every command supervised', () => {
  it('a lattice file that loops at its top level: check, hunt, run and replay each report it within the import limit, exit 2', async () => {
    const file = `${FIX}/loop-import.ts`;
    const env = { LLMBDA_IMPORT_TIMEOUT_MS: '2000' };
    const runs = await Promise.all([
      llmbda(['check', '--lattice', file, '--runs', '5'], { env }),
      llmbda(['hunt', '--variant', 'recv-at-pc', '--lattice', file, '--runs', '5'], { env }),
      llmbda(['run', 'examples/fenton-denning.lam', '--lattice', file], { env }),
      llmbda(['replay', 'counterexamples/recv-at-pc-powerset-us-1.json', '--lattice', file], { env }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^llmbda: user code did not finish loading in lattice file \S*test\/fixtures\/robust\/loop-import\.ts within 2\.0 s/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 200_000);

  it('a --variant or --prims file that loops at its top level is stopped the same way', async () => {
    const env = { LLMBDA_IMPORT_TIMEOUT_MS: '2000' };
    const [variant, prims] = await Promise.all([
      llmbda(['check', '--variant', `${FIX}/loop-import.ts`, '--suite', 'tipni', '--lattice', 'two-point', '--runs', '5'], { env }),
      llmbda(['hunt', '--variant', 'recv-at-pc', '--prims', `${FIX}/loop-import.ts`, '--runs', '5'], { env }),
    ]);
    for (const r of [variant, prims]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/user code did not finish loading in (variant|primitives) file test\/fixtures\/robust\/loop-import\.ts within 2\.0 s/);
    }
  }, 200_000);

  it('commands that import user files in the CLI thread (leak --lattice, --target) probe them in a watched worker first', async () => {
    const env = { LLMBDA_IMPORT_TIMEOUT_MS: '2000' };
    const [leak, target] = await Promise.all([
      llmbda(['leak', 'examples/fenton-denning.lam', '--secret', 'secret', '--domain', 'true,false', '--lattice', `${FIX}/loop-import.ts`], { env }),
      llmbda(['check', '--target', `${FIX}/loop-import.ts`, '--runs', '5'], { env }),
    ]);
    expect(leak.code).toBe(2);
    expect(leak.stderr).toMatch(/^llmbda: user code did not finish loading in lattice file \S*loop-import\.ts within 2\.0 s/);
    expect(target.code).toBe(2);
    expect(target.stderr).toMatch(/^llmbda: user code did not finish loading in target module \S*loop-import\.ts within 2\.0 s/);
  }, 200_000);

  it('leak evaluates in the supervised worker: a join that loops at run time is stopped and named, exit 2', async () => {
    const r = await llmbda(['leak', `${FIX}/many-joins.lam`, '--secret', 'secret', '--domain', '0,1', '--lattice', `${FIX}/loop-join.ts`, '--fuel', '100000', '--case-timeout', '2s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: the leak timed out in test\/fixtures\/robust\/loop-join\.ts:join: no progress for 2\.0 s/);
    noStackTrace(r.stderr);
  }, 150_000);

  it('a run whose outcomes explode is stopped by --max-memory-mb with a clear message, exit 2 (not a dead process)', async () => {
    const r = await llmbda(['run', `${FIX}/explode.lam`, '--max-outcomes', '1000000000', '--fuel', '1000', '--max-memory-mb', '64']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: the run exceeded the memory limit \(64 MB; --max-memory-mb\)/);
    noStackTrace(r.stderr);
  }, 150_000);

  it('the pool answers a job whose case exhausts the heap cap as "case N exceeded the memory limit", replaces the worker and goes on', async () => {
    const jobs: HogJob[] = [{ n: 1, hog: false }, { n: 2, hog: true }, { n: 3, hog: false }];
    const results = await runPool(jobs, { url: new URL('./fixtures/robust/hog-job.ts', import.meta.url), run: hogJob }, {
      workers: 1, threads: true, maxMemoryMb: 64, timedOut: (job, why) => ({ n: job.n, why }),
    });
    expect(results[0]).toEqual({ n: 1 });
    expect(results[1]).toEqual({ n: 2, why: 'case 1 exceeded the memory limit (64 MB; --max-memory-mb)' });
    expect(results[2]).toEqual({ n: 3 });
  }, 120_000);

  it('--max-memory-mb is bounded', async () => {
    const r = await llmbda(['run', 'examples/fenton-denning.lam', '--max-memory-mb', '8']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-memory-mb must be from 64 to 65536 (MB), got 8');
  }, 150_000);

  it('regexes that can backtrack catastrophically are refused; star-height-1 patterns pass', () => {
    for (const p of ['(a+)+$', '(a*)*', '(\\w+\\s?)*', '(a{1,9}){1,9}']) expect(catastrophicReason(p), p).toMatch(/nested quantifiers/);
    for (const p of ['(a|a)*', '(a|ab)+', '(\\w|\\d)+', '((a|a))*']) expect(catastrophicReason(p), p).toMatch(/alternatives that can match the same text/);
    expect(catastrophicReason('(a|A)+', 'i')).toMatch(/alternatives/);
    expect(catastrophicReason('(a|A)+')).toBeUndefined();
    for (const p of ['(a)\\1', '(?<x>a)\\k<x>']) expect(catastrophicReason(p), p).toMatch(/backreference/);
    for (const p of ['^Give me .*$', '(yes|no)+', '[A-Z]\\w*', 'a{2}', '(ab){3}', '[(]+', '\\(a+\\)+', 'x{1,}y']) expect(catastrophicReason(p), p).toBeUndefined();
  });

  it('a table: model with the pattern (a+)+$ is refused at load, naming the file and the field', async () => {
    const table = JSON.stringify({ rules: [{ suffix: ['hello', '/(a+)+$/'], responses: { yes: '1' } }], default: { no: '1' } });
    expect(() => tableModel('t.json', table)).toThrow(/^t\.json: rules\[0\]\.suffix\[1\]: regex \/\(a\+\)\+\$\/ is refused: a repeated group contains a repetition/);
    const dir = tmp();
    writeFileSync(join(dir, 'evil.json'), table);
    const r = await llmbda(['run', 'examples/coins.lam', '--model', `table:${join(dir, 'evil.json')}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: \S*evil\.json: rules\[0\]\.suffix\[1\]: regex \/\(a\+\)\+\$\/ is refused/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('1M nested parentheses or 1M nested lets: the CLI prints one line FILE:LINE:COL: nesting deeper than 1000 levels, under 300 bytes', async () => {
    const dir = tmp();
    const parens = join(dir, 'deep.lam'), lets = join(dir, 'lets.lam');
    writeFileSync(parens, `${'('.repeat(1_000_000)}1${')'.repeat(1_000_000)}\n`);
    writeFileSync(lets, `${'let x = 1 in '.repeat(1_000_000)}x\n`);
    const [p, l] = [await llmbda(['run', parens]), await llmbda(['run', lets])];
    for (const r of [p, l]) {
      expect(r.code).toBe(2);
      expect(Buffer.byteLength(r.stderr)).toBeLessThan(300);
      expect(r.stderr.replace(/\n$/, '').split('\n')).toHaveLength(1);
    }
    expect(p.stderr).toBe(`llmbda: ${parens}:1:1001: nesting deeper than 1000 levels (split it with let), near: …${'('.repeat(60)}…\n`);
    // At the value of the 1001st let (13 characters each), 30 characters either side.
    expect(l.stderr).toBe(`llmbda: ${lets}:1:13009: nesting deeper than 1000 levels (split it with let), near: …${'let x = 1 in '.repeat(10).slice(8 - 30 + 13 * 5, 8 + 30 + 13 * 5)}…\n`);
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('SIGINT during replay prints the entries replayed so far and exits 130', async () => {
    // Each file's replay loads the variant afresh: its second announcement means one file is done.
    const loads = (s: string): number => s.split('announce-variant loaded').length - 1;
    const r = await signalled(['replay', 'counterexamples', '--variant', `${FIX}/announce-variant.ts`], ({ stderr }) => loads(stderr) >= 2, 'SIGINT');
    expect(r.code).toBe(130);
    expect(r.stdout).toMatch(/^Replaying counterexamples\//);
    expect(r.stdout).toMatch(/INTERRUPTED \(SIGINT\): replayed [1-9]\d* entr(y|ies): \d+ as recorded, \d+ regressed, 0 could not be loaded; [1-9]\d* of \d+ not replayed\./);
    expect(r.endedAfterSignalMs).toBeLessThan(3000);
  }, 150_000);

  it('hunt --system ppmf runs supervised: SIGTERM prints what is known and exits 143', async () => {
    // No output to wait for (a clean system finds nothing): 15 s is well past the CLI's start even on a busy machine,
    // and a million cases per suite (no time limit) take far longer than that.
    const r = await signalled(['hunt', '--system', 'ppmf', '--variant', 'ppmf', '--runs', '1000000', '--seed', '1'], 15_000, 'SIGTERM');
    expect(r.code).toBe(143);
    expect(r.stdout).toBe('INTERRUPTED (SIGTERM): no counterexample found yet on --system ppmf (seed 1).\n');
    expect(r.endedAfterSignalMs).toBeLessThan(3000);
  }, 150_000);
});
