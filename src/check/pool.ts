/**
 * Run check jobs on a pool of worker threads (one per core by default), longest first, so
 * `llmbda check` uses the whole machine. Results come back in job order.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Job, JobResult } from './jobs.ts';
import { runJob } from './jobs.ts';
import { UserError } from '../util/absurd.ts';

export interface PoolOptions {
  readonly workers?: number;
  readonly onDone?: (r: JobResult, done: number, total: number) => void;
}

/** Run jobs, in parallel when more than one worker is allowed. */
export async function runJobs(jobs: readonly Job[], opts: PoolOptions = {}): Promise<JobResult[]> {
  const n = Math.max(1, Math.min(opts.workers ?? availableParallelism(), jobs.length));
  const results: JobResult[] = new Array(jobs.length);
  let done = 0;
  if (n === 1) {
    for (const [i, job] of jobs.entries()) {
      results[i] = await runJob(job);
      opts.onDone?.(results[i]!, ++done, jobs.length);
    }
    return results;
  }
  const queue = jobs.map((job, i) => ({ job, i }));
  const workers = Array.from({ length: n }, () => new Worker(new URL('./worker-entry.js', import.meta.url)));
  try {
    await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
      const next = (): void => {
        const item = queue.shift();
        if (!item) { resolve(); return; }
        w.once('message', (msg: { id: number; result?: JobResult; error?: string; user?: boolean }) => {
          if (msg.error !== undefined) { reject(msg.user ? new UserError(msg.error) : new Error(msg.error)); return; }
          results[item.i] = msg.result!;
          opts.onDone?.(msg.result!, ++done, jobs.length);
          next();
        });
        w.postMessage({ id: item.i, job: item.job });
      };
      w.once('error', reject);
      next();
    })));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
