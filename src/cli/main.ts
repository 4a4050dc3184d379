/**
 * `llmbda`: the command-line entry point. Each subcommand lives in its own `cmd-*.ts` file and
 * registers itself here. Exit codes (src/cli/exit-codes.ts, printed by every `--help`): 0 as expected,
 * 1 a verdict not as expected, 2 user mistakes (bad flags, bad files: one clear line), 3 internal
 * errors (a stack trace).
 */
import { existsSync, readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { UserError } from '../util/absurd.ts';
import { probeUserImports } from '../util/user-module.ts';
import { BudgetExceeded, StackLimitError } from '../semantics/errors.ts';
import { registerRun } from './cmd-run.ts';
import { registerCheck } from './cmd-check.ts';
import { registerHunt } from './cmd-hunt.ts';
import { registerPpmf } from './cmd-ppmf.ts';
import { registerLeak } from './cmd-leak.ts';
import { EXIT_CODES_HELP } from './exit-codes.ts';
import { registerMutants } from './cmd-mutants.ts';

/** This package's version, read from its package.json (found upwards from this file, source or dist). */
export function packageVersion(): string {
  for (let u = new URL('./', import.meta.url); ; ) {
    const pj = new URL('package.json', u);
    if (existsSync(pj)) {
      const p = JSON.parse(readFileSync(pj, 'utf8')) as { name?: string; version?: string };
      if (p.name === 'llmbda-check') return p.version ?? '0.0.0';
    }
    const up = new URL('../', u);
    if (up.href === u.href) return '0.0.0';
    u = up;
  }
}
import { registerBanking } from './cmd-banking.ts';
import { registerDiff } from './cmd-target.ts';

/** The exit code a command asks for (commands set it; 0 when unset). */
export interface CommandResult { exitCode: number }

/** The `llmbda` command tree; a command's action sets `result.exitCode` (the doc test reads the tree's flags). */
export function buildProgram(result: CommandResult): Command {
  const program = new Command();
  program
    .name('llmbda')
    .description('Executable LLMbda semantics and PPMF, tested QuickCheck-style: exact distributions, generated low-equivalent pairs, minimal leaks.')
    .version(packageVersion(), '-V, --version', 'print the package version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .exitOverride();
  registerCheck(program, result);
  registerRun(program, result);
  registerHunt(program, result);
  registerPpmf(program);
  registerLeak(program);
  registerBanking(program, result);
  registerDiff(program, result);
  registerMutants(program, result);
  showDurationDefaults(program);
  return program;
}

/** A duration in milliseconds the way the duration flags take it (`10s`, `1m`, `500ms`). */
export function showDuration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** Duration flags keep milliseconds but take `30s`: `--help` shows their defaults as they are typed (not `10000`). */
function showDurationDefaults(cmd: Command): void {
  for (const o of cmd.options) {
    if (o.flags.includes('<duration>') && typeof o.defaultValue === 'number' && o.defaultValueDescription === undefined) o.defaultValueDescription = showDuration(o.defaultValue);
  }
  for (const c of cmd.commands) showDurationDefaults(c);
}

export async function main(argv: readonly string[]): Promise<number> {
  const result: CommandResult = { exitCode: 0 };
  // Every command loads user files in a supervised worker; should one ever import in this thread, the file is first
  // loaded in a watched throwaway worker (a top-level loop there is stopped, not a hang here).
  probeUserImports(true);
  const program = buildProgram(result);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return result.exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander already printed the message (help and version exit 0).
      return e.exitCode === 0 ? 0 : 2;
    }
    if (e instanceof UserError || StackLimitError.is(e) || BudgetExceeded.is(e)) {
      process.stderr.write(`llmbda: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`llmbda: internal error (please report): ${e instanceof Error ? e.stack : String(e)}\n`);
    return 3;
  }
}
