/**
 * Run a CLI task in a worker thread with a large JavaScript stack: the big-step evaluator recurses once
 * per derivation level, and a `fix` loop of a few hundred iterations nests thousands of them. The
 * task's user errors come back as `UserError`s; its output as a value.
 */
import { Worker } from 'node:worker_threads';
import { UserError } from '../util/absurd.ts';
import { StackLimitError } from '../semantics/ev.ts';

/** Tasks a worker can run, by name. */
export type TaskName = 'run';

export async function inLargeStack<T>(task: TaskName, args: unknown, stackMb: number): Promise<T> {
  // From the sources a bootstrap registers tsx first; the compiled package starts the worker module directly.
  const entry = import.meta.url.endsWith('.ts') ? './large-stack-entry.js' : './large-stack-worker.js';
  const worker = new Worker(new URL(entry, import.meta.url), {
    workerData: { task, args },
    resourceLimits: { stackSizeMb: stackMb },
  });
  try {
    return await new Promise<T>((resolve, reject) => {
      worker.once('message', (m: { ok: true; value: T } | { ok: false; kind: string; message: string }) => {
        if (m.ok) resolve(m.value);
        else if (m.kind === 'UserError' || m.kind === 'BudgetExceeded') reject(new UserError(m.message));
        else if (m.kind === 'StackLimitError') reject(new StackLimitError(m.message.replace('--stack-mb N', `--stack-mb N (now ${stackMb})`)));
        else reject(new Error(m.message));
      });
      worker.once('error', (e) => reject(e instanceof RangeError ? new StackLimitError(`the evaluation worker ran out of stack (--stack-mb ${stackMb}); raise --stack-mb or lower --fuel`) : e));
    });
  } finally {
    await worker.terminate();
  }
}
