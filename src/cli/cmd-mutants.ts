/**
 * `llmbda mutants`: generate every single-point weakening of the reference rules' label decisions,
 * hunt each with a time budget, and print a table — mutant → caught by which suite, tests to failure,
 * minimised counterexample, or survived with its soundness sketch. Exit 1 when a survivor has no sketch
 * (unexplained) or a mutant with a sketch is caught with a leak (the sketch is wrong); 0 otherwise.
 */
import type { Command } from 'commander';
import { duration, positiveInt, collect, seed32 } from './common.ts';
import type { CommandResult } from './main.ts';
import { huntMutants, mutantsMarkdown, mutantsText } from '../api/mutants.ts';
import { generateMutants } from '../variants/mutants.ts';
import { MUTANT_SKETCHES } from '../variants/mutant-sketches.ts';

interface MutantsFlags {
  time: number;
  seed?: number;
  runs?: number;
  lattice?: string[];
  only?: string[];
  list?: boolean;
  markdown?: boolean;
  json?: boolean;
}

export function registerMutants(program: Command, result: CommandResult): void {
  program
    .command('mutants')
    .description('generate every single-point weakening of the rules\' label decisions, hunt each, print what caught it')
    .option('--time <duration>', 'search budget per mutant, shared by its suites (e.g. 10s)', duration('--time'), 10_000)
    .option('--seed <s>', 'seed (default: random; printed)', seed32('--seed'))
    .option('--runs <n>', 'at most this many cases per (suite, lattice)', positiveInt('--runs'))
    .option('--lattice <name|file.ts>', 'lattice to hunt on (repeatable; default: the shipped lattices)', collect)
    .option('--only <text>', 'only mutants whose name contains this (repeatable)', collect)
    .option('--list', 'list the generated mutants and stop')
    .option('--markdown', 'print the table as Markdown (as published in docs/variants.md)')
    .option('--json', 'machine-readable output')
    .action(async (flags: MutantsFlags) => {
      if (flags.list) {
        for (const m of generateMutants()) process.stdout.write(`${m.name.padEnd(34)} ${m.change}${MUTANT_SKETCHES[m.name] ? '   (sketched sound)' : ''}\n`);
        return;
      }
      const seed = flags.seed ?? Math.floor(Math.random() * 2 ** 31);
      const tty = process.stderr.isTTY && !flags.json;
      const rows = await huntMutants({
        timeMs: flags.time, seed, ...(flags.runs !== undefined ? { runs: flags.runs } : {}), ...(flags.lattice ? { lattices: flags.lattice } : {}),
        ...(flags.only ? { only: flags.only } : {}),
        onMutant: (r, i, n) => { if (tty) process.stderr.write(`\r${i + 1}/${n} ${r.mutant.name}${' '.repeat(20)}`); },
      });
      if (tty) process.stderr.write('\n');
      const bad = rows.filter((r) => (!r.caught && !r.sketch) || (r.caught?.leak && MUTANT_SKETCHES[r.mutant.name]));
      result.exitCode = bad.length > 0 ? 1 : 0;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ seed, timeMs: flags.time, rows: rows.map((r) => ({ mutant: r.mutant.name, change: r.mutant.change, caught: r.caught ?? null, sketch: r.sketch ?? null, cases: r.cases, ms: Math.round(r.ms) })) }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`seed ${seed}, ${(flags.time / 1000).toFixed(1)} s per mutant\n`);
      process.stdout.write(`${flags.markdown ? mutantsMarkdown(rows) : mutantsText(rows)}\n`);
    });
}
