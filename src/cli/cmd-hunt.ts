/**
 * `llmbda hunt`: search for a counterexample to the suite a variant should break, stop at the first,
 * shrink it, print a report a person can read and save it to the corpus (exit 1), or print how many
 * cases were tried (exit 0, a clean bill). `--system ppmf` hunts the PPMF suites instead.
 *
 * `llmbda replay FILE.json`: judge a saved case under the reference semantics and under its variant
 * (exit 0 when both verdicts are as recorded, 1 otherwise).
 */
import { Option, type Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { corpusFiles } from '../llmbda/corpus.ts';
import { huntDocument, render, replayDocument, reporterFlag, REPORTERS, type Reporter } from '../report/index.ts';
import type { ReplayResult } from '../api/hunt.ts';
import { ProgressLine } from './progress.ts';
import { packageVersion } from './main.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { UserError } from '../util/absurd.ts';
import { duration, integer, positiveInt } from './common.ts';
import type { CommandResult } from './main.ts';
import { hunt, replay } from '../api/hunt.ts';
import { allSuiteNames, PPMF_SUITES } from '../api/registry.ts';
import { huntPpmf } from '../ppmf/hunt.ts';

interface HuntFlags {
  variant?: string;
  lattice?: string[];
  suite?: string;
  time: number;
  seed?: number;
  runs?: number;
  prims?: string;
  system: string;
  json?: boolean;
  reporter?: Reporter;
  expectLeak?: boolean;
  progress: boolean;
  out?: string;
  minimise: boolean;
}

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

/** Register `hunt` and `replay`. */
export function registerHunt(program: Command, result: CommandResult): void {
  program
    .command('hunt')
    .description('hunt for a counterexample against a variant semantics: stop at the first, shrink it, report and save it')
    .option('--variant <name|file.ts>', 'catalogue variant, "reference", or a variant file (see docs/variants.md)')
    .option('--lattice <name|file.ts>', 'lattice to hunt on (repeatable; default: the variant\'s expected lattices first, then the others)', collect)
    .option('--suite <name>', `suite to run (default: the one the variant is expected to break, else tipni), or all: ${allSuiteNames().join(', ')}`)
    .addOption(new Option('--time <duration>', 'search time budget, e.g. 30s, 2m (shrinking is extra)').argParser(duration('--time')).default(30_000, '30s'))
    .option('--seed <s>', 'seed (default: random; printed for replay)', integer('--seed'))
    .option('--runs <n>', 'at most this many cases per (suite, lattice)', positiveInt('--runs'))
    .option('--prims <file.ts>', 'a module exporting `prims` (a primitive table) added to every model; generated programs call them')
    .option('--system <name>', 'llmbda (default) or ppmf (hunts the PPMF suites; --variant names a PPMF system)', 'llmbda')
    .option('--out <dir>', 'save the counterexample in this folder (nothing is written without it)')
    .option('--no-minimise', 'skip the minimiser after fast-check\'s shrinking')
    .option('--expect-leak', 'the variant is known to be bad: exit 0 when a counterexample is found, 1 when none is ("still caught" jobs)')
    .option('--reporter <kind>', `output: ${REPORTERS.join(', ')} (see docs/ci.md)`, reporterFlag, 'text')
    .option('--no-progress', 'no progress line (it is only drawn on a terminal anyway)')
    .option('--json', 'same as --reporter json')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (flags: HuntFlags) => {
      const reporter: Reporter = flags.json ? 'json' : flags.reporter ?? 'text';
      if (flags.system === 'ppmf') {
        if (reporter !== 'text' && reporter !== 'json') throw new UserError(`--system ppmf supports --reporter text or json, got ${reporter}`);
        const r = huntPpmf({ suites: PPMF_SUITES, variant: flags.variant ?? 'ppmf', timeMs: flags.time, ...(flags.seed !== undefined ? { seed: flags.seed } : {}), ...(flags.suite ? { suite: flags.suite } : {}) });
        process.stdout.write(reporter === 'json' ? `${JSON.stringify(r.json ?? { found: r.found, tried: r.tried }, null, 2)}\n` : `${r.report}\n`);
        result.exitCode = r.found === Boolean(flags.expectLeak) ? 0 : 1;
        return;
      }
      if (flags.system !== 'llmbda') throw new UserError(`--system must be llmbda or ppmf, got ${JSON.stringify(flags.system)}`);
      if (!flags.variant) throw new UserError('hunt needs --variant NAME|FILE.ts (a catalogue name, "reference", or a variant file); see docs/variants.md');
      const progress = ProgressLine.enabled(process.stderr, flags.progress) ? new ProgressLine(process.stderr, 'hunting') : undefined;
      const huntStarted = performance.now();
      const r = await hunt({
        variant: flags.variant,
        ...(flags.lattice ? { lattices: flags.lattice } : {}),
        ...(flags.suite ? { suite: flags.suite } : {}),
        timeMs: flags.time,
        ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
        ...(flags.runs !== undefined ? { runs: flags.runs } : {}),
        ...(flags.prims ? { primsFile: flags.prims } : {}),
        ...(flags.out !== undefined ? { save: flags.out } : {}),
        minimise: flags.minimise,
        ...(progress ? { onCase: (n: number) => progress.update(n, { leftMs: Math.max(0, flags.time - (performance.now() - huntStarted)) }) } : {}),
      });
      progress?.stop();
      const doc = huntDocument(r, { version: packageVersion(), expectLeak: Boolean(flags.expectLeak), variantSpec: flags.variant });
      result.exitCode = doc.exitCode;
      process.stdout.write(render(doc, reporter));
    });

  program
    .command('replay')
    .description('re-run saved counterexamples in one process: each suite\'s check under the reference semantics and under the variant, then a summary')
    .argument('<files...>', 'corpus files (counterexamples/*.json) or folders of them')
    .option('--variant <name|file.ts>', 'judge under this variant instead of the one recorded in each file')
    .option('--lattice <name|file.ts>', 'use this lattice instead of the one recorded in each file')
    .option('--reporter <kind>', `output: ${REPORTERS.join(', ')} (see docs/ci.md)`, reporterFlag, 'text')
    .option('--json', 'same as --reporter json')
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (args: string[], flags: { variant?: string; lattice?: string; json?: boolean; reporter?: Reporter }) => {
      const started = performance.now();
      const reporter: Reporter = flags.json ? 'json' : flags.reporter ?? 'text';
      const files = expandCorpusArgs(args);
      const done: ({ file: string; result: ReplayResult; timeMs: number } | { file: string; error: string })[] = [];
      for (const file of files) {
        const t0 = performance.now();
        try {
          done.push({ file, timeMs: 0, result: await replay(file, { ...(flags.variant ? { variant: flags.variant } : {}), ...(flags.lattice ? { lattice: flags.lattice } : {}) }) });
        } catch (e) {
          // One bad file among many is reported with the others; a single bad file is a usage error (exit 2).
          if (!(e instanceof UserError) || files.length === 1) throw e;
          done.push({ file, error: e.message });
          continue;
        }
        done[done.length - 1] = { ...(done[done.length - 1] as { file: string; result: ReplayResult }), timeMs: performance.now() - t0 };
      }
      const ok = done.filter((d) => 'result' in d && d.result.ok).length;
      const errors = done.filter((d) => 'error' in d);
      const summary = `Replayed ${done.length} entr${done.length === 1 ? 'y' : 'ies'}: ${ok} as recorded, ${done.length - ok - errors.length} regressed, ${errors.length} could not be loaded.`;
      const text = [
        ...done.map((d) => ('error' in d ? `Replaying ${d.file}\n  ERROR: ${d.error}` : d.result.report)),
        ...(done.length > 1 ? ['', summary] : []),
      ].join(done.length > 1 ? '\n\n' : '\n');
      const doc = replayDocument(done, { version: packageVersion(), timeMs: performance.now() - started, text });
      result.exitCode = errors.length > 0 ? 2 : doc.exitCode;
      process.stdout.write(render(doc, reporter));
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
