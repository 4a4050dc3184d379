/**
 * Run jobs on a pool of worker threads (`check`'s default: `defaultWorkers`), longest first, so a long job does
 * not start last and leave a core idle. Results come back in job order.
 *
 * Generic: the pool knows nothing about suites. The caller names a *job module* (a module URL whose
 * `runJob(job)` runs one job); each worker imports it, and the single-worker path calls `run` in this
 * thread. Jobs and results must be structured-cloneable.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism, loadavg } from 'node:os';
import { UserError } from '../util/absurd.ts';
import { BEATS, HEARTBEAT_BYTES, loadingMessage, SITE, Watchdog } from '../util/heartbeat.ts';
import { RecentSite, RSS_POLL_MS, rssAllowanceBytes, rssMessage } from '../util/memory.ts';
import { importTimeoutMs } from '../util/user-module.ts';

/** What the pool runs: a module a worker can import (exporting `runJob`), and the same function here. */
export interface JobModule<J, R> {
  /** URL of a module exporting `runJob(job: J): Promise<R>` (its `.ts` source or compiled `.js`). */
  readonly url: URL;
  readonly run: (job: J, onCase?: (cases: number) => void) => Promise<R>;
}

export interface PoolOptions<J, R> {
  /** Worker threads (default: one per core; capped at the core count and the job count). `check` passes `defaultWorkers()`. */
  readonly workers?: number;
  /** Estimated cost of a job (larger first); default: input order. */
  readonly cost?: (job: J) => number;
  readonly onDone?: (r: R, done: number, total: number) => void;
  /**
   * Always use worker threads, even for one (keeps the calling thread free for signals, and lets the
   * watchdog stop a stuck job).
   */
  readonly threads?: boolean;
  /**
   * Per-case wall-clock limit: a worker whose case counter (util/heartbeat.ts) stops moving this long is
   * terminated and replaced, and its job answered by `timedOut` (required with it).
   */
  readonly caseTimeoutMs?: number;
  readonly timedOut?: (job: J, why: string) => R;
  /**
   * Heap cap of each worker (MB, `resourceLimits.maxOldGenerationSizeMb`): a job whose case exhausts it is
   * answered by `timedOut` with "exceeded the memory limit" (required with it) and the worker replaced. With
   * `timedOut`, the process's resident memory is guarded too (util/memory.ts): past the RSS at the start plus
   * the cap and slack per worker, the jobs running at that moment are answered the same way (memory outside
   * the heaps cannot be told apart per worker, so with several running all are stopped, and say so).
   */
  readonly maxMemoryMb?: number;
  /** Cases judged so far by a running job (sent by the workers at most every ~100 ms; progress lines). */
  readonly onCase?: (job: J, cases: number) => void;
  /**
   * A job's group (`check`'s `Job.group`: suites whose evaluations a worker shares), or undefined. A worker that
   * ran a job of a group takes that group's next job before any other, and the other workers leave a group to the
   * worker running it while they have other jobs to take (`nextJob`), so that the group's shared evaluations stay
   * on one thread. With nothing else left, an idle worker takes a job of another's group rather than wait.
   */
  readonly groupOf?: (job: J) => string | undefined;
}

/**
 * The index in `queue` of the job a worker takes next: with `mine` the group of the job it ran last, that group's
 * first job; else the first job of no group, or of a group no other worker runs (`owners`: group ↦ worker); else
 * (every job left belongs to a group another worker runs) the first.
 */
export function nextJob<J>(queue: readonly J[], groupOf: (job: J) => string | undefined, owners: ReadonlyMap<string, number>, worker: number, mine: string | undefined): number {
  if (mine !== undefined) {
    const at = queue.findIndex((j) => groupOf(j) === mine);
    if (at >= 0) return at;
  }
  const free = queue.findIndex((j) => { const g = groupOf(j); return g === undefined || (owners.get(g) ?? worker) === worker; });
  return free >= 0 ? free : 0;
}

/** The worker count actually used: at least 1, at most the cores and the jobs. */
export function poolSize(requested: number | undefined, jobs: number): number {
  const cores = availableParallelism();
  return Math.max(1, Math.min(requested ?? cores, cores, jobs));
}

/**
 * Cores one worker keeps busy: its thread plus V8's concurrent garbage collector and compiler threads. Measured
 * on a 2-core machine, idle, for the default `llmbda check` with one worker: 1.47–1.48 (CPU ÷ wall), so a second
 * worker there had about half a core to win and paid its own start-up and JIT warm-up: the same wall clock for
 * ≈ 28 % more CPU and ≈ 50 % more memory (docs/benchmarks.md, "Suite throughput and the worker pool").
 */
export const CORES_PER_WORKER = 1.5;

/**
 * A default worker count: one per `CORES_PER_WORKER` cores (at least one: a 2-core machine gets one) while the
 * machine has idle cores (1-minute load average below the core count), else one. Linux shares CPU fairly between
 * sessions (autogroups), not between threads: on a machine busy with other sessions a process gets its session's
 * share however many threads it runs, so a second worker cannot shorten the run and only adds its own start-up
 * and JIT warm-up (measured ≈ 30 % more CPU, and a slower check: docs/benchmarks.md, "Suite throughput and the
 * worker pool").
 */
export function defaultWorkers(load: number = loadavg()[0] ?? 0, cores: number = availableParallelism()): number {
  return load >= cores ? 1 : Math.max(1, Math.floor(cores / CORES_PER_WORKER));
}

/** Run jobs, in parallel when more than one worker is allowed. */
export async function runPool<J, R>(jobs: readonly J[], mod: JobModule<J, R>, opts: PoolOptions<J, R> = {}): Promise<R[]> {
  const n = poolSize(opts.workers, jobs.length);
  const results: R[] = new Array(jobs.length);
  let done = 0;
  const order = jobs.map((job, i) => ({ job, i }));
  if (opts.cost) { const cost = opts.cost; order.sort((a, b) => cost(b.job) - cost(a.job) || a.i - b.i); }
  if (jobs.length === 0) return results;
  if (n === 1 && !opts.threads) {
    for (const { job, i } of order) {
      const onCase = opts.onCase;
      results[i] = await mod.run(job, onCase ? (c) => onCase(job, c) : undefined);
      opts.onDone?.(results[i]!, ++done, jobs.length);
    }
    return results;
  }
  const fromSource = mod.url.pathname.endsWith('.ts');
  const entry = new URL(fromSource ? './worker-entry.js' : './worker.js', import.meta.url);
  const live = new Set<Worker>();
  // The resident-memory guard: per running job, a sample of the user function it is in (the one to name), and a stop
  // given the RSS and how many jobs are stopped with it.
  const running = new Set<{ see(): void; stop(rss: number, together: number): void }>();
  let rssTimer: NodeJS.Timeout | undefined;
  if (opts.maxMemoryMb !== undefined && opts.timedOut) {
    const allowance = rssAllowanceBytes(opts.maxMemoryMb, n);
    let base = process.memoryUsage.rss(), settleUntil = 0;
    rssTimer = setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (settleUntil !== 0) {
        // A second after stopping, the terminated workers' memory is released: what is left is the new base.
        if (Date.now() < settleUntil) return;
        settleUntil = 0;
        base = Math.max(base, rss);
        return;
      }
      for (const job of running) job.see();
      if (rss <= base + allowance || running.size === 0) return;
      const stops = [...running];
      for (const job of stops) job.stop(rss, stops.length);
      settleUntil = Date.now() + 1000;
    }, RSS_POLL_MS);
    rssTimer.unref();
  }
  const spawn = (): { w: Worker; beats: Int32Array; sites: Map<number, string> } => {
    const heartbeat = new SharedArrayBuffer(HEARTBEAT_BYTES);
    const w = new Worker(entry, {
      workerData: { module: mod.url.href, heartbeat, progress: opts.onCase !== undefined },
      ...(opts.maxMemoryMb !== undefined ? { resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb } } : {}),
    });
    const sites = new Map<number, string>();
    w.on('message', (m: { site?: number; where?: string }) => { if (m.site !== undefined) sites.set(m.site, m.where ?? '?'); });
    live.add(w);
    return { w, beats: new Int32Array(heartbeat), sites };
  };
  try {
    // Which worker runs each group now (`groupOf`): a group is a worker's from its first job until it takes a job of another.
    const owners = new Map<string, number>();
    await Promise.all(Array.from({ length: n }, (_, worker) => new Promise<void>((resolve, reject) => {
      let cur = spawn();
      let mine: string | undefined;
      const take = (): { job: J; i: number } | undefined => {
        const groupOf = opts.groupOf;
        if (!groupOf) return order.shift();
        if (order.length === 0) return undefined;
        const [item] = order.splice(nextJob(order, (x) => groupOf(x.job), owners, worker, mine), 1);
        const g = groupOf(item!.job);
        if (mine !== undefined && mine !== g && owners.get(mine) === worker) owners.delete(mine);
        mine = g;
        if (g !== undefined && !owners.has(g)) owners.set(g, worker);
        return item;
      };
      const next = (): void => {
        const item = take();
        if (!item) { resolve(); return; }
        let timer: NodeJS.Timeout | undefined;
        const { w, beats, sites } = cur;
        const onMsg = (msg: { id?: number; result?: R; error?: string; user?: boolean; cases?: number }): void => {
          if (msg.id !== item.i) return;
          if (msg.cases !== undefined) { opts.onCase?.(item.job, msg.cases); return; }
          w.off('message', onMsg);
          w.off('error', onErr);
          running.delete(overMemory);
          if (timer) clearInterval(timer);
          if (msg.error !== undefined) { reject(msg.user ? new UserError(msg.error) : new Error(msg.error)); return; }
          results[item.i] = msg.result!;
          opts.onDone?.(msg.result!, ++done, jobs.length);
          next();
        };
        /** Answer the job by `timedOut(why)` and go on with a fresh worker. */
        const stopJob = (answer: (job: J, why: string) => R, why: string): void => {
          if (timer) clearInterval(timer);
          w.off('message', onMsg);
          w.off('error', onErr);
          running.delete(overMemory);
          live.delete(w);
          void w.terminate();
          results[item.i] = answer(item.job, why);
          opts.onDone?.(results[item.i]!, ++done, jobs.length);
          cur = spawn();
          next();
        };
        const caseNo = (): number => Math.max(1, Atomics.load(beats, BEATS) - startBeats);
        const recent = new RecentSite();
        let site = 0;
        const overMemory = {
          see: (): void => { site = recent.see(Atomics.load(beats, SITE)); },
          stop: (rss: number, together: number): void => {
            const why = rssMessage(`case ${caseNo()}`, sites.get(site), opts.maxMemoryMb!, rss);
            stopJob(opts.timedOut!, together > 1 ? `${why} (${together} jobs were running and all were stopped: memory outside the heaps cannot be told apart per worker; re-run with --workers 1 to see which)` : why);
          },
        };
        const onErr = (e: unknown): void => {
          const code = (e as { code?: unknown } | null)?.code;
          if (code === 'ERR_WORKER_OUT_OF_MEMORY' && opts.timedOut) {
            stopJob(opts.timedOut, `case ${caseNo()} exceeded the memory limit (${opts.maxMemoryMb ?? 'the heap'} MB; --max-memory-mb)`);
            return;
          }
          if (timer) clearInterval(timer);
          reject(e);
        };
        w.on('message', onMsg);
        w.once('error', onErr);
        const startBeats = Atomics.load(beats, BEATS);
        running.add(overMemory);
        const limit = opts.caseTimeoutMs;
        if (limit !== undefined && opts.timedOut) {
          const timedOut = opts.timedOut;
          // Before a worker's first case it is still loading (compiling the sources): allow longer.
          const dog = new Watchdog(beats, sites, { caseMs: limit, firstMs: Math.max(3 * limit, 15_000), importMs: importTimeoutMs() });
          timer = setInterval(() => {
            const stall = dog.poll();
            if (!stall) return;
            stopJob(timedOut, stall.kind === 'loading' ? loadingMessage(stall.file, stall.ms)
              : `a case timed out ${stall.site ? `in ${stall.site}` : 'in the evaluator'}: no progress for ${(stall.ms / 1000).toString()} s${stall.clock === 'cpu' ? ' of its CPU time' : ''} (--case-timeout)`);
          }, Math.min(250, Math.max(20, limit / 4)));
        }
        w.postMessage({ id: item.i, job: item.job });
      };
      next();
    })));
  } finally {
    if (rssTimer) clearInterval(rssTimer);
    await Promise.all([...live].map((w) => w.terminate()));
  }
  return results;
}
