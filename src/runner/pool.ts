/**
 * Run jobs on a pool of worker threads (one per core by default), longest first, so a long job does
 * not start last and leave a core idle. Results come back in job order.
 *
 * Generic: the pool knows nothing about suites. The caller names a *job module* (a module URL whose
 * `runJob(job)` runs one job); each worker imports it, and the single-worker path calls `run` in this
 * thread. Jobs and results must be structured-cloneable.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { UserError } from '../util/absurd.ts';

/** What the pool runs: a module a worker can import (exporting `runJob`), and the same function here. */
export interface JobModule<J, R> {
  /** URL of a module exporting `runJob(job: J): Promise<R>` (its `.ts` source or compiled `.js`). */
  readonly url: URL;
  readonly run: (job: J, onCase?: (cases: number) => void) => Promise<R>;
}

export interface PoolOptions<J, R> {
  /** Worker threads (default: one per core; capped at the core count and the job count). */
  readonly workers?: number;
  /** Estimated cost of a job (larger first); default: input order. */
  readonly cost?: (job: J) => number;
  readonly onDone?: (r: R, done: number, total: number) => void;
  /** Cases judged so far by a running job (sent by the workers at most every ~100 ms; progress lines). */
  readonly onCase?: (job: J, cases: number) => void;
}

/** The worker count actually used: at least 1, at most the cores and the jobs. */
export function poolSize(requested: number | undefined, jobs: number): number {
  const cores = availableParallelism();
  return Math.max(1, Math.min(requested ?? cores, cores, jobs));
}

/** Run jobs, in parallel when more than one worker is allowed. */
export async function runPool<J, R>(jobs: readonly J[], mod: JobModule<J, R>, opts: PoolOptions<J, R> = {}): Promise<R[]> {
  const n = poolSize(opts.workers, jobs.length);
  const results: R[] = new Array(jobs.length);
  let done = 0;
  const order = jobs.map((job, i) => ({ job, i }));
  if (opts.cost) { const cost = opts.cost; order.sort((a, b) => cost(b.job) - cost(a.job) || a.i - b.i); }
  if (n === 1) {
    for (const { job, i } of order) {
      const onCase = opts.onCase;
      results[i] = await mod.run(job, onCase ? (c) => onCase(job, c) : undefined);
      opts.onDone?.(results[i]!, ++done, jobs.length);
    }
    return results;
  }
  const fromSource = mod.url.pathname.endsWith('.ts');
  const entry = new URL(fromSource ? './worker-entry.js' : './worker.js', import.meta.url);
  const workers = Array.from({ length: n }, () => new Worker(entry, { workerData: { module: mod.url.href, progress: opts.onCase !== undefined } }));
  try {
    await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
      const next = (): void => {
        const item = order.shift();
        if (!item) { resolve(); return; }
        const onMessage = (msg: { id: number; result?: R; error?: string; user?: boolean; cases?: number }): void => {
          if (msg.cases !== undefined) { opts.onCase?.(item.job, msg.cases); return; }
          w.off('message', onMessage);
          if (msg.error !== undefined) { reject(msg.user ? new UserError(msg.error) : new Error(msg.error)); return; }
          results[item.i] = msg.result!;
          opts.onDone?.(msg.result!, ++done, jobs.length);
          next();
        };
        w.on('message', onMessage);
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
