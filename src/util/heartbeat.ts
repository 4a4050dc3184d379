/**
 * A watchdog's view into a busy thread. A thread that runs cases (a hunt, a check job) can be given a
 * shared buffer: it counts every case and every minimiser step (`beat`), and records which user
 * function it is inside (`enterUser`/`leaveUser`). The supervising thread, whose event loop stays free,
 * reads the buffer; when the count stops moving for longer than the per-case limit it terminates the
 * thread and reports the case as timed out in the user function it was stuck in (or in the evaluator).
 * Without an installed buffer every call here is a no-op.
 */

import { readFileSync, readlinkSync } from 'node:fs';

/** Slots of the shared buffer: the progress count, the user function running, the user file loading. */
export const BEATS = 0;
export const SITE = 1;
export const LOADING = 2;
/** The watched thread's kernel thread id (Linux), so the supervisor can read its CPU time; 0 when unknown. */
export const TID = 3;
/** Bytes of the shared buffer a supervisor allocates. */
export const HEARTBEAT_BYTES = 16;

let shared: Int32Array | undefined;
let announce: ((id: number, where: string) => void) | undefined;
const sites = new Map<string, number>();

/** Install the shared buffer in this thread; `onSite` tells the supervisor each user-function id's name. */
export function installHeartbeat(buf: SharedArrayBuffer, onSite: (id: number, where: string) => void): void {
  shared = new Int32Array(buf);
  announce = onSite;
  try {
    const tid = /task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1];
    if (tid !== undefined) Atomics.store(shared, TID, Number(tid));
  } catch {
    // not Linux: the supervisor falls back to wall-clock time
  }
  for (const [where, id] of sites) onSite(id, where);
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux architecture Node supports). */
const USER_HZ = 100;

/** CPU time (user + system, ms) a thread of this process has used, from /proc; undefined when unreadable. */
export function threadCpuMs(tid: number): number | undefined {
  if (tid <= 0) return undefined;
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/** Is this thread watched by a supervisor (a shared buffer installed)? */
export function isWatched(): boolean {
  return shared !== undefined;
}

/** One unit of progress (a case judged, a minimiser step). */
export function beat(): void {
  if (shared) Atomics.add(shared, BEATS, 1);
}

/** The progress count so far (0 when unwatched): a task running several units reports it at each unit's end. */
export function beatsSoFar(): number {
  return shared ? Atomics.load(shared, BEATS) : 0;
}

/** The id of a user function (`FILE:name`), announced to the supervisor on first use. */
export function siteId(where: string): number {
  let id = sites.get(where);
  if (id === undefined) {
    id = sites.size + 1;
    sites.set(where, id);
    announce?.(id, where);
  }
  return id;
}

/** Mark entry into a user function; returns what to pass to `leaveUser`. */
export function enterUser(id: number): number {
  if (!shared) return 0;
  const prev = Atomics.load(shared, SITE);
  Atomics.store(shared, SITE, id);
  return prev;
}

export function leaveUser(prev: number): void {
  if (shared) Atomics.store(shared, SITE, prev);
}

/**
 * Mark the start of loading a user file (`where` names it): while it loads, the supervisor applies the
 * import limit, so even a file that loops at its top level is stopped and named. Returns what to pass
 * to `leaveLoading`.
 */
export function enterLoading(where: string): number {
  if (!shared) return 0;
  const id = siteId(where);
  const prev = Atomics.load(shared, LOADING);
  Atomics.store(shared, LOADING, id);
  return prev;
}

export function leaveLoading(prev: number): void {
  if (shared) Atomics.store(shared, LOADING, prev);
}

/** The limits a watchdog applies (ms). */
export interface WatchLimits {
  /** A case (the count has moved at least once). */
  readonly caseMs: number;
  /** Before the first case (the thread starts, compiles and loads). */
  readonly firstMs: number;
  /** One user file loading (its top level running). */
  readonly importMs: number;
}

/**
 * With a CPU clock, a case is also stopped after this much wall-clock time (a thread that waits without using
 * CPU, e.g. on a promise that never settles, is stuck too).
 */
export const wallBackstop = (ms: number): number => Math.max(10 * ms, 60_000);

/** How much longer than the import limit the watchdog waits before it stops a loading thread. */
export const IMPORT_SLACK_MS = 1000;

/** Why a watched thread is stuck. */
export type Stall =
  | { readonly kind: 'loading'; readonly file: string; readonly ms: number }
  | { readonly kind: 'case'; readonly beats: number; readonly site: string | undefined; readonly ms: number; readonly clock: 'cpu' | 'wall' };

/**
 * The supervising side: `poll` (every few hundred ms) says whether the thread is stuck. A case's limit is
 * measured in the watched thread's own **CPU time** where the kernel tells it (Linux: the thread publishes its
 * id, `threadCpuMs` reads /proc), so a busy machine that gives the thread little CPU does not make a slow but
 * progressing case look stuck — a verdict then depends on the seed, not on the load; `wallBackstop` still
 * stops a thread that waits without using CPU. Elsewhere the limit is wall-clock time. Time spent loading a
 * user file counts against the import limit only (wall-clock, as the loader's own timer); the case clock
 * restarts when it ends.
 */
export class Watchdog {
  private last: number;
  private lastAt: number;
  private lastCpu: number | undefined;
  private loading = 0;
  private loadingSince = 0;

  constructor(private readonly beats: Int32Array, private readonly sites: ReadonlyMap<number, string>, private readonly limits: WatchLimits, now = Date.now(), cpu: number | undefined = threadCpuMs(Atomics.load(beats, TID))) {
    this.last = Atomics.load(beats, BEATS);
    this.lastAt = now;
    this.lastCpu = cpu;
  }

  /** The watched thread's CPU time now (ms), if known. */
  cpuNow(): number | undefined {
    return threadCpuMs(Atomics.load(this.beats, TID));
  }

  poll(now = Date.now(), cpu = this.cpuNow()): Stall | undefined {
    const b = Atomics.load(this.beats, BEATS);
    const ld = Atomics.load(this.beats, LOADING);
    // The CPU clock starts at the first reading (the thread publishes its id once it runs).
    this.lastCpu ??= cpu;
    if (ld !== this.loading) {
      this.loading = ld;
      this.loadingSince = now;
      this.lastAt = now;
      this.lastCpu = cpu;
    }
    if (b !== this.last) {
      this.last = b;
      this.lastAt = now;
      this.lastCpu = cpu;
      return undefined;
    }
    if (ld !== 0) {
      // A little slack: a top-level await that never settles is reported by the loader itself, with its own message.
      if (now - this.loadingSince <= this.limits.importMs + IMPORT_SLACK_MS) return undefined;
      return { kind: 'loading', file: this.sites.get(ld) ?? 'a user file', ms: this.limits.importMs };
    }
    const allowed = b === 0 ? this.limits.firstMs : this.limits.caseMs;
    const site = (): string | undefined => this.sites.get(Atomics.load(this.beats, SITE));
    if (cpu !== undefined && this.lastCpu !== undefined) {
      if (cpu - this.lastCpu > allowed) return { kind: 'case', beats: b, site: site(), ms: allowed, clock: 'cpu' };
      if (now - this.lastAt > wallBackstop(allowed)) return { kind: 'case', beats: b, site: site(), ms: wallBackstop(allowed), clock: 'wall' };
      return undefined;
    }
    if (now - this.lastAt <= allowed) return undefined;
    return { kind: 'case', beats: b, site: site(), ms: allowed, clock: 'wall' };
  }
}

/** "no progress for 10 s" (and whose clock). */
export function noProgress(stall: { readonly ms: number; readonly clock: 'cpu' | 'wall' }): string {
  return `no progress for ${showSeconds(stall.ms)}${stall.clock === 'cpu' ? ' of its CPU time' : ''}`;
}

/** Seconds for messages: one decimal under 10 s. */
export function showSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/**
 * The message for a user file that did not finish loading (`file` as `enterLoading` named it, e.g. "lattice
 * file x.ts"): the same whether the loader's own timer saw it (an await that never settles) or the watchdog
 * (a synchronous loop), which may also be a slow compile on a busy machine.
 */
export function loadingMessage(file: string, ms: number): string {
  return `user code did not finish loading in ${file} within ${showSeconds(ms)} (LLMBDA_IMPORT_TIMEOUT_MS; a loop or a never-settling await at its top level?)`;
}
