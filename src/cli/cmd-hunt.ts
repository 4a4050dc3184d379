/**
 * `llmbda hunt`: search for a counterexample to the suite a variant should break, stop at the first,
 * shrink it, print a report a person can read and save it to the corpus (exit 1), or print how many
 * cases were tried (exit 0, a clean bill). `--system ppmf` hunts the PPMF suites instead.
 *
 * `llmbda replay FILE.json`: judge a saved case under the reference semantics and under its variant
 * (exit 0 when both verdicts are as recorded, 1 otherwise).
 */
import type { Command } from 'commander';
import { UserError } from '../util/absurd.ts';
import { DEFAULT_CASE_TIMEOUT_MS, duration, positiveInt, seed32, stackMb } from './common.ts';
import { MAX_STACK_MB, startInWorker } from './large-stack.ts';
import { withInterrupts } from './interrupt.ts';
import { describeSave, type HuntProgress } from '../api/hunt.ts';
import { saveFinding, type CorpusEntry, type SaveOutcome } from '../llmbda/corpus.ts';
import { latticeByName } from '../lattice/registry.ts';
import type { HuntTaskArgs, HuntTaskResult } from './hunt-task.ts';
import type { CommandResult } from './main.ts';
import type { ReplayResult } from '../api/hunt.ts';
import { allSuiteNames, ENDORSE_SUITES, PPMF_SUITES } from '../api/registry.ts';
import { huntPpmf } from '../ppmf/hunt.ts';
import { huntEndorse } from '../endorse/hunt.ts';
import { huntBanking } from '../api/banking-hunt.ts';
import { runTargetHunt } from './cmd-target.ts';

interface HuntFlags {
  variant?: string;
  lattice?: string[];
  suite?: string;
  time?: number;
  seed?: number;
  runs?: number;
  prims?: string;
  system: string;
  json?: boolean;
  out?: string;
  minimise: boolean;
  caseTimeout: number;
  maxSteps?: number;
  stackMb: number;
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

/** Exit code of a hunt that ended with too few cases to call the variant clean. */
export const EXIT_INCONCLUSIVE = 4;

/** Register `hunt` and `replay`. */
export function registerHunt(program: Command, result: CommandResult): void {
  program
    .command('hunt')
    .description('hunt for a counterexample against a variant semantics: stop at the first, shrink it, report it (and save it with --out)')
    .option('--variant <name|file.ts>', 'catalogue variant, "reference", or a variant file (see docs/variants.md)')
    .option('--lattice <name|file.ts>', 'lattice to hunt on (repeatable; default: the variant\'s expected lattices first, then the others)', collect)
    .option('--suite <name>', `suite to run (default: the one the variant is expected to break, else tipni), or all: ${allSuiteNames().join(', ')}`)
    .option('--time <duration>', 'search time budget, e.g. 30s, 2m (default 30s, or none with --runs; shrinking is extra)', duration('--time'))
    .option('--runs <n>', 'at most this many cases per (suite, lattice); alone, a deterministic budget (same seed, same result under any load)', positiveInt('--runs'))
    .option('--seed <s>', 'seed, 0..4294967295 (default: random; printed for replay)', seed32('--seed'))
    .option('--prims <file.ts>', 'a module exporting `prims` (a primitive table) added to every model; generated programs call them')
    .option('--system <name>', 'llmbda (default), ppmf (hunts the PPMF suites; --variant names a PPMF system), endorse (--variant names a prelude variant of robust_endorse/bounded_endorse) or banking (--variant ifc-off|ifc-on-no-endorse|ifc-on-endorse)', 'llmbda')
    .option('--out <dir>', 'save the counterexample in this folder, as soon as it is found, improved in place (nothing is written without it)')
    .option('--no-minimise', 'skip the minimiser after fast-check\'s shrinking')
    .option('--case-timeout <duration>', 'wall-clock limit per case (a looping user rule or lattice is stopped and named)', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--max-steps <n>', 'evaluation steps per run before a case is discarded as too expensive', positiveInt('--max-steps'))
    .option('--stack-mb <n>', `JavaScript stack of the hunt's worker thread, in MB (at most ${MAX_STACK_MB})`, stackMb('--stack-mb'), 256)
    .option('--json', 'machine-readable output')
    .option('--target <file|stdio:cmd>', 'hunt in an implementation under test instead (docs/targets.md; saved with --out)')
    .option('--mask <constructs>', 'with --target: constructs it cannot express, e.g. endorse,prim:toStr')
    .action(async (flags: HuntFlags & { target?: string; mask?: string }) => {
      if (flags.target) return runTargetHunt({ ...flags, target: flags.target }, result);
      if (flags.system === 'ppmf' || flags.system === 'endorse') {
        const r = flags.system === 'ppmf'
          ? huntPpmf({ suites: PPMF_SUITES, variant: flags.variant ?? 'ppmf', timeMs: flags.time ?? 30_000, ...(flags.seed !== undefined ? { seed: flags.seed } : {}), ...(flags.suite ? { suite: flags.suite } : {}) })
          : huntEndorse({ suites: ENDORSE_SUITES, variant: flags.variant ?? 'reference', timeMs: flags.time ?? 30_000, ...(flags.seed !== undefined ? { seed: flags.seed } : {}), ...(flags.suite ? { suite: flags.suite } : {}) });
        process.stdout.write(flags.json ? `${JSON.stringify(r.json ?? { found: r.found, tried: r.tried }, null, 2)}\n` : `${r.report}\n`);
        result.exitCode = r.found ? 1 : 0;
        return;
      }
      if (flags.system === 'banking') {
        const r = huntBanking({ variant: flags.variant ?? 'ifc-off', timeMs: flags.time ?? 30_000, ...(flags.seed !== undefined ? { seed: flags.seed } : {}), ...(flags.suite ? { suite: flags.suite } : {}) });
        process.stdout.write(flags.json ? `${JSON.stringify(r.json ?? { found: r.found, tried: r.tried }, null, 2)}\n` : `${r.report}\n`);
        result.exitCode = r.found ? 1 : 0;
        return;
      }
      if (flags.system !== 'llmbda') throw new UserError(`--system must be llmbda, ppmf, endorse or banking, got ${JSON.stringify(flags.system)}`);
      if (!flags.variant) throw new UserError('hunt needs --variant NAME|FILE.ts (a catalogue name, "reference", or a variant file); see docs/variants.md');
      result.exitCode = await runHunt(flags);
    });

  program
    .command('replay')
    .description('re-run a saved counterexample: the suite\'s check under the reference semantics and under the variant')
    .argument('<file>', 'a corpus file (counterexamples/*.json)')
    .option('--variant <name|file.ts>', 'judge under this variant instead of the one recorded in the file')
    .option('--case-timeout <duration>', 'wall-clock limit of each judgement (a looping user rule is stopped and named)', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--json', 'machine-readable output')
    .action(async (file: string, flags: { variant?: string; json?: boolean; caseTimeout: number }) => {
      // In a supervised worker: a variant file's rules may loop.
      const r = await startInWorker<Pick<ReplayResult, 'file' | 'ok' | 'reference' | 'variant' | 'report'>>('replay', { file, ...(flags.variant ? { variant: flags.variant } : {}) },
        { stackMb: 256, caseTimeoutMs: flags.caseTimeout }).result;
      result.exitCode = r.ok ? 0 : 1;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ file, ok: r.ok, reference: r.reference, variant: r.variant }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${r.report}\n`);
    });
}

/**
 * The LLMbda hunt, supervised: the search runs in a worker; each finding is shown (stderr) and saved
 * (with --out) the moment it is found and again whenever it gets smaller; a signal prints the best
 * so far and exits 130/143; the final report is printed before the final save is attempted.
 */
async function runHunt(flags: HuntFlags): Promise<number> {
  const timeMs = flags.time ?? (flags.runs !== undefined ? undefined : 30_000);
  const args: HuntTaskArgs = {
    variant: flags.variant!, minimise: flags.minimise,
    ...(flags.lattice ? { lattices: flags.lattice } : {}), ...(flags.suite ? { suite: flags.suite } : {}),
    ...(timeMs !== undefined ? { timeMs } : {}), ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.runs !== undefined ? { runs: flags.runs } : {}), ...(flags.prims ? { primsFile: flags.prims } : {}),
    ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}),
  };
  let best: HuntProgress | undefined;
  let saved: SaveOutcome | undefined;
  let saveError: string | undefined;
  const save = (entry: CorpusEntry): void => {
    if (flags.out === undefined || saveError !== undefined) return;
    try {
      saved = saveFinding(flags.out, entry, latticeByName(entry.lattice));
    } catch (e) {
      saveError = e instanceof Error ? e.message : String(e);
    }
  };
  const say = (text: string): void => { if (!flags.json) process.stderr.write(`${text}\n`); };
  const onEvent = (ev: unknown): void => {
    const p = ev as HuntProgress;
    if (p.kind === 'found') {
      say(`Found a counterexample (${p.size} AST nodes) on ${p.suite}/${p.lattice}; shrinking it now (Ctrl-C keeps the best so far):\n${p.report}`);
    } else if (!best || p.size < best.size) {
      say(`  smaller: ${p.size} AST nodes`);
    } else return;
    best = p;
    save(p.entry);
  };
  const task = startInWorker<HuntTaskResult>('hunt', args, { stackMb: flags.stackMb, caseTimeoutMs: flags.caseTimeout, onEvent });
  const savedLine = (): string[] => [
    ...(saved ? [describeSave(saved)] : []),
    ...(saveError !== undefined ? [`NOT SAVED: ${saveError}`] : []),
  ];
  const r = await withInterrupts((signal) => {
    task.stop();
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ interrupted: signal, found: best !== undefined, ...(best ? { suite: best.suite, lattice: best.lattice, size: best.size, case: best.entry } : {}), saved: saved?.file ?? null, saveError: saveError ?? null }, null, 2)}\n`);
    } else {
      process.stdout.write(best
        ? [`INTERRUPTED (${signal}) while shrinking; the best counterexample so far (${best.size} AST nodes):`, best.report, ...savedLine(), ''].join('\n')
        : `INTERRUPTED (${signal}): no counterexample found yet (seed ${flags.seed ?? 'random'}); nothing saved.\n`);
    }
    return saveError !== undefined ? 2 : undefined;
  }, () => task.result);
  const f = r.finding;
  // The report first, then the save: a save that fails never costs the finding.
  if (flags.json) {
    if (f) save(f.entry);
    process.stdout.write(`${JSON.stringify({
      found: r.found, status: r.status, variant: r.variant, seed: r.seed, tried: r.tried, timeMs: Math.round(r.timeMs), searched: r.searched,
      ...(f ? {
        suite: f.suite, lattice: f.lattice, path: f.path, testsToFailure: f.testsToFailure, timeToFailureMs: Math.round(f.timeToFailureMs),
        shrinks: f.shrinks, shrunkSize: f.shrunkSize, size: f.size, reason: f.reason, saved: saved?.file ?? null, case: f.entry,
      } : {}),
      ...(saveError !== undefined ? { saveError } : {}),
    }, null, 2)}\n`);
  } else {
    process.stdout.write(`${r.report}\n`);
    if (f) {
      save(f.entry);
      if (saved) process.stdout.write(`${describeSave(saved)}\n`);
    }
  }
  if (saveError !== undefined) {
    process.stderr.write(`llmbda: ${saveError}\n`);
    return 2;
  }
  return r.status === 'found' ? 1 : r.status === 'inconclusive' ? EXIT_INCONCLUSIVE : 0;
}
