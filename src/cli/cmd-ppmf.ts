/**
 * `llmbda ppmf table [--json] [--family F…]`: the PPMF table (exact ASR, laundering, benign success,
 * false blocks per family × system; decoy sweep; metadata stress), as plain text or JSON.
 */
import type { Command } from 'commander';
import { UserError } from '../util/absurd.ts';
import type { Family } from '../ppmf/generators.ts';
import { FAMILIES } from '../ppmf/generators.ts';
import { ppmfTable, ppmfTableJson, renderPpmfTable } from '../ppmf/table.ts';

interface TableOpts {
  json?: boolean;
  family?: string[];
}

/** Check family names given on the command line. */
function parseFamilies(names: readonly string[] | undefined): readonly Family[] | undefined {
  if (names === undefined || names.length === 0) return undefined;
  for (const n of names) {
    if (!(FAMILIES as readonly string[]).includes(n)) {
      throw new UserError(`unknown PPMF scenario family ${JSON.stringify(n)}; choose from: ${FAMILIES.join(', ')}`);
    }
  }
  return names as readonly Family[];
}

/** Add the `ppmf` command (subcommand `table`) to the program. */
export function registerPpmf(program: Command): void {
  const ppmf = program.command('ppmf').description('PPMF, the provenance-preserving memory firewall: exact rates per scenario family and system');
  ppmf
    .command('table')
    .description('ASR, laundering, benign success and false blocks per family × system, the decoy sweep and metadata stress (exact fractions)')
    .option('--json', 'print JSON (rationals as {fraction, decimal}) instead of a text table')
    .option('--family <name...>', `only these scenario families (${FAMILIES.join(', ')}); the sweep and stress rows always run`)
    .action((opts: TableOpts) => {
      const families = parseFamilies(opts.family);
      const t = ppmfTable(families === undefined ? {} : { families });
      process.stdout.write(opts.json === true ? `${JSON.stringify(ppmfTableJson(t), null, 2)}\n` : `${renderPpmfTable(t)}\n`);
    });
}
