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
import { loadTasks, propertyJobs, runJob } from '../api/banking-check.ts';
import { assertKnownTask } from '../banking/data.ts';

interface TableOpts { json?: boolean; detail?: boolean; p?: string; variant?: string[]; qllm?: string[] }

export function registerBanking(program: Command, result: { exitCode: number }): void {
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
  registerBankingCheck(program, result);
}

interface CheckOpts { runs: string; seed: string; task?: string[]; variant?: string; injectionOnly?: boolean }

/** `llmbda banking check`: the banking property suites per task family; exit 1 on a counterexample. */
export function registerBankingCheck(program: Command, result: { exitCode: number }): void {
  const banking = program.commands.find((c) => c.name() === 'banking');
  if (!banking) throw new Error('internal error: register `banking` first');
  banking
    .command('check')
    .description('Insulated TIPNI (m = ["U"]) and integrity of the effects on generated world pairs, per task; a failure prints the minimised world/injection')
    .option('--runs <n>', 'generated world pairs per task and suite', '200')
    .option('--seed <n>', 'fast-check seed', '1')
    .option('--task <id...>', 'only these task families')
    .option('--variant <name>', `run every suite under this variant instead (${VARIANTS.join(', ')}); ifc-off is expected to fail integrity`)
    .option('--injection-only', 'integrity pairs differ only in the injection text')
    .action((opts: CheckOpts) => {
      const runs = Number(opts.runs);
      const seed = Number(opts.seed);
      if (!Number.isInteger(runs) || runs < 1) throw new UserError(`--runs needs a positive integer, got ${JSON.stringify(opts.runs)}`);
      if (!Number.isInteger(seed)) throw new UserError(`--seed needs an integer, got ${JSON.stringify(opts.seed)}`);
      if (opts.variant !== undefined && !(VARIANTS as readonly string[]).includes(opts.variant)) throw new UserError(`unknown banking variant ${JSON.stringify(opts.variant)}; choose from: ${VARIANTS.join(', ')}`);
      const all = loadTasks();
      const tasks = (opts.task ?? []).length > 0 ? opts.task!.map((id) => assertKnownTask(all, id)) : all;
      let failed = 0;
      for (const job of propertyJobs(tasks, opts.variant as Variant | undefined)) {
        const v = runJob(job, { runs, seed, ...(opts.injectionOnly ? { injectionOnly: true } : {}) });
        const status = v.ok ? 'ok' : v.counterexample ? 'COUNTEREXAMPLE' : v.error ? `ERROR ${v.error}` : `VACUOUS ${v.vacuous.join('; ')}`;
        process.stdout.write(`${job.task.id}  ${job.suite.padEnd(23)}  ${job.variant.padEnd(17)}  ${String(v.runs).padStart(5)} pairs  ${(v.timeMs / 1000).toFixed(1)}s  ${status}\n`);
        if (v.counterexample) {
          process.stdout.write(`${v.counterexample.pretty}\n${v.counterexample.reason}\n(seed ${v.seed}, path ${v.counterexample.path}, ${v.counterexample.shrinks} shrinks)\n`);
        }
        if (!v.ok) failed++;
      }
      result.exitCode = failed > 0 ? 1 : 0;
    });
}
