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
import { DEFAULT_CASE_TIMEOUT_MS, DEFAULT_MAX_MEMORY_MB, duration, memoryMb, positiveInt, seed32, stackMb, collect } from './common.ts';
import { MAX_STACK_MB, startInWorker } from './large-stack.ts';
import { withInterrupts } from './interrupt.ts';
import { describeSave, type HuntProgress } from '../api/hunt.ts';
import { saveFinding, type CorpusEntry, type SaveOutcome } from '../llmbda/corpus.ts';
import { latticeByName } from '../lattice/registry.ts';
import type { HuntTaskArgs, HuntTaskEvent, HuntTaskResult } from './hunt-task.ts';
import { ProgressLine } from './progress.ts';
import type { CommandResult } from './main.ts';
import type { ReplayResult } from '../api/hunt.ts';
import { existsSync, statSync } from 'node:fs';
import { Option } from 'commander';
import { corpusFiles } from '../llmbda/corpus.ts';
import { huntDocument, render, replayDocument, reporterFlag, REPORTERS, systemHuntDocument, writeHtml, type Reporter } from '../report/index.ts';
import { packageVersion } from './main.ts';
import { EXIT_CODES, EXIT_CODES_HELP } from './exit-codes.ts';
import { allSuiteNames } from '../api/registry.ts';
import { defaultSeed } from '../runner/seed.ts';
import type { SystemFound, SystemHuntArgs, SystemHuntResult } from './system-hunt-task.ts';
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
  reporter?: Reporter;
  expectLeak?: boolean;
  html?: string;
  out?: string;
  minimise: boolean;
  caseTimeout: number;
  maxSteps?: number;
  maxMemoryMb: number;
  stackMb: number;
  progress: boolean;
}

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
    .addOption(new Option('--time <duration>', 'search time budget, e.g. 30s, 2m (shrinking is extra; none with --runs alone) (default: 30s)').argParser(duration('--time')))
    .option('--runs <n>', 'at most this many cases per (suite, lattice); alone, a deterministic budget (same seed, same result under any load)', positiveInt('--runs'))
    .option('--seed <s>', 'seed, 0..4294967295 (default: random; printed for replay)', seed32('--seed'))
    .option('--prims <file.ts>', 'a module exporting `prims` (a primitive table) added to every model; generated programs call them')
    .option('--system <name>', 'llmbda (default), ppmf (hunts the PPMF suites; --variant names a PPMF system), endorse (--variant names a prelude variant of robust_endorse/bounded_endorse) or banking (--variant ifc-off|ifc-on-no-endorse|ifc-on-endorse)', 'llmbda')
    .option('--out <dir>', 'save the counterexample in this folder, as soon as it is found, improved in place (nothing is written without it)')
    .option('--no-minimise', 'skip the minimiser after fast-check\'s shrinking')
    .option('--case-timeout <duration>', 'time limit per case, CPU time of its thread on Linux (a looping user rule or lattice is stopped and named)', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--max-steps <n>', 'evaluation steps per run before a case is discarded as too expensive', positiveInt('--max-steps'))
    .option('--max-memory-mb <n>', `heap cap of the hunt's worker thread in MB: a case that exhausts it is reported, exit 2`, memoryMb('--max-memory-mb'), DEFAULT_MAX_MEMORY_MB)
    .option('--stack-mb <n>', `JavaScript stack of the hunt's worker thread, in MB (at most ${MAX_STACK_MB})`, stackMb('--stack-mb'), 256)
    .option('--expect-leak', 'the variant is known to be bad: exit 0 when a counterexample is found, 1 when none is ("still caught" jobs)')
    .option('--reporter <kind>', `output: ${REPORTERS.join(', ')} (see docs/ci.md)`, reporterFlag, 'text')
    .option('--json', 'same as --reporter json')
    .option('--html <file>', 'also write the report as one self-contained HTML page (docs/reports.md)')
    .option('--no-progress', 'no progress line (it is only drawn on a terminal anyway)')
    .addHelpText('after', EXIT_CODES_HELP)
    .option('--target <file|stdio:cmd>', 'hunt in an implementation under test instead (docs/targets.md; saved with --out)')
    .option('--mask <constructs>', 'with --target: constructs it cannot express, e.g. endorse,prim:toStr')
    .action(async (flags: HuntFlags & { target?: string; mask?: string }, cmd: Command) => {
      if (flags.html !== undefined && (flags.target || flags.system !== 'llmbda')) throw new UserError('--html reports LLMbda hunts only (not --target or --system other than llmbda)');
      if (flags.target) return runTargetHunt({ ...flags, target: flags.target }, { caseTimeout: flags.caseTimeout, maxMemoryMb: flags.maxMemoryMb, ...(cmd.getOptionValueSource('stackMb') === 'cli' ? { stackMb: flags.stackMb } : {}) }, result);
      const reporter: Reporter = flags.json ? 'json' : flags.reporter ?? 'text';
      if (flags.system === 'ppmf' || flags.system === 'endorse' || flags.system === 'banking') {
        result.exitCode = await runSystemHunt(flags.system, flags, reporter);
        return;
      }
      if (flags.system !== 'llmbda') throw new UserError(`--system must be llmbda, ppmf, endorse or banking, got ${JSON.stringify(flags.system)}`);
      if (!flags.variant) throw new UserError('hunt needs --variant NAME|FILE.ts (a catalogue name, "reference", or a variant file); see docs/variants.md');
      result.exitCode = await runHunt(flags, reporter);
    });

  program
    .command('replay')
    .description('re-run saved counterexamples in one process: each suite\'s check under the reference semantics and under the variant, then a summary')
    .argument('<files...>', 'corpus files (counterexamples/*.json) or folders of them')
    .option('--variant <name|file.ts>', 'judge under this variant instead of the one recorded in each file')
    .option('--lattice <name|file.ts>', 'use this lattice instead of the one recorded in each file')
    .option('--case-timeout <duration>', 'time limit of each judgement, CPU time on Linux (a looping user rule is stopped and named)', duration('--case-timeout'), DEFAULT_CASE_TIMEOUT_MS)
    .option('--max-memory-mb <n>', `heap cap of the replay's worker thread in MB`, memoryMb('--max-memory-mb'), DEFAULT_MAX_MEMORY_MB)
    .option('--reporter <kind>', `output: ${REPORTERS.join(', ')} (see docs/ci.md)`, reporterFlag, 'text')
    .option('--json', 'same as --reporter json')
    .option('--html <file>', 'also write the report as one self-contained HTML page (docs/reports.md)')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (args: string[], flags: { variant?: string; lattice?: string; json?: boolean; reporter?: Reporter; caseTimeout: number; maxMemoryMb: number; html?: string }) => {
      const started = performance.now();
      const reporter: Reporter = flags.json ? 'json' : flags.reporter ?? 'text';
      const files = expandCorpusArgs(args);
      type Replayed = Pick<ReplayResult, 'file' | 'entry' | 'ok' | 'reference' | 'variant' | 'report' | 'explanation'>;
      const done: ({ file: string; result: Replayed; timeMs: number } | { file: string; error: string })[] = [];
      const summaryOf = (): string => {
        const ok = done.filter((d) => 'result' in d && d.result.ok).length;
        const errors = done.filter((d) => 'error' in d).length;
        return `${done.length} entr${done.length === 1 ? 'y' : 'ies'}: ${ok} as recorded, ${done.length - ok - errors} regressed, ${errors} could not be loaded`;
      };
      let current: { stop(): void } | undefined;
      // SIGINT/SIGTERM: the entries replayed so far are printed, then exit 130/143.
      await withInterrupts((signal) => {
        current?.stop();
        const partial = done.map((d) => ('error' in d ? `Replaying ${d.file}\n  ERROR: ${d.error}` : d.result.report));
        if (reporter === 'text') process.stdout.write([...partial, `INTERRUPTED (${signal}): replayed ${summaryOf()}; ${files.length - done.length} of ${files.length} not replayed.`, ''].join('\n\n'));
        else process.stdout.write(`${JSON.stringify({ interrupted: signal, replayed: done.map((d) => ('error' in d ? { file: d.file, error: d.error } : { file: d.file, ok: d.result.ok })), notReplayed: files.slice(done.length) }, null, 2)}\n`);
      }, async () => {
        // In a supervised worker (a variant file's rules may loop, a case may exhaust the heap), one for all the
        // files: each entry comes back as an event. A user error in one entry (a malformed file) is reported with
        // the others; one that stops the worker (a time or memory limit) is that entry's error, and a fresh worker
        // goes on with the next. A single bad file is a usage error (exit 2).
        let rest: readonly string[] = files;
        let single: string | undefined;
        while (rest.length > 0) {
          const batch = rest;
          let k = 0, beats = 0, t0 = performance.now();
          const task = startInWorker<null>('replay', { files: batch, ...(flags.variant ? { variant: flags.variant } : {}), ...(flags.lattice ? { lattice: flags.lattice } : {}) }, {
            stackMb: 256, caseTimeoutMs: flags.caseTimeout, maxMemoryMb: flags.maxMemoryMb, beatsBefore: () => beats,
            onEvent: (ev) => {
              const e = ev as { file: string; beats: number } & ({ result: Replayed } | { error: string });
              if ('error' in e && files.length === 1) { single = e.error; return; } // thrown below, as the task's error
              done.push('error' in e ? { file: e.file, error: e.error } : { file: e.file, result: e.result, timeMs: performance.now() - t0 });
              k++; beats = e.beats; t0 = performance.now();
            },
          });
          current = task;
          try {
            await task.result;
            if (single !== undefined) throw new UserError(single);
            rest = [];
          } catch (e) {
            if (!(e instanceof UserError) || files.length === 1) throw e;
            if (k < batch.length) done.push({ file: batch[k]!, error: e.message });
            rest = batch.slice(k + 1);
          }
        }
      });
      const errors = done.filter((d) => 'error' in d);
      const summary = `Replayed ${summaryOf()}.`;
      const text = [
        ...done.map((d) => ('error' in d ? `Replaying ${d.file}\n  ERROR: ${d.error}` : d.result.report)),
        ...(done.length > 1 ? ['', summary] : []),
      ].join(done.length > 1 ? '\n\n' : '\n');
      const doc = replayDocument(done, { version: packageVersion(), timeMs: performance.now() - started, text });
      result.exitCode = errors.length > 0 ? 2 : doc.exitCode;
      process.stdout.write(render(doc, reporter));
      if (flags.html !== undefined) writeHtml(flags.html, doc);
    });
}

/** The corpus files named on the command line: files as given, folders expanded to their `.json` files (sorted). */
export function expandCorpusArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (existsSync(a) && statSync(a).isDirectory()) {
      const fs = corpusFiles(a);
      if (fs.length === 0) throw new UserError(`${a}: a folder with no corpus files (*.json)`);
      out.push(...fs);
    } else {
      out.push(a);
    }
  }
  return out;
}

/**
 * The LLMbda hunt, supervised: the search runs in a worker; each finding is shown (stderr) and saved
 * (with --out) the moment it is found and again whenever it gets smaller; a signal prints the best
 * so far and exits 130/143; the final report is printed before the final save is attempted.
 */
async function runHunt(flags: HuntFlags, reporter: Reporter): Promise<number> {
  const timeMs = flags.time ?? (flags.runs !== undefined ? undefined : 30_000);
  const args: HuntTaskArgs = {
    variant: flags.variant!, minimise: flags.minimise,
    ...(flags.lattice ? { lattices: flags.lattice } : {}), ...(flags.suite ? { suite: flags.suite } : {}),
    ...(timeMs !== undefined ? { timeMs } : {}), ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
    ...(flags.runs !== undefined ? { runs: flags.runs } : {}), ...(flags.prims ? { primsFile: flags.prims } : {}),
    ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}),
    ...(flags.out !== undefined ? { entryDir: flags.out } : {}),
  };
  // The search runs in the worker, which posts its case count; this thread draws the line (a terminal only).
  // The line starts at the first count, so the rate leaves out the worker's start-up and loading.
  const showProgress = ProgressLine.enabled(process.stderr, flags.progress && reporter === 'text');
  let line: ProgressLine | undefined;
  const searchStarted = performance.now();
  const huntArgs: HuntTaskArgs = showProgress ? { ...args, progressMs: 100 } : args;
  // A --runs budget over named suite and lattices is a known total; otherwise the ETA is the time left.
  const total = flags.runs !== undefined && flags.suite !== undefined && flags.suite !== 'all' && flags.lattice && !flags.prims ? flags.runs * flags.lattice.length : undefined;
  const drawCases = (tried: number): void => {
    if (line === undefined) {
      line = new ProgressLine(process.stderr, 'hunting'); // the first count starts the clock
      return;
    }
    line.update(tried, timeMs !== undefined ? { leftMs: Math.max(0, timeMs - (performance.now() - searchStarted)) }
      : total !== undefined ? { total } : { detail: `at most ${flags.runs ?? '?'} per (suite, lattice)` });
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
  const say = (text: string): void => { if (reporter === 'text') process.stderr.write(`${text}\n`); };
  const onEvent = (ev: unknown): void => {
    const p = ev as HuntTaskEvent;
    if (p.kind === 'cases') {
      // Only while searching: once a case is found, shrinking reports its own lines.
      if (best === undefined) drawCases(p.tried);
      return;
    }
    line?.stop();
    if (p.kind === 'found') {
      say(`Found a counterexample (${p.size} AST nodes) on ${p.suite}/${p.lattice}; shrinking it now (Ctrl-C keeps the best so far):\n${p.report}`);
    } else if (!best || p.size < best.size) {
      say(`  smaller: ${p.size} AST nodes`);
    } else return;
    best = p;
    save(p.entry);
  };
  const task = startInWorker<HuntTaskResult>('hunt', huntArgs, { stackMb: flags.stackMb, caseTimeoutMs: flags.caseTimeout, maxMemoryMb: flags.maxMemoryMb, onEvent });
  const savedLine = (): string[] => [
    ...(saved ? [describeSave(saved)] : []),
    ...(saveError !== undefined ? [`NOT SAVED: ${saveError}`] : []),
  ];
  const r = await withInterrupts((signal) => {
    task.stop();
    line?.stop();
    if (reporter !== 'text') {
      process.stdout.write(`${JSON.stringify({ interrupted: signal, found: best !== undefined, ...(best ? { suite: best.suite, lattice: best.lattice, size: best.size, case: best.entry } : {}), saved: saved?.file ?? null, saveError: saveError ?? null }, null, 2)}\n`);
    } else {
      process.stdout.write(best
        ? [`INTERRUPTED (${signal}) while shrinking; the best counterexample so far (${best.size} AST nodes):`, best.report, ...savedLine(), ''].join('\n')
        : `INTERRUPTED (${signal}): no counterexample found yet (seed ${flags.seed ?? 'random'}); nothing saved.\n`);
    }
    return saveError !== undefined ? 2 : undefined;
  }, () => task.result.finally(() => line?.stop()));
  const f = r.finding;
  // The report first, then the save: a save that fails never costs the finding.
  const doc = huntDocument(r, { version: packageVersion(), expectLeak: Boolean(flags.expectLeak), variantSpec: flags.variant! });
  process.stdout.write(render(doc, reporter));
  if (f) {
    save(f.entry);
    if (saved && reporter === 'text') process.stdout.write(`${describeSave(saved)}\n`);
  }
  // The page after the save: a page that cannot be written never costs the saved finding.
  let htmlError: string | undefined;
  if (flags.html !== undefined) {
    try {
      writeHtml(flags.html, doc);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      htmlError = e.message;
    }
  }
  for (const err of [saveError, htmlError]) if (err !== undefined) process.stderr.write(`llmbda: ${err}\n`);
  if (saveError !== undefined || htmlError !== undefined) return 2;
  if (r.status === 'inconclusive' && !flags.expectLeak) return EXIT_INCONCLUSIVE;
  return doc.exitCode;
}

/**
 * `hunt --system ppmf|endorse|banking`, supervised like the LLMbda hunt: the search runs in a worker (the
 * watchdog stops a case stuck past --case-timeout, the heap is capped); SIGINT/SIGTERM print what is known
 * (a failing case found and being shrunk, or nothing yet) and exit 130/143.
 */
async function runSystemHunt(system: SystemHuntArgs['system'], flags: HuntFlags, reporter: Reporter): Promise<number> {
  const started = performance.now();
  const seed = flags.seed ?? defaultSeed();
  // --runs alone is a case budget without a time limit, as for the LLMbda hunt.
  const args: SystemHuntArgs = { system, timeMs: flags.time ?? (flags.runs !== undefined ? Infinity : 30_000), seed, ...(flags.variant !== undefined ? { variant: flags.variant } : {}), ...(flags.suite ? { suite: flags.suite } : {}), ...(flags.runs !== undefined ? { runs: flags.runs } : {}) };
  let first: SystemFound | undefined;
  const task = startInWorker<SystemHuntResult>('hunt-system', args, { stackMb: flags.stackMb, caseTimeoutMs: flags.caseTimeout, maxMemoryMb: flags.maxMemoryMb, onEvent: (ev) => { first ??= ev as SystemFound; } });
  const r = await withInterrupts((signal) => {
    task.stop();
    if (reporter !== 'text') { // as the LLMbda hunt: an interrupted run is a JSON status, never a half report
      process.stdout.write(`${JSON.stringify({ interrupted: signal, system, found: first !== undefined, ...(first ? { suite: first.suite, reason: first.reason, testsToFailure: first.testsToFailure } : {}) }, null, 2)}\n`);
    } else {
      process.stdout.write(first
        ? `INTERRUPTED (${signal}) while shrinking: a counterexample to ${first.suite} was found after ${first.testsToFailure} tests (${first.reason}); rerun with the same --seed to see it shrunk.\n`
        : `INTERRUPTED (${signal}): no counterexample found yet on --system ${system} (seed ${seed}).\n`);
    }
  }, () => task.result);
  if (reporter !== 'text') {
    // The report document (JSON schema as for every command), one case / testcase / annotation per suite searched;
    // the defaults of each system's variant as in system-hunt-task.ts.
    const variant = flags.variant ?? (system === 'ppmf' ? 'ppmf' : system === 'endorse' ? 'reference' : 'ifc-off');
    const doc = systemHuntDocument({ system, variant, seed, found: r.found, report: r.report, timeMs: performance.now() - started, searched: r.searched, failure: r.failure },
      { version: packageVersion(), expectLeak: Boolean(flags.expectLeak) });
    process.stdout.write(render(doc, reporter));
  } else {
    process.stdout.write(`${r.report}\n`);
  }
  return systemHuntExit(r, Boolean(flags.expectLeak));
}

/**
 * The exit code of a system hunt. A suite that crashed is not a leak: with `--expect-leak` it must not pass as
 * "still caught". It exits 1 either way, as the report document says (its crashed case is an `error`, `ok` false).
 */
export function systemHuntExit(r: Pick<SystemHuntResult, 'found' | 'failure'>, expectLeak: boolean): number {
  if (r.failure?.error) return EXIT_CODES.failed;
  return r.found === expectLeak ? EXIT_CODES.ok : EXIT_CODES.failed;
}
