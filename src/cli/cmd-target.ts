/**
 * Testing someone else's interpreter (issue 13, docs/targets.md):
 *
 *   llmbda check --target SPEC   TIPNI, Insulated TIPNI and differential agreement against the target
 *   llmbda hunt  --target SPEC   the same suites until the first counterexample; shrunk, saved, replayable
 *   llmbda check --target SPEC --replay FILE   judge a saved target counterexample again
 *   llmbda diff  --target SPEC   differential agreement with the reference; every disagreement shrunk
 *                                and classified by the constructs involved
 *
 * SPEC is a target module, a `.py` file, or `stdio:COMMAND` (src/targets/load.ts). `check` and `hunt` call
 * `runTargetCheck`/`runTargetHunt` when `--target` is given; `diff` is registered here.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { resolveLattice } from '../lattice/registry.ts';
import type { AnyLattice } from '../lattice/lattice.ts';
import { absurd, UserError } from '../util/absurd.ts';
import { caseToEntry, entryCase, loadEntry, saveEntry, slug } from '../llmbda/corpus.ts';
import { loadTarget, parseMask } from '../targets/load.ts';
import { TARGET_SUITES, runTargetSuite, targetDiff, targetSuiteByName, type AnyTargetSuite, type TargetEnv, type TargetVerdict } from '../targets/suites.ts';
import type { AnyTarget } from '../targets/target.ts';
import { DEFAULT_CASE_TIMEOUT_MS, DEFAULT_MAX_MEMORY_MB, duration, MAX_MEMORY_MB, memoryMb, MIN_MEMORY_MB, positiveInt, seed32 } from './common.ts';
import { startInWorker } from './large-stack.ts';
import { withInterrupts } from './interrupt.ts';
import { onChildSpawned } from '../targets/stdio.ts';
import { renderTable } from '../util/table.ts';
import type { CommandResult } from './main.ts';

/** The flags the target commands share (check and hunt pass theirs through). */
export interface TargetFlags {
  target: string;
  lattice?: string[];
  mask?: string;
  runs?: number;
  seed?: number;
  suite?: string | string[];
  replay?: string;
  time?: number;
  out?: string;
  save?: boolean;
  json?: boolean;
}

async function openTarget(f: TargetFlags): Promise<{ target: AnyTarget; lat: AnyLattice }> {
  if ((f.lattice?.length ?? 0) > 1) throw new UserError('--target runs on one lattice: give --lattice once');
  const lat = await resolveLattice(f.lattice?.[0] ?? 'powerset-us');
  const mask = parseMask(f.mask);
  const target = await loadTarget(f.target, lat, mask ? { mask } : {});
  return { target, lat: target.lattice };
}

function suitesOf(f: TargetFlags): AnyTargetSuite[] {
  const names = f.suite === undefined ? [] : Array.isArray(f.suite) ? f.suite : [f.suite];
  if (names.length === 0 || names.includes('all')) return [...TARGET_SUITES];
  return names.map((n) => targetSuiteByName(n) ?? (() => { throw new UserError(`unknown target suite ${JSON.stringify(n)}; target suites are ${TARGET_SUITES.map((s) => s.name).join(', ')}, stat-tipni`); })());
}

const pct = (v: number): string => `${(v * 100).toFixed(0)}%`;

function describe(v: TargetVerdict<unknown>, spec: string, lat: AnyLattice, runs: number): string[] {
  const out = [pc.bold(`${v.suite} on ${lat.name}: ${v.title}`)];
  if (v.counterexample) {
    const c = v.counterexample;
    out.push(`counterexample after ${c.testsToFailure} tests, ${c.shrinks} shrinks:`, c.pretty, `why: ${c.reason}`,
      `constructs involved: ${(v.constructs ?? []).join(', ') || '(none beyond data)'}`,
      `replay: npx llmbda check --target '${spec}' --lattice '${lat.name}' --suite ${v.suite} --seed ${c.seed} --runs ${runs}  (path ${c.path})`);
  }
  if (v.vacuous.length) out.push(`vacuous: ${v.vacuous.join('; ')}`);
  if (v.error) out.push(`error: ${v.error}`);
  return out;
}

function maskedNote(v: TargetVerdict<unknown>): string {
  const es = Object.entries(v.masked);
  return es.length === 0 ? '0' : `${es.reduce((a, [, n]) => a + n, 0)} (${es.map(([k, n]) => `${k} ${n}`).join(', ')})`;
}

/** What a target task's body hands back to the CLI thread: its output and exit code (plain data). */
export interface TargetOutput {
  stdout: string;
  exitCode: number;
  /** A save that failed (`hunt`): printed after the report, exit 2. */
  saveError?: string;
}

/** Progress a target task posts: a finished verdict or a finding (what a signal prints), a child process started. */
export type TargetEvent =
  | { readonly kind: 'verdict'; readonly line: string }
  | { readonly kind: 'found'; readonly report: string }
  | { readonly kind: 'child'; readonly pid: number };

/** Does a user-code failure end the command (exit 2)? */
const userFailed = (vs: readonly TargetVerdict<unknown>[]): TargetVerdict<unknown> | undefined => vs.find((v) => v.status === 'error' && v.userCode === true);

/** `llmbda check --target SPEC` (the body, run in the task worker). */
async function checkTarget(f: TargetFlags, emit: (e: TargetEvent) => void): Promise<TargetOutput> {
  const { target, lat } = await openTarget(f);
  try {
    if (f.replay) return await replayTarget(f, target, lat);
    const seed = f.seed ?? Date.now() % 2_147_483_647;
    const runs = f.runs ?? 2000;
    const env: TargetEnv<unknown> = { target, profile: 'tuned' };
    const verdicts: TargetVerdict<unknown>[] = [];
    for (const s of suitesOf(f)) {
      const v = await runTargetSuite(s, env, { runs, seed });
      verdicts.push(v);
      emit({ kind: 'verdict', line: `${v.suite} on ${lat.name}: ${v.status === 'holds' ? 'holds' : v.status === 'fails' ? 'FAILS' : v.status === 'vacuous' ? 'VACUOUS' : `ERROR: ${v.error ?? ''}`}` });
      if (v.status === 'error' && v.userCode) break; // the target's own code failed: its other suites would fail the same way
    }
    const ok = verdicts.every((v) => v.ok);
    const broken = userFailed(verdicts);
    const exitCode = broken ? 2 : ok ? 0 : 1;
    if (f.json) {
      return { exitCode, stdout: `${JSON.stringify({ target: target.name, lattice: lat.name, seed, runs, ok, results: verdicts.map(({ counterexample, ...v }) => ({ ...v, ...(counterexample ? { counterexample: { ...counterexample, value: undefined } } : {}) })) }, null, 2)}\n` };
    }
    const rows = verdicts.map((v) => [v.suite, lat.name, String(v.runs), maskedNote(v), `${(v.timeMs / 1000).toFixed(1)}s`,
      v.ok ? pc.green(v.suite === 'stat-tipni' ? 'no evidence of a leak' : 'holds') : v.counterexample ? pc.red('FAILS') : v.status === 'error' ? pc.red('ERROR') : pc.yellow('VACUOUS'), Object.entries(v.stats).map(([k, x]) => `${k} ${pct(x)}`).join(', ')]);
    const out = [`target ${target.name}, seed ${seed}`, renderTable(['suite', 'lattice', 'runs', 'masked', 'time', 'result', 'non-vacuity'], rows)];
    for (const v of verdicts) if (!v.ok) out.push('', ...describe(v, f.target, lat, runs));
    out.push('', broken ? pc.red(`the target's own code failed in suite ${broken.suite} (the error above): a user error, exit 2`)
      : ok ? pc.green(`all ${verdicts.length} verdicts hold`) : pc.red(`${verdicts.filter((v) => !v.ok).length} of ${verdicts.length} verdicts do not hold`));
    return { exitCode, stdout: `${out.join('\n')}\n` };
  } finally {
    await target.close?.();
  }
}

async function replayTarget(f: TargetFlags, target: AnyTarget, lat: AnyLattice): Promise<TargetOutput> {
  const entry = loadEntry(f.replay!);
  if (entry.lattice !== lat.name) throw new UserError(`${f.replay}: saved on lattice ${entry.lattice}, but the target runs on ${lat.name} (pass --lattice ${entry.lattice})`);
  const suite = targetSuiteByName(entry.suite);
  if (!suite) throw new UserError(`${f.replay}: suite ${JSON.stringify(entry.suite)} is not a target suite (${TARGET_SUITES.map((s) => s.name).join(', ')})`);
  const c = entryCase(f.replay!, entry, lat);
  const env: TargetEnv<unknown> = { target, profile: 'tuned' };
  const { outcome } = await suite.check(c.value, env);
  return { exitCode: outcome.ok ? 0 : 1, stdout: `${suite.show(c.value, env)}\n${outcome.ok ? pc.green('holds') : `${pc.red('FAILS')}: ${outcome.reason}`}\n` };
}

/** `llmbda hunt --target SPEC`: the suites in turn until the first counterexample (shrunk; the report, then the save). */
async function huntTarget(f: TargetFlags, emit: (e: TargetEvent) => void): Promise<TargetOutput> {
  const { target, lat } = await openTarget(f);
  try {
    const seed = f.seed ?? Date.now() % 2_147_483_647;
    const env: TargetEnv<unknown> = { target, profile: 'tuned' };
    const suites = suitesOf(f);
    const perSuiteMs = Math.max(1000, Math.floor((f.time ?? 30_000) / suites.length));
    let tried = 0;
    for (const s of suites) {
      const onFailure = (c: unknown, reason: string, n: number): void =>
        emit({ kind: 'found', report: `${s.name} on ${lat.name} fails after ${n} tests (seed ${seed}; not shrunk yet):\n${s.show(c, env)}\nwhy: ${reason}` });
      const v = await runTargetSuite(s, env, { runs: f.runs ?? 1_000_000, seed, timeoutMs: perSuiteMs, onFailure });
      tried += v.runs;
      if (v.status === 'error' && v.userCode) throw new UserError(`${v.error ?? 'user code failed'} (suite ${s.name} on ${lat.name}, seed ${seed})`);
      if (!v.counterexample) continue;
      const out = describe(v, f.target, lat, f.runs ?? 1_000_000);
      let saveError: string | undefined;
      if (f.save !== false) {
        const entry = caseToEntry(lat, { kind: s.kind, value: v.counterexample.value } as never, {
          variant: `target:${f.target}`, suite: s.name, seed, path: v.counterexample.path, reason: v.counterexample.reason,
          title: `${target.name}: ${s.title}`, expected: { reference: 'holds', variant: 'fails' },
        });
        try {
          const file = saveEntry(f.out ?? 'counterexamples/targets', `${slug(f.target)}-${s.name}-${slug(lat.name)}`, entry, lat);
          out.push(`saved: ${file}`, `replay: npx llmbda check --target '${f.target}' --lattice '${lat.name}' --replay ${file}`);
        } catch (e) {
          if (!(e instanceof UserError)) throw e;
          saveError = e.message; // the report is printed all the same, then the error (exit 2)
        }
      }
      return { exitCode: 1, stdout: `${out.join('\n')}\n`, ...(saveError !== undefined ? { saveError } : {}) };
    }
    return { exitCode: 0, stdout: `no counterexample in ${tried} cases (${suites.map((s) => s.name).join(', ')}) against ${target.name}, seed ${seed}\n` };
  } finally {
    await target.close?.();
  }
}

/** `llmbda diff --target SPEC` (the body, run in the task worker). */
async function diffTarget(f: TargetFlags & { max?: number }, emit: (e: TargetEvent) => void): Promise<TargetOutput> {
  const { target, lat } = await openTarget(f);
  try {
    const max = f.max ?? 5;
    const seed0 = f.seed ?? Date.now() % 2_147_483_647;
    const env: TargetEnv<unknown> = { target, profile: 'tuned' };
    let left = f.runs ?? 2000, round = 0;
    const found: (TargetVerdict<unknown> & { budget: number })[] = [];
    while (left > 0 && found.length < max) {
      const v = await runTargetSuite(targetDiff, env, { runs: left, seed: seed0 + round++ });
      if (v.status === 'error' && v.userCode) throw new UserError(`${v.error ?? 'user code failed'} (diff on ${lat.name}, seed ${seed0})`);
      if (!v.counterexample) { left = 0; break; }
      found.push({ ...v, budget: left });
      emit({ kind: 'found', report: `disagreement ${found.length}:\n${v.counterexample.pretty}\nwhy: ${v.counterexample.reason}` });
      left -= v.counterexample.testsToFailure;
    }
    if (found.length === 0) {
      return { exitCode: 0, stdout: `${pc.green('agrees')}: ${target.name} and the reference semantics on ${f.runs ?? 2000} generated programs (${lat.name}, seed ${seed0})\n` };
    }
    const classes = new Map<string, number>();
    for (const v of found) { const k = (v.constructs ?? []).join(' + ') || 'data only'; classes.set(k, (classes.get(k) ?? 0) + 1); }
    const out = [`${found.length} disagreement(s) between ${target.name} and the reference semantics (${lat.name}, seed ${seed0}), by construct:`,
      renderTable(['constructs involved', 'disagreements'], [...classes].map(([k, n]) => [k, String(n)]))];
    found.forEach((v, i) => out.push('', pc.bold(`disagreement ${i + 1}`), v.counterexample!.pretty, `why: ${v.counterexample!.reason}`, `constructs: ${(v.constructs ?? []).join(', ') || '(data only)'}`,
      `replay: npx llmbda check --target '${f.target}' --lattice '${lat.name}' --suite diff --seed ${v.counterexample!.seed} --runs ${v.budget}`));
    return { exitCode: 1, stdout: `${out.join('\n')}\n` };
  } finally {
    await target.close?.();
  }
}

/** What the CLI thread sends the task worker. */
export interface TargetTaskArgs {
  readonly mode: 'check' | 'hunt' | 'diff';
  readonly flags: TargetFlags & { max?: number };
}

/** Worker side (src/cli/large-stack-worker.ts): load the target there and run the mode; child processes are announced. */
export async function executeTarget(a: TargetTaskArgs, emit: (e: TargetEvent) => void): Promise<TargetOutput> {
  onChildSpawned((pid) => emit({ kind: 'child', pid }));
  switch (a.mode) {
    case 'check': return checkTarget(a.flags, emit);
    case 'hunt': return huntTarget(a.flags, emit);
    case 'diff': return diffTarget(a.flags, emit);
    default: return absurd(a.mode);
  }
}

/** How the target task is supervised (the command's flags). */
export interface TargetSupervision {
  readonly caseTimeout: number;
  readonly maxMemoryMb: number;
  /** JavaScript stack of the worker (MB): by default Node's own (4), as in the CLI thread, so a target that recurses without end overflows as fast as before. */
  readonly stackMb?: number;
}

/** The worker's stack unless `--stack-mb` says otherwise (Node's default for a worker). */
const TARGET_STACK_MB = 4;

/** Only what the body reads crosses to the worker (commander's option objects carry more). */
function flagsOf(f: TargetFlags & { max?: number }): TargetFlags & { max?: number } {
  const keys = ['target', 'lattice', 'mask', 'runs', 'seed', 'suite', 'replay', 'time', 'out', 'save', 'json', 'max'] as const;
  return Object.fromEntries(keys.filter((k) => f[k] !== undefined).map((k) => [k, f[k]])) as unknown as TargetFlags & { max?: number };
}

/**
 * Run a target mode in a supervised task worker (src/cli/large-stack.ts), like `run` and `hunt`: the target's
 * `run` (user code) cannot hang the CLI: the watchdog stops a case with no progress for `--case-timeout` and
 * names the function it was in (`FILE:run`), the heap is capped by `--max-memory-mb`, SIGINT/SIGTERM print what
 * is known. Child processes of stdio targets are killed when the worker is stopped (they are not its own).
 */
export async function runTargetMode(mode: TargetTaskArgs['mode'], f: TargetFlags & { max?: number }, sup: TargetSupervision, result: CommandResult): Promise<void> {
  const children = new Set<number>();
  const lines: string[] = [];
  let found: string | undefined;
  const onEvent = (ev: unknown): void => {
    const e = ev as TargetEvent;
    if (e.kind === 'child') children.add(e.pid);
    else if (e.kind === 'verdict') lines.push(e.line);
    else found ??= e.report;
  };
  const killChildren = (): void => {
    for (const pid of children) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    children.clear();
  };
  const args: TargetTaskArgs = { mode, flags: flagsOf(f) };
  const task = startInWorker<TargetOutput>('target', args, { stackMb: sup.stackMb ?? TARGET_STACK_MB, caseTimeoutMs: sup.caseTimeout, maxMemoryMb: sup.maxMemoryMb, onEvent });
  const out = await withInterrupts((signal) => {
    task.stop();
    killChildren();
    const head = `INTERRUPTED (${signal}) during ${mode} --target ${f.target}`;
    process.stdout.write(found !== undefined ? `${head}; a counterexample was found (nothing saved):\n${found}\n`
      : lines.length > 0 ? `${head}; verdicts finished so far:\n${lines.join('\n')}\n` : `${head}: nothing finished yet.\n`);
  }, () => task.result.finally(killChildren));
  process.stdout.write(out.stdout);
  if (out.saveError !== undefined) {
    process.stderr.write(`llmbda: ${out.saveError}\n`);
    result.exitCode = 2;
    return;
  }
  result.exitCode = out.exitCode;
}

/** `llmbda check --target SPEC`. */
export function runTargetCheck(f: TargetFlags, sup: TargetSupervision, result: CommandResult): Promise<void> {
  return runTargetMode('check', f, sup, result);
}

/** `llmbda hunt --target SPEC`. */
export function runTargetHunt(f: TargetFlags, sup: TargetSupervision, result: CommandResult): Promise<void> {
  return runTargetMode('hunt', f, sup, result);
}

/** Register `llmbda diff`. */
export function registerDiff(program: Command, result: CommandResult): void {
  program
    .command('diff')
    .description('differential agreement of a target with the reference semantics: every disagreement shrunk and classified by construct')
    .requiredOption('--target <file|stdio:cmd>', 'the implementation under test (docs/targets.md)')
    .option('--lattice <name>', 'lattice for out-of-process targets (default powerset-us)', (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--mask <constructs>', 'constructs the target cannot express, e.g. endorse,fork,prim:toStr')
    .option('--runs <n>', 'generated programs in all', positiveInt('--runs'), 2000)
    .option('--seed <s>', 'seed (default: random; printed for replay)', seed32('--seed'))
    .option('--max <n>', 'stop after this many disagreements', positiveInt('--max'), 5)
    .option('--case-timeout <duration>', 'time limit per case, CPU time of its thread on Linux (a looping target is stopped and named)', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--max-memory-mb <n>', `heap cap of the worker that runs the target, in MB (${MIN_MEMORY_MB}..${MAX_MEMORY_MB})`, memoryMb('--max-memory-mb'), DEFAULT_MAX_MEMORY_MB)
    .action(async (f: TargetFlags & { max: number; caseTimeout: number; maxMemoryMb: number }) => {
      await runTargetMode('diff', f, { caseTimeout: f.caseTimeout, maxMemoryMb: f.maxMemoryMb }, result);
    });
}
