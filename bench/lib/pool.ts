/**
 * A pool of long-lived benchmark workers (threads, or child processes when each job's CPU time is
 * measured): each takes the next job from a shared queue, so `bench:mttf` keeps every core busy. Workers follow the protocol of `isolate.ts` (`ready`, then one
 * `result` per job posted to them).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
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
  /**
   * Run each worker as a child process (IPC) instead of a thread, so that `process.cpuUsage()` in a
   * job measures that job's own CPU time. The module must answer on `process.send` as well as on
   * `parentPort`. `stackSizeMb` then sets V8's `--stack-size` (bounded by the OS stack limit).
   */
  readonly processes?: boolean;
}

/** The two kinds of pool member behind one interface. */
interface Member {
  on(event: 'message', f: (m: unknown) => void): void;
  once(event: 'error', f: (e: Error) => void): void;
  once(event: 'exit', f: (code: number | null) => void): void;
  post(m: unknown): void;
  stop(): Promise<unknown>;
}

function threadMember(entry: string, stackSizeMb: number | undefined): Member {
  const w = new Worker(new URL('../worker-entry.js', import.meta.url), {
    workerData: { entry },
    ...(stackSizeMb !== undefined ? { resourceLimits: { stackSizeMb } } : {}),
  });
  return { on: (e, f) => w.on(e, f), once: (e: string, f: (x: unknown) => void) => w.once(e, f), post: (m) => w.postMessage(m), stop: () => w.terminate() } as Member;
}

function processMember(entry: string, stackSizeMb: number | undefined): Member {
  const file = fileURLToPath(new URL(`../${entry}`, import.meta.url));
  // Stay below the OS stack limit (8 MB by default): V8 does not check it.
  const stack = stackSizeMb === undefined ? [] : [`--stack-size=${Math.min(stackSizeMb, 7) * 1000}`];
  const c: ChildProcess = fork(file, [], { execArgv: ['--import', 'tsx', ...stack], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    on: (e, f) => c.on(e, f), once: (e: string, f: (x: unknown) => void) => c.once(e, f), post: (m) => c.send(m as never),
    stop: () => new Promise((resolve) => { if (c.exitCode !== null || c.signalCode !== null) resolve(undefined); else { c.once('exit', resolve); c.kill(); } }),
  } as Member;
}

/** Run every job; results come back in job order. A crashed worker rejects the whole run. */
export async function runPool<T, R>(jobs: readonly T[], opts: PoolOptions<T, R>): Promise<(R | undefined)[]> {
  const results: (R | undefined)[] = new Array(jobs.length).fill(undefined);
  let next = 0;
  let done = 0;
  const n = Math.max(1, Math.min(opts.workers, jobs.length));
  const workers = Array.from({ length: n }, () => (opts.processes ? processMember : threadMember)(opts.entry, opts.stackSizeMb));
  try {
    await Promise.all(workers.map((w) => new Promise<void>((resolve, reject) => {
      let current = -1;
      const feed = (): void => {
        while (next < jobs.length && opts.skip?.(jobs[next]!)) { next++; done++; }
        if (next >= jobs.length) { resolve(); return; }
        current = next++;
        w.post(jobs[current]);
      };
      w.on('message', (msg) => {
        const m = msg as WorkerMessage<R>;
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
    await Promise.all(workers.map((w) => w.stop()));
  }
  return results;
}
