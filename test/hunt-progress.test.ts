/**
 * `llmbda hunt`'s progress line: the hunt runs in a supervised worker, which posts its case count
 * (throttled, as `cases` events); the CLI thread draws `hunting N/TOTAL cases  R/s  ETA …` on a terminal,
 * never when piped or with --no-progress. `llmbda check`'s line counts cases over all its jobs. The terminal
 * is a real pseudo-terminal (util-linux `script`).
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executeHunt, type HuntTaskEvent } from '../src/cli/hunt-task.ts';

const BIN = join(process.cwd(), 'bin/llmbda.js');
const HUNT = ['hunt', '--variant', 'reference', '--runs', '300', '--seed', '1', '--lattice', 'two-point', '--suite', 'tipni'];

const hasScript = ((): boolean => { try { execFileSync('script', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();

/** Run the CLI under `script`, which gives it a pseudo-terminal; everything it drew comes back on stdout. */
function onTerminal(args: readonly string[]): Promise<{ code: number; text: string }> {
  const cmd = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((done) => {
    execFile('script', ['-qfec', cmd, '/dev/null'], { env: { ...process.env, LLMBDA_SOURCE: process.env['LLMBDA_SOURCE'] ?? '' }, timeout: 120_000 }, (err, stdout) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, text: stdout }));
  });
}

function piped(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, LLMBDA_SOURCE: process.env['LLMBDA_SOURCE'] ?? '' }, timeout: 120_000 }, (err, _out, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr }));
  });
}

describe('hunt progress: the worker posts case counts', () => {
  it('with progressMs it posts rising counts up to the runs budget; without, no count events', async () => {
    const events: HuntTaskEvent[] = [];
    const r = await executeHunt({ variant: 'reference', lattices: ['two-point'], suite: 'tipni', runs: 60, seed: 1, minimise: true, progressMs: 0 }, (e) => events.push(e));
    const counts = events.flatMap((e) => (e.kind === 'cases' ? [e.tried] : []));
    expect(r.tried).toBe(60);
    expect(counts.length).toBeGreaterThan(10);
    expect(counts.every((c, i) => i === 0 || c > counts[i - 1]!)).toBe(true);
    expect(counts[counts.length - 1]).toBeLessThanOrEqual(60);
    const quiet: HuntTaskEvent[] = [];
    await executeHunt({ variant: 'reference', lattices: ['two-point'], suite: 'tipni', runs: 20, seed: 1, minimise: true }, (e) => quiet.push(e));
    expect(quiet.filter((e) => e.kind === 'cases')).toEqual([]);
  });
});

describe.skipIf(!hasScript)('hunt progress: drawn by the CLI on a terminal only', () => {
  it('on a pseudo-terminal: cases out of the total, cases per second, ETA; the line is erased before the report', async () => {
    const r = await onTerminal(HUNT);
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/\r\x1b\[Khunting \d+\/300 cases {2}\d+\/s {2}ETA \d+s/);
    const lastLine = Math.max(...[...r.text.matchAll(/hunting \d+/g)].map((m) => m.index));
    const erased = r.text.indexOf('\r\x1b[K', lastLine);
    expect(erased).toBeGreaterThan(lastLine);
    expect(erased).toBeLessThan(r.text.indexOf('No counterexample'));
    expect(r.text).toContain('\x1b[?25h'); // the cursor is shown again
  }, 150_000);

  it('not with --no-progress, and not when stderr is piped', async () => {
    const [off, pipe] = await Promise.all([onTerminal([...HUNT, '--no-progress']), piped(HUNT)]);
    expect(off.code).toBe(0);
    expect(off.text).toContain('No counterexample');
    expect(off.text).not.toMatch(/hunting \d+/);
    expect(pipe.code).toBe(0);
    expect(pipe.stderr).not.toMatch(/hunting \d+/);
  }, 150_000);
});

describe.skipIf(!hasScript)('check progress: one line over every job, on a terminal only', () => {
  it('counts cases out of the planned total and never past it (a finished job\'s running count is dropped)', async () => {
    // Two jobs of 300 cases: the line must reach 600/600 and never show more (it once showed 477/300:
    // a finished job's result comes back from its worker as a copy, and its running count stayed).
    const r = await onTerminal(['check', '--suite', 'tipni', '--lattice', 'two-point', '--lattice', 'powerset-us', '--runs', '300', '--seed', '1']);
    expect(r.code).toBe(0);
    expect(r.text).toMatch(/\r\x1b\[Kchecking \d+\/600 cases {2}\d+\/s {2}ETA \d+(m\d\d)?s/);
    const counts = [...r.text.matchAll(/checking (\d+)\/600 cases/g)].map((m) => Number(m[1]));
    expect(counts.every((c) => c <= 600), counts.join(' ')).toBe(true);
    expect(counts.at(-1)).toBe(600);
  }, 150_000);
});

if (!hasScript) console.warn('hunt-progress: util-linux `script` not found, the pseudo-terminal tests are skipped');
