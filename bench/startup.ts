/**
 * `npm run bench:startup`: CPU time of `llmbda --help` and `llmbda --version`, before and after the
 * compiled package, side by side in one run. "Before" is a git worktree of BASE (the last commit that ran
 * the CLI through tsx from the sources) sharing this checkout's node_modules; "after" is this checkout's
 * `bin/llmbda.js` running `dist/` (built first). Each command runs REPEATS times in alternation; the
 * table gives the median user+sys CPU seconds (from GNU time) and the ratio.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineInfo, machineMarkdown, mdTable, ROOT, updateDoc } from './lib/doc.ts';

const BASE = process.env['BASE'] ?? 'b8b57c0';
const REPEATS = Number(process.env['REPEATS'] ?? 7);

function measure(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): number {
  const res = execFileSync('bash', ['-c', `/usr/bin/time -f 'CPU %U %S' "${process.execPath}" bin/llmbda.js ${args.join(' ')} 2>&1 >/dev/null | tail -1`], { cwd, env, encoding: 'utf8' });
  const m = /CPU ([\d.]+) ([\d.]+)/.exec(res);
  if (!m) throw new Error(`could not read GNU time output: ${res}`);
  return Number(m[1]) + Number(m[2]);
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const wt = mkdtempSync(join(tmpdir(), 'llmbda-base-'));
rmSync(wt, { recursive: true });
execFileSync('git', ['worktree', 'add', '--detach', wt, BASE], { cwd: ROOT, stdio: 'ignore' });
try {
  symlinkSync(join(ROOT, 'node_modules'), join(wt, 'node_modules'));
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) throw new Error('no build');
  const env = { ...process.env, LLMBDA_SOURCE: '' };
  const rows: string[][] = [];
  for (const args of [['--help'], ['check', '--help']]) {
    const before: number[] = [], after: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      before.push(measure(wt, args, env));
      after.push(measure(ROOT, args, env));
    }
    const b = median(before), a = median(after);
    rows.push([`llmbda ${args.join(' ')}`, `${b.toFixed(2)} s`, `${a.toFixed(2)} s`, `${(b / a).toFixed(1)}×`]);
    console.log(rows.at(-1)!.join('  '));
  }
  const body = [
    machineMarkdown(machineInfo(['typescript', 'tsx']), 'npm run bench:startup', [`before: commit ${BASE} (sources through tsx); after: this checkout's dist/ (compiled); median of ${REPEATS} alternating runs, user+sys CPU from GNU time`]),
    mdTable(['command', 'CPU before (tsx, sources)', 'CPU after (compiled)', 'ratio'], rows),
  ].join('\n\n');
  updateDoc('startup', body);
} finally {
  execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: ROOT, stdio: 'ignore' });
}
