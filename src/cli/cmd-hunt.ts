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
    .option('--time <duration>', 'search time budget, e.g. 30s, 2m (shrinking is extra)', duration('--time'), 30_000)
    .option('--seed <s>', 'seed (default: random; printed for replay)', integer('--seed'))
    .option('--runs <n>', 'at most this many cases per (suite, lattice)', positiveInt('--runs'))
    .option('--prims <file.ts>', 'a module exporting `prims` (a primitive table) added to every model; generated programs call them')
    .option('--system <name>', 'llmbda (default) or ppmf (hunts the PPMF suites; --variant names a PPMF system)', 'llmbda')
    .option('--out <dir>', 'save the counterexample in this folder (nothing is written without it)')
    .option('--no-minimise', 'skip the minimiser after fast-check\'s shrinking')
    .option('--json', 'machine-readable output')
    .action(async (flags: HuntFlags) => {
      if (flags.system === 'ppmf') {
        const r = huntPpmf({ suites: PPMF_SUITES, variant: flags.variant ?? 'ppmf', timeMs: flags.time, ...(flags.seed !== undefined ? { seed: flags.seed } : {}), ...(flags.suite ? { suite: flags.suite } : {}) });
        process.stdout.write(flags.json ? `${JSON.stringify(r.json ?? { found: r.found, tried: r.tried }, null, 2)}\n` : `${r.report}\n`);
        result.exitCode = r.found ? 1 : 0;
        return;
      }
      if (flags.system !== 'llmbda') throw new UserError(`--system must be llmbda or ppmf, got ${JSON.stringify(flags.system)}`);
      if (!flags.variant) throw new UserError('hunt needs --variant NAME|FILE.ts (a catalogue name, "reference", or a variant file); see docs/variants.md');
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
      });
      result.exitCode = r.found ? 1 : 0;
      if (flags.json) {
        const f = r.finding;
        process.stdout.write(`${JSON.stringify({
          found: r.found, variant: r.variant, seed: r.seed, tried: r.tried, timeMs: Math.round(r.timeMs), searched: r.searched,
          ...(f ? {
            suite: f.suite, lattice: f.lattice, path: f.path, testsToFailure: f.testsToFailure, timeToFailureMs: Math.round(f.timeToFailureMs),
            leak: f.leak, shrinks: f.shrinks, shrunkSize: f.shrunkSize, size: f.size, reason: f.reason, saved: f.savedTo ?? null, case: f.entry,
          } : {}),
        }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${r.report}\n`);
    });

  program
    .command('replay')
    .description('re-run a saved counterexample: the suite\'s check under the reference semantics and under the variant')
    .argument('<file>', 'a corpus file (counterexamples/*.json)')
    .option('--variant <name|file.ts>', 'judge under this variant instead of the one recorded in the file')
    .option('--json', 'machine-readable output')
    .action(async (file: string, flags: { variant?: string; json?: boolean }) => {
      const r = await replay(file, flags.variant ? { variant: flags.variant } : {});
      result.exitCode = r.ok ? 0 : 1;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ file, ok: r.ok, reference: r.reference, variant: r.variant }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${r.report}\n`);
    });
}
