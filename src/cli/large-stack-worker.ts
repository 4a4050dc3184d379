/** Worker side of `inLargeStack`: runs one task and posts its result or its error kind. */
import { parentPort, workerData } from 'node:worker_threads';
import { executeRun, type RunOpts } from './cmd-run.ts';

const { task, args } = workerData as { task: 'run'; args: { file: string; opts: RunOpts } };
try {
  const value = task === 'run' ? await executeRun(args.file, args.opts) : undefined;
  parentPort?.postMessage({ ok: true, value });
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  parentPort?.postMessage({ ok: false, kind: err.name, message: err.name === 'UserError' || err.name === 'StackLimitError' || err.name === 'BudgetExceeded' ? err.message : (err.stack ?? err.message) });
}
