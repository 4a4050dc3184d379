/**
 * A pool of long-lived benchmark worker threads: each takes the next job from a shared queue, so
 * `bench:mttf` keeps every core busy. Workers follow the protocol of `isolate.ts` (`ready`, then one
 * `result` per job posted to them).
 */
import { Worker } from 'node:worker_threads';
import type { WorkerMessage } from './isolate.ts';

/** What a pool runs (worker module), how wide, and the per-job hooks. */
export interface PoolOptions<T, R> {
  /** Worker module, relative to `bench/`. */
  readonly entry: string;
  readonly workers: number;
  readonly stackSizeMb?: number;
  /** Called as each job finishes (progress lines). */
  readonly onResult?: (result: R, job: T, done: number, total: number) => void;
  /** Asked just before a job is dispatched: true skips it (its result stays `undefined`). */
  readonly skip?: (job: T) => boolean;
}

/** Run every job; results come back in job order. A crashed worker rejects the whole run. */
export async function runPool<T, R>(jobs: readonly T[], opts: PoolOptions<T, R>): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(jobs.length).fill(undefined);
  let next = 0;
  let done = 0;
  const n = Math.max(1, Math.min(opts.workers, jobs.length));
  const workers = Array.from({ length: n }, () => new Worker(new URL('../worker-entry.js', import.meta.url), {
    workerData: { entry: opts.entry },
    ...(opts.stackSizeMb !== undefined ? { resourceLimits: { stackSizeMb: opts.stackSizeMb } } : {}),
  }));
  try {
    await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
      let current = -1;
      const feed = (): void => {
        while (next < jobs.length && opts.skip?.(jobs[next]!)) { next++; done++; }
        if (next >= jobs.length) { resolve(); return; }
        current = next++;
        w.postMessage(jobs[current]);
      };
      w.on('message', (m: WorkerMessage<R>) => {
        if ('ready' in m) { feed(); return; }
        results[current] = m.result;
        opts.onResult?.(m.result, jobs[current]!, ++done, jobs.length);
        feed();
      });
      w.once('error', reject);
      // After `resolve` this is a no-op: only a worker dying mid-run rejects.
      w.once('exit', (code) => reject(new Error(`benchmark worker exited with code ${code}`)));
    })));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return results;
}
