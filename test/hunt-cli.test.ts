/**
 * `llmbda hunt` and `llmbda replay` end to end, spawned as a user runs them: exit 1 with a report and a
 * saved file on a leak, exit 0 with a clean bill, replay exits 0 on a corpus file, a malformed file is
 * one clear line (exit 2, no stack trace), and `--system ppmf` reaches the PPMF hunter.
 */
import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEntry } from '../src/llmbda/corpus.ts';
import { validate } from './helpers/json-schema.ts';

interface Ran { readonly code: number; readonly stdout: string; readonly stderr: string }

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'llmbda-hunt-cli-'));
}

/** Run `node bin/llmbda.js …` in the repository root. */
function llmbda(...args: string[]): Promise<Ran> {
  return new Promise((done) => {
    execFile(process.execPath, ['bin/llmbda.js', ...args], { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the CLI', () => {
  it('hunt exits 1 with a report on a leak and 0 with a clean bill; replay exits 0; a malformed file is a clear error', async () => {
    const dir = tmp();
    try {
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify({ ...loadEntry('counterexamples/recv-no-nsu-powerset-us-1.json'), fuel: 'lots' }));
      const [leak, clean, rp, malformed] = await Promise.all([
        llmbda('hunt', '--variant', 'clear-no-nsu', '--lattice', 'chain(3)', '--seed', '4', '--time', '20s', '--out', dir),
        llmbda('hunt', '--variant', 'fork-joins-label', '--lattice', 'two-point', '--runs', '200', '--seed', '1'),
        llmbda('replay', 'counterexamples/clear-to-bottom-two-point-2.json'),
        llmbda('replay', bad),
      ]);
      expect(leak.code).toBe(1);
      expect(leak.stdout).toContain('LEAK FOUND: tipni fails under variant clear-no-nsu on chain(3)');
      expect(existsSync(join(dir, 'clear-no-nsu-tipni-chain3-4.json'))).toBe(true);
      expect(clean.code).toBe(0);
      expect(clean.stdout).toContain('No counterexample: variant fork-joins-label survived 200 generated cases');
      expect(rp.code).toBe(0);
      expect(rp.stdout).toContain('Both verdicts as recorded.');
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toContain(`${bad}: field "fuel" must be a positive integer`);
      expect(malformed.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(existsSync('src/ppmf/hunt.ts'))('hunt --system ppmf dispatches to the PPMF hunter', async () => {
    const r = await llmbda('hunt', '--system', 'ppmf', '--variant', 'ppmf', '--time', '3s', '--seed', '1', '--json');
    expect([0, 1]).toContain(r.code);
    // The report document every command writes (docs/schema/report.schema.json): one case per PPMF suite searched.
    const json = JSON.parse(r.stdout) as { command: string; variant: string; cases: { suite: string; lattice: string }[] };
    expect(validate(JSON.parse(readFileSync('docs/schema/report.schema.json', 'utf8')) as Record<string, unknown>, json)).toEqual([]);
    expect([json.command, json.variant]).toEqual(['hunt', 'ppmf']);
    expect(json.cases.length).toBeGreaterThan(0);
    expect(json.cases.every((c) => c.suite.startsWith('ppmf-') && c.lattice === '-')).toBe(true);
  });
});
