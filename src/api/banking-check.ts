/**
 * Running the banking property suites per task family (docs/banking.md, "Properties"): which suite runs
 * on which task under which variant, and the verdicts.
 */
import * as Q from '../distributions/rational.ts';
import { runSuite, type Verdict } from '../runner/suite.ts';
import { bankingInsulatedTipni, bankingIntegrity, endorses, type BankingCtx } from '../../properties/banking-suites.ts';
import { loadTasks, type Task } from '../banking/data.ts';
import type { Variant } from '../banking/program.ts';
import type { QllmSpec } from '../banking/qllm.ts';

/** The Q-LLMs the suites draw from: benign, adversarial and confused with probability 1/3. */
export const PROPERTY_QLLMS: readonly QllmSpec[] = [{ kind: 'benign' }, { kind: 'adversarial' }, { kind: 'confused', p: Q.rat(1, 3) }];

export interface Job { readonly suite: 'banking-insulated-tipni' | 'banking-integrity'; readonly task: Task; readonly variant: Variant }

/**
 * The claims: Insulated TIPNI on every task under both IFC-on variants (endorse included); integrity on
 * every task under IFC on without endorse, and on the tasks whose plan does not endorse under IFC on with
 * endorse. `variant` replaces the variants (e.g. `ifc-off`, where integrity is expected to fail).
 */
export function propertyJobs(tasks: readonly Task[], variant?: Variant): Job[] {
  const jobs: Job[] = [];
  for (const task of tasks) {
    if (variant) {
      jobs.push({ suite: 'banking-insulated-tipni', task, variant }, { suite: 'banking-integrity', task, variant });
      continue;
    }
    jobs.push({ suite: 'banking-insulated-tipni', task, variant: 'ifc-on-no-endorse' });
    jobs.push({ suite: 'banking-insulated-tipni', task, variant: 'ifc-on-endorse' });
    jobs.push({ suite: 'banking-integrity', task, variant: 'ifc-on-no-endorse' });
    if (!endorses(task)) jobs.push({ suite: 'banking-integrity', task, variant: 'ifc-on-endorse' });
  }
  return jobs;
}

export function runJob(job: Job, opts: { runs: number; seed: number; injectionOnly?: boolean; timeoutMs?: number }): Verdict<unknown> {
  const ctx: BankingCtx = { task: job.task, variant: job.variant, qllms: PROPERTY_QLLMS, ...(opts.injectionOnly ? { injectionOnly: true } : {}) };
  const suite = job.suite === 'banking-integrity' ? bankingIntegrity : bankingInsulatedTipni;
  return runSuite(suite as never, ctx, { runs: opts.runs, seed: opts.seed, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}) }) as Verdict<unknown>;
}

export { loadTasks };
