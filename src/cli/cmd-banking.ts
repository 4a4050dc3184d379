/**
 * `llmbda banking table [--json] [--detail] [--p P] [--variant V…] [--qllm M…]`: the exact banking
 * case-study table (docs/banking.md): utility without attack, utility under attack and attack success
 * per variant × Q-LLM, per task and attack, as exact fractions.
 */
import type { Command } from 'commander';
import * as Q from '../distributions/rational.ts';
import { UserError } from '../util/absurd.ts';
import { VARIANTS, type Variant } from '../banking/program.ts';
import { parseQllm } from '../banking/qllm.ts';
import { bankingTable, bankingTableJson, defaultQllms, renderBankingTable } from '../banking/table.ts';

interface TableOpts { json?: boolean; detail?: boolean; p?: string; variant?: string[]; qllm?: string[] }

export function registerBanking(program: Command): void {
  const banking = program.command('banking').description('The Randori-style banking agent: exact security and utility of fixed planner programs (docs/banking.md)');
  banking
    .command('table')
    .description('utility (no attack / attacked) and attack success per variant × Q-LLM, per task and attack, as exact fractions')
    .option('--json', 'print JSON (rationals as {fraction, decimal}) with every task × attack cell')
    .option('--detail', 'also print the per-task table of every variant × Q-LLM')
    .option('--p <P>', 'probability that the confused Q-LLM follows an injection (exact rational)', '1/10')
    .option('--variant <name...>', `only these variants (${VARIANTS.join(', ')})`)
    .option('--qllm <model...>', 'only these Q-LLMs: benign, adversarial, confused:P')
    .action((opts: TableOpts) => {
      const p = Q.parseRational(opts.p ?? '1/10');
      if (p === undefined || Q.lt(p, Q.ZERO) || Q.lt(Q.ONE, p)) throw new UserError(`--p needs an exact probability 0 ≤ P ≤ 1 like 1/10, got ${JSON.stringify(opts.p)}`);
      for (const v of opts.variant ?? []) {
        if (!(VARIANTS as readonly string[]).includes(v)) throw new UserError(`unknown banking variant ${JSON.stringify(v)}; choose from: ${VARIANTS.join(', ')}`);
      }
      const t = bankingTable({
        variants: (opts.variant as Variant[] | undefined) ?? VARIANTS,
        qllms: opts.qllm && opts.qllm.length > 0 ? opts.qllm.map(parseQllm) : defaultQllms(p),
      });
      process.stdout.write(opts.json === true ? `${JSON.stringify(bankingTableJson(t), null, 2)}\n` : `${renderBankingTable(t, opts.detail === true)}\n`);
    });
}
