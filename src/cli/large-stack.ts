/**
 * Run a CLI task in a worker thread: with a large JavaScript stack (the big-step evaluator recurses
 * once per derivation level), and supervised, so this thread's event loop stays free for signals and
 * a watchdog. The task's user errors come back as `UserError`s, its progress as events, its output
 * as a value.
 *
 * The watchdog (see util/heartbeat.ts): the task counts every case and minimiser step in a shared
 * buffer and records which user function it is in. If the count stops moving for longer than the
 * per-case limit, the worker is terminated (which stops even an endless loop) and the task fails with
 * a user error naming the user function it was stuck in, or the evaluator.
 */
import { Worker } from 'node:worker_threads';
import { UserError } from '../util/absurd.ts';
import { StackLimitError } from '../semantics/ev.ts';
import { BEATS, HEARTBEAT_BYTES, loadingMessage, noProgress, SITE, Watchdog } from '../util/heartbeat.ts';
import { importTimeoutMs } from '../util/user-module.ts';
import { RecentSite, RSS_POLL_MS, rssLimitBytes, rssMessage } from '../util/memory.ts';

/** Tasks a worker can run, by name. */
export type TaskName = 'run' | 'leak' | 'hunt' | 'replay' | 'load' | 'hunt-system' | 'target';

/** The largest `--stack-mb` accepted (a thread's stack is reserved up front; more fails to start). */
export const MAX_STACK_MB = 4096;

/** How to supervise a task. */
export interface WorkerTaskOptions {
  readonly stackMb: number;
  /** The per-case limit (ms; CPU time of the worker thread where known, see Watchdog); no watchdog when absent. */
  readonly caseTimeoutMs?: number;
  /** The limit before the first case (loading user files); default max(3 × the case limit, 15 s). */
  readonly graceMs?: number;
  /** Heap cap of the worker (MB, `resourceLimits.maxOldGenerationSizeMb`): past it the task fails with a user error. */
  readonly maxMemoryMb?: number;
  /**
   * For a task that runs several units (replay: one corpus entry after another), the progress count at the end
   * of the units done: messages then number the case within the current unit.
   */
  readonly beatsBefore?: () => number;
  /** Progress events the task emits. */
  readonly onEvent?: (ev: unknown) => void;
}

/** A running task: its result, and a way to stop it at once. */
export interface WorkerTask<T> {
  readonly result: Promise<T>;
  /** Terminate the worker (the result then never settles). */
  stop(): void;
}

/** The limit before the first case: loading user files and compiling them takes longer than a case. */
const loadLimit = (caseMs: number): number => Math.max(3 * caseMs, 15_000);

export function startInWorker<T>(task: TaskName, args: unknown, opts: WorkerTaskOptions): WorkerTask<T> {
  if (opts.stackMb > MAX_STACK_MB) throw new UserError(`--stack-mb must be at most ${MAX_STACK_MB}, got ${opts.stackMb}`);
  // From the sources a bootstrap registers tsx first; the compiled package starts the worker module directly.
  const entry = import.meta.url.endsWith('.ts') ? './large-stack-entry.js' : './large-stack-worker.js';
  const heartbeat = new SharedArrayBuffer(HEARTBEAT_BYTES);
  const beats = new Int32Array(heartbeat);
  const worker = new Worker(new URL(entry, import.meta.url), {
    workerData: { task, args, heartbeat },
    resourceLimits: { stackSizeMb: opts.stackMb, ...(opts.maxMemoryMb !== undefined ? { maxOldGenerationSizeMb: opts.maxMemoryMb } : {}) },
  });
  const sites = new Map<number, string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    if (timer) clearInterval(timer);
    void worker.terminate();
  };
  /** Which case the worker was on, for messages (the whole task when it has a single one). */
  const what = (): string => {
    const n = Atomics.load(beats, BEATS) - (opts.beatsBefore?.() ?? 0);
    return opts.graceMs !== undefined && n === 0 ? `the ${task}` : `case ${n === 0 ? 1 : n}`;
  };
  const result = new Promise<T>((resolve, reject) => {
    const finish = (f: () => void): void => {
      if (timer) clearInterval(timer);
      void worker.terminate();
      f();
    };
    worker.on('message', (m: { event: unknown } | { site: number; where: string } | { ok: true; value: T } | { ok: false; kind: string; message: string }) => {
      if ('event' in m) { if (!stopped) opts.onEvent?.(m.event); return; }
      if ('site' in m) { sites.set(m.site, m.where); return; }
      if (m.ok) finish(() => resolve(m.value));
      else if (m.kind === 'UserError' || m.kind === 'BudgetExceeded') finish(() => reject(new UserError(m.message)));
      else if (m.kind === 'StackLimitError') finish(() => reject(new StackLimitError(m.message.replace('--stack-mb N', `--stack-mb N (now ${opts.stackMb})`))));
      else finish(() => reject(new Error(m.message)));
    });
    worker.once('exit', (code) => finish(() => reject(new Error(`the ${task} worker exited (code ${code}) without a result`))));
    worker.once('error', (e) => finish(() => reject(
      isOutOfMemory(e) ? new UserError(memoryMessage(what(), opts.maxMemoryMb))
        : e instanceof RangeError ? new StackLimitError(`the evaluation worker ran out of stack (--stack-mb ${opts.stackMb}); raise --stack-mb or lower --fuel`) : e)));
    const limit = opts.caseTimeoutMs;
    const rssCap = opts.maxMemoryMb !== undefined ? rssLimitBytes(opts.maxMemoryMb) : undefined;
    const recentSite = new RecentSite();
    if (limit !== undefined || rssCap !== undefined) {
      const dog = limit !== undefined ? new Watchdog(beats, sites, { caseMs: limit, firstMs: opts.graceMs ?? loadLimit(limit), importMs: importTimeoutMs() }) : undefined;
      timer = setInterval(() => {
        if (rssCap !== undefined) {
          const rss = process.memoryUsage.rss();
          const now = recentSite.see(Atomics.load(beats, SITE));
          if (rss > rssCap) {
            const site = sites.get(now);
            finish(() => reject(new UserError(rssMessage(what(), site, opts.maxMemoryMb!, rss))));
            return;
          }
        }
        const stall = dog?.poll();
        if (!stall || limit === undefined) return;
        if (stall.kind === 'loading') { finish(() => reject(new UserError(loadingMessage(stall.file, stall.ms)))); return; }
        const where = stall.site ? `in ${stall.site}` : stall.beats === 0 && opts.graceMs === undefined ? 'before the first case (loading the lattice, variant or primitive files)' : 'in the evaluator';
        finish(() => reject(new UserError(`${what()} timed out ${where}: ${noProgress(stall)} (--case-timeout ${(limit / 1000).toString()}s)`)));
      }, rssCap !== undefined ? RSS_POLL_MS : Math.min(250, Math.max(20, limit! / 4)));
      timer.unref();
    }
  });
  return { result, stop };
}

/** Did a worker die because its heap hit `maxOldGenerationSizeMb`? */
export function isOutOfMemory(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** The message for a case that exhausted the worker's heap cap. */
export function memoryMessage(what: string, capMb: number | undefined): string {
  return `${what} exceeded the memory limit (${capMb ?? 'the heap'} MB${capMb !== undefined ? '; --max-memory-mb' : ''}): its distributions grew too large; lower --fuel or --max-outcomes, or raise --max-memory-mb`;
}

/** Run a task in a large-stack worker and wait for it. */
export async function inLargeStack<T>(task: TaskName, args: unknown, stackMb: number, timeoutMs?: number, maxMemoryMb?: number): Promise<T> {
  return startInWorker<T>(task, args, { stackMb, ...(timeoutMs !== undefined ? { caseTimeoutMs: timeoutMs, graceMs: timeoutMs } : {}), ...(maxMemoryMb !== undefined ? { maxMemoryMb } : {}) }).result;
}
