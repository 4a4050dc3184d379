/**
 * A watchdog's view into a busy thread. A thread that runs cases (a hunt, a check job) can be given a
 * shared buffer: it counts every case and every minimiser step (`beat`), and records which user
 * function it is inside (`enterUser`/`leaveUser`). The supervising thread, whose event loop stays free,
 * reads the buffer; when the count stops moving for longer than the per-case limit it terminates the
 * thread and reports the case as timed out in the user function it was stuck in (or in the evaluator).
 * Without an installed buffer every call here is a no-op.
 */

/** Slots of the shared buffer: the progress count, the user function running, the user file loading. */
export const BEATS = 0;
export const SITE = 1;
export const LOADING = 2;
/** Bytes of the shared buffer a supervisor allocates. */
export const HEARTBEAT_BYTES = 12;

let shared: Int32Array | undefined;
let announce: ((id: number, where: string) => void) | undefined;
const sites = new Map<string, number>();

/** Install the shared buffer in this thread; `onSite` tells the supervisor each user-function id's name. */
export function installHeartbeat(buf: SharedArrayBuffer, onSite: (id: number, where: string) => void): void {
  shared = new Int32Array(buf);
  announce = onSite;
  for (const [where, id] of sites) onSite(id, where);
}

/** Is this thread watched by a supervisor (a shared buffer installed)? */
export function isWatched(): boolean {
  return shared !== undefined;
}

/** One unit of progress (a case judged, a minimiser step). */
export function beat(): void {
  if (shared) Atomics.add(shared, BEATS, 1);
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

/** How much longer than the import limit the watchdog waits before it stops a loading thread. */
export const IMPORT_SLACK_MS = 1000;

/** Why a watched thread is stuck. */
export type Stall =
  | { readonly kind: 'loading'; readonly file: string; readonly ms: number }
  | { readonly kind: 'case'; readonly beats: number; readonly site: string | undefined; readonly ms: number };

/**
 * The supervising side: `poll` (every few hundred ms) says whether the thread is stuck. Time spent
 * loading a user file counts against the import limit only; the case clock restarts when it ends.
 */
export class Watchdog {
  private last: number;
  private lastAt: number;
  private loading = 0;
  private loadingSince = 0;

  constructor(private readonly beats: Int32Array, private readonly sites: ReadonlyMap<number, string>, private readonly limits: WatchLimits, now = Date.now()) {
    this.last = Atomics.load(beats, BEATS);
    this.lastAt = now;
  }

  poll(now = Date.now()): Stall | undefined {
    const b = Atomics.load(this.beats, BEATS);
    const ld = Atomics.load(this.beats, LOADING);
    if (ld !== this.loading) {
      this.loading = ld;
      this.loadingSince = now;
      this.lastAt = now;
    }
    if (b !== this.last) {
      this.last = b;
      this.lastAt = now;
      return undefined;
    }
    if (ld !== 0) {
      // A little slack: a top-level await that never settles is reported by the loader itself, with its own message.
      if (now - this.loadingSince <= this.limits.importMs + IMPORT_SLACK_MS) return undefined;
      return { kind: 'loading', file: this.sites.get(ld) ?? 'a user file', ms: this.limits.importMs };
    }
    const allowed = b === 0 ? this.limits.firstMs : this.limits.caseMs;
    if (now - this.lastAt <= allowed) return undefined;
    return { kind: 'case', beats: b, site: this.sites.get(Atomics.load(this.beats, SITE)), ms: allowed };
  }
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
