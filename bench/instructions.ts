/**
 * `npm run bench:instructions`: the cost of a few *cold* evaluations counted in machine instructions
 * (valgrind's callgrind), so that two builds can be compared on this shared, noisy machine where CPU times of
 * a 20–50 ms evaluation swing by ±25 % between runs. Counts are reproducible to a few per cent: what varies is
 * when V8's background compiler finishes relative to the main thread.
 *
 * For each program (a bench:eval-v2 shape and size, or a property suite's first N cases) and each build —
 * commit `--base` (a temporary worktree, built there), this checkout (built into dist/), and this checkout under `--no-opt` (no TurboFan: what the
 * optimising compiler costs and gives) — one process evaluates the program `--reps` times under callgrind,
 * and one only loads it (the baseline, subtracted); a suite runs N cases of seed 1 on powerset-us (tuned
 * profile), the first pass of bench:suites. Threads are counted apart: the main thread (the
 * evaluations themselves, interpreted or optimised) and every other thread (V8's background threads:
 * TurboFan's compile jobs and concurrent garbage collection). Cells are medians over `--runs` processes.
 *
 * Instructions are a proxy for time, not time: memory stalls and cache misses do not show. Use it for
 * A/B comparisons of cold cost; time is what bench:eval-v2 and bench:jit measure. Single runs of one build differ
 * by up to ≈ 6 % on the merging shapes and ±10 % on straight-line flips (what TurboFan compiles, and when, varies):
 * compare medians.
 *
 * Flags: --base COMMIT (default HEAD), --runs R (default 3), --reps K (evaluations per process, default 3),
 * --programs coins:20,chain:11,suite:tipni:1000,… (shape:N, or suite:NAME:CASES; default the first sizes past 1 s
 * of WebPPL, a longer run, and TIPNI's first 1,000 cases),
 * --no-doc. Needs valgrind (Debian: `apt install valgrind`).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { worktree } from './lib/checkouts.ts';
import { machineInfo, machineMarkdown, mdTable, ROOT, updateDoc } from './lib/doc.ts';
import { median } from './lib/stats.ts';
import { SHAPES } from './eval-v2-shapes.ts';

const USAGE = 'usage: npm run bench:instructions -- [--base COMMIT] [--runs R] [--reps K] [--programs shape:N,…] [--no-doc]\n';
let parsed;
try {
  parsed = parseArgs({
    options: {
      base: { type: 'string', default: 'HEAD' },
      runs: { type: 'string', default: '3' },
      reps: { type: 'string', default: '3' },
      programs: { type: 'string', default: 'coins:20,chain:11,coins:64,suite:tipni:1000' },
      'no-doc': { type: 'boolean', default: false },
    },
  });
} catch (e) {
  process.stderr.write(`bench:instructions: ${(e as Error).message}\n${USAGE}`);
  process.exit(2);
}
const flags = parsed.values;
const RUNS = Number(flags.runs), REPS = Number(flags.reps);
/** What one measured process runs: `reps` evaluations of a program, or a suite's first `runs` cases. */
interface Program { readonly label: string; readonly task: (count: number) => object; readonly evaluations: boolean }

function programOf(spec: string): Program | undefined {
  const parts = spec.split(':');
  if (parts[0] === 'suite' && parts.length === 3) {
    const [, suite, runs] = parts as [string, string, string];
    const n = Number(runs);
    if (!Number.isInteger(n) || n < 1) return undefined;
    return { label: `${suite} on powerset-us, first ${n.toLocaleString('en-US')} cases (seed 1)`, task: (k) => ({ suite, lattice: 'powerset-us', runs: k === 0 ? 0 : n }), evaluations: false };
  }
  const shape = SHAPES[parts[0] ?? ''], n = Number(parts[1]);
  if (parts.length !== 2 || shape === undefined || !Number.isInteger(n) || n < 0) return undefined;
  return { label: `${shape.name}, N = ${n}`, task: (k) => ({ program: shape.llmbda(n), model: shape.model, reps: k }), evaluations: true };
}
const SPECS = flags.programs.split(',');
const PROGRAMS = SPECS.map(programOf);
const bad = SPECS.find((_, i) => PROGRAMS[i] === undefined);
if (!Number.isInteger(RUNS) || RUNS < 1 || !Number.isInteger(REPS) || REPS < 1 || bad !== undefined) {
  process.stderr.write(`bench:instructions: ${bad !== undefined ? `bad program '${bad}' (shape:N with a shape of ${Object.keys(SHAPES).join(', ')}, or suite:NAME:CASES)` : 'bad --runs or --reps'}\n${USAGE}`);
  process.exit(2);
}
if (spawnSync('valgrind', ['--version']).error !== undefined) {
  process.stderr.write('bench:instructions needs valgrind on the PATH (Debian: apt install valgrind)\n');
  process.exit(2);
}
const log = (s: string): void => { process.stderr.write(`${s}\n`); };
const CHILD = join(ROOT, 'bench/instructions-child.mjs');

/** Instructions of one process: the main thread and every other thread. */
interface Count { readonly main: number; readonly other: number; readonly steps: number }

/** One process under callgrind: `dist`'s package running `task` (bench/instructions-child.mjs), under `nodeFlags`. */
function measure(dist: string, task: object, nodeFlags: readonly string[]): Promise<Count> {
  const dir = mkdtempSync(join(tmpdir(), 'llmbda-callgrind-'));
  return new Promise((resolve, reject) => {
    const args = ['--tool=callgrind', '--smc-check=all-non-file', '--separate-threads=yes', `--callgrind-out-file=${join(dir, 'cg')}`,
      process.execPath, ...nodeFlags, CHILD, dist, JSON.stringify(task)];
    const p = spawn('valgrind', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    p.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    p.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`callgrind run failed (${code}): ${err.slice(-600)}`);
        // One file per thread: cg-01 is the main thread.
        let main = 0, other = 0;
        for (const f of readdirSync(dir)) {
          const m = /^summary:\s*(\d+)/m.exec(readFileSync(join(dir, f), 'utf8'));
          if (m === null) continue;
          if (f.endsWith('-01')) main += Number(m[1]); else other += Number(m[1]);
        }
        const steps = (JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { steps?: number }).steps ?? 0;
        resolve({ main, other, steps });
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/**
 * Run `jobs` at most `width` at a time, results in order. (Not bench/lib/pool.ts: that pool keeps long-lived
 * workers speaking the isolate.ts protocol; each job here is one short valgrind process.)
 */
async function pool<T>(jobs: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const out = new Array<T>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => { while (next < jobs.length) { const i = next++; out[i] = await jobs[i]!(); } };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}

const fmtM = (x: number): string => `${(x / 1e6).toFixed(0)} M`;

async function main(): Promise<void> {
  const machine = machineInfo(['typescript']);
  const loads = [loadavg()[0] ?? NaN];
  log('building this checkout (npm run build) …');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  log('building a worktree …');
  const tree = worktree(flags.base, 'compiled');
  try {
    const builds = [
      { name: tree.rev, dist: join(tree.dir, 'dist'), nodeFlags: [] as string[] },
      { name: 'now', dist: join(ROOT, 'dist'), nodeFlags: [] as string[] },
      { name: 'now --no-opt', dist: join(ROOT, 'dist'), nodeFlags: ['--no-opt'] },
    ];
    const rows: string[][] = [];
    for (const p of PROGRAMS as Program[]) {
      // Per run and build: the evaluations and the load-only baseline, all runs of a program in one pool.
      const jobs: (() => Promise<Count>)[] = [];
      for (let r = 0; r < RUNS; r++) {
        for (const b of builds) {
          jobs.push(() => measure(b.dist, p.task(REPS), b.nodeFlags));
          jobs.push(() => measure(b.dist, p.task(0), b.nodeFlags));
        }
      }
      const counts = await pool(jobs, Math.max(1, Math.min(2, availableParallelism())));
      loads.push(loadavg()[0] ?? NaN);
      const cell = builds.map((_, k) => {
        const evs: Count[] = [], bases: Count[] = [];
        for (let r = 0; r < RUNS; r++) { evs.push(counts[2 * (r * builds.length + k)]!); bases.push(counts[2 * (r * builds.length + k) + 1]!); }
        return {
          main: median(evs.map((c, r) => c.main - bases[r]!.main)),
          other: median(evs.map((c, r) => c.other - bases[r]!.other)),
          total: median(evs.map((c, r) => c.main + c.other - bases[r]!.main - bases[r]!.other)),
          steps: evs[0]!.steps,
        };
      });
      log(`  ${p.label}: ${builds.map((b, k) => `${b.name} ${fmtM(cell[k]!.total)}`).join(', ')}`);
      const [base, now, noOpt] = cell as [typeof cell[0], typeof cell[0], typeof cell[0]];
      rows.push([p.label, p.evaluations ? now.steps.toLocaleString('en-US') : '—',
        `${fmtM(base.main)} / ${fmtM(base.other)} / ${fmtM(base.total)}`,
        `${fmtM(now.main)} / ${fmtM(now.other)} / ${fmtM(now.total)}`,
        `${(now.total / base.total).toFixed(3)}`,
        `${fmtM(noOpt.main)} / ${fmtM(noOpt.other)} / ${fmtM(noOpt.total)}`,
        `${(100 * (1 - noOpt.total / now.total)).toFixed(0)} %`]);
    }
    const command = `npm run bench:instructions${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
    const body = [
      '### Cold evaluations in instructions (`npm run bench:instructions`)',
      '',
      machineMarkdown(machine, command, [`1-minute load average during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`, `valgrind: ${spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).stdout.trim()}`]),
      '',
      mdTable(['program', 'rule apps (one evaluation)', `${tree.rev}: main / other threads / total`, 'now: main / other / total', `now / ${tree.rev} (total)`, 'now under --no-opt: main / other / total', 'no-opt saves (of now\'s total)'], rows),
      '',
      `- Instructions (callgrind, millions) of ${REPS} evaluations in a fresh process (or of the suite's cases), minus a process that only loads the program (or the suite), median over ${RUNS} runs per build. "Main" is the main thread (the evaluations); "other" every other thread, i.e. V8's background threads: TurboFan's compile jobs and concurrent garbage collection. "no-opt saves" is the share of the default build's instructions that a run without TurboFan (\`--no-opt\`, a diagnosis: the package sets no V8 flag) does not execute; negative where optimised code pays.`,
    ].join('\n');
    process.stdout.write(`${body}\n`);
    if (!flags['no-doc']) updateDoc('bench:instructions', body);
  } finally {
    tree.drop();
  }
}

try {
  await main();
} catch (e) {
  process.stderr.write(`bench:instructions: ${(e as Error).message}\n`);
  process.exit(1);
}
