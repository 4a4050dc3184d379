/**
 * Measuring other checkouts side by side with this one (bench:suites, bench:jit): a temporary `git worktree`
 * of a commit sharing this checkout's node_modules (built with its own `npm run build` when measured compiled), and
 * one fresh measuring process of a property suite run with that checkout's own compiled package
 * (`bench/suites-run.mjs`; its sources through tsx under a bench's `--source`), optionally under V8 flags; and one
 * `llmbda check` process of this checkout, timed whole.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './doc.ts';
import { loaderArgs, type Loading } from './measured.ts';

/** One seed's run in a measuring process: CPU and wall time of the run alone, cases, verdict. */
export interface SeedRun { readonly seed: number; readonly cpuMs: number; readonly wallMs: number; readonly runs: number; readonly discarded: number; readonly status: string; readonly path?: string }

/** What one measuring process runs: a suite on a lattice, `runs` cases per seed. */
export interface SuiteRunSpec {
  readonly suite: string; readonly lattice: string; readonly runs: number; readonly seeds: readonly number[];
  readonly nodeFlags?: readonly string[]; readonly loading: Loading;
}

/**
 * One measuring process: the suite for every seed, twice (`cold`: the first pass, JIT warm-up included;
 * `warm`: the same cases again), with the checkout at `root` (its dist/, or its sources), under `nodeFlags` (V8 flags).
 */
export function measureSuite(root: string, spec: SuiteRunSpec): { cold: SeedRun[]; warm: SeedRun[] } {
  const seeds = spec.seeds.map(String);
  const r = spawnSync(process.execPath, [...(spec.nodeFlags ?? []), ...loaderArgs(spec.loading), join(ROOT, 'bench/suites-run.mjs'), root, spec.suite, spec.lattice, 'tuned', String(spec.runs), ...seeds, ...seeds], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, LLMBDA_BENCH_SOURCE: spec.loading === 'source' ? '1' : '0' }, maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`measuring ${spec.suite} in ${root} failed (${r.status}): ${r.stderr}`);
  const all = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as SeedRun[];
  return { cold: all.slice(0, spec.seeds.length), warm: all.slice(spec.seeds.length) };
}

/** Cases per CPU second of one pass. */
export const rate = (rs: readonly SeedRun[]): number => (1000 * rs.reduce((a, r) => a + r.runs, 0)) / rs.reduce((a, r) => a + r.cpuMs, 0);

/**
 * A temporary worktree of `commit` sharing this checkout's node_modules, built with its own `npm run build` when
 * `loading` is `compiled` (as `npm ci` builds a checkout); removed by `drop`.
 */
export function worktree(commit: string, loading: Loading): { dir: string; rev: string; drop: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'llmbda-checkout-'));
  rmSync(dir, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', dir, commit], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  if (loading === 'compiled') execFileSync('npm', ['run', '--silent', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const rev = execFileSync('git', ['rev-parse', '--short', commit], { cwd: ROOT, encoding: 'utf8' }).trim();
  return { dir, rev, drop: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' }) };
}

/** One `llmbda check` process: wall and CPU seconds (GNU time, the whole process and its worker threads), verdicts. */
export interface CheckRun { readonly wall: number; readonly cpu: number; readonly ok: boolean }

/**
 * `llmbda check ARGS` through this checkout's bin under plain `node` (the compiled package, dist/), optionally under
 * V8 flags, timed by GNU time (bench:suites' worker pool, bench:jit's default check).
 */
export function measureCheck(args: readonly string[], nodeFlags: readonly string[] = []): CheckRun {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S', process.execPath, ...nodeFlags, 'bin/llmbda.js', 'check', ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, LLMBDA_SOURCE: '' }, maxBuffer: 1 << 28,
  });
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`could not read GNU time output: ${r.stderr.slice(-500)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), ok: r.status === 0 };
}
