/**
 * `llmbda check|hunt|diff --target` end to end (spawned as a user runs them): verdict tables and exit
 * codes, a saved target counterexample that replays, and one-line errors for bad targets.
 */
import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Ran { readonly code: number; readonly stdout: string; readonly stderr: string }
const llmbda = (...args: string[]): Promise<Ran> => new Promise((resolve) => {
  execFile(process.execPath, ['bin/llmbda.js', ...args], { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 }, (err, stdout, stderr) => {
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
  });
});

describe('llmbda … --target', () => {
  it('check: the correct example target holds (exit 0), the faulty one fails with classified counterexamples (exit 1)', async () => {
    const [good, bad] = await Promise.all([
      llmbda('check', '--target', 'examples/targets/env-target.ts', '--runs', '150', '--seed', '2'),
      llmbda('check', '--target', 'examples/targets/env-target-faulty.ts', '--runs', '400', '--seed', '3'),
    ]);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/all 3 verdicts hold/);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAILS/);
    expect(bad.stdout).toMatch(/constructs involved: /);
    expect(bad.stdout).toMatch(/replay: npx llmbda check --target/);
  }, 120_000);

  it('hunt saves a counterexample against an out-of-process target, and check --replay judges it again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-target-'));
    try {
      const target = 'stdio:node examples/targets/leaky-target.mjs --bugs=binop';
      const h = await llmbda('hunt', '--target', target, '--mask', 'endorse', '--lattice', 'two-point', '--suite', 'tipni', '--seed', '4', '--time', '20s', '--out', dir);
      expect(h.code).toBe(1);
      expect(h.stdout).toMatch(/constructs involved: .*prim binop_\+/);
      const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
      expect(file).toBeDefined();
      const again = await llmbda('check', '--target', target, '--lattice', 'two-point', '--replay', join(dir, file!));
      expect(again.code).toBe(1);
      expect(again.stdout).toMatch(/FAILS: observer distributions are incompatible/);
      const fixed = await llmbda('check', '--target', 'stdio:node examples/targets/leaky-target.mjs --correct', '--lattice', 'two-point', '--replay', join(dir, file!));
      expect(fixed.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('diff classifies disagreements by construct; bad targets are one-line errors (exit 2)', async () => {
    const [d, missing, notTarget] = await Promise.all([
      llmbda('diff', '--target', 'examples/targets/env-target-faulty.ts', '--runs', '3000', '--seed', '1', '--max', '3'),
      llmbda('check', '--target', 'no/such/target.ts'),
      llmbda('diff', '--target', 'examples/targets/env-interpreter.ts'),
    ]);
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(/3 disagreement\(s\)/);
    expect(d.stdout).toMatch(/constructs involved/);
    for (const r of [missing, notTarget]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 120_000);
});
