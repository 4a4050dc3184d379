/**
 * A watchdog's view into a busy thread. A thread that runs cases (a hunt, a check job) can be given a
 * shared buffer: it counts every case and every minimiser step (`beat`), and records which user
 * function it is inside (`enterUser`/`leaveUser`). The supervising thread, whose event loop stays free,
 * reads the buffer; when the count stops moving for longer than the per-case limit it terminates the
 * thread and reports the case as timed out in the user function it was stuck in (or in the evaluator).
 * Without an installed buffer every call here is a no-op.
 */

/** Slots of the shared buffer. */
export const BEATS = 0;
export const SITE = 1;
/** Bytes of the shared buffer a supervisor allocates. */
export const HEARTBEAT_BYTES = 8;

let shared: Int32Array | undefined;
let announce: ((id: number, where: string) => void) | undefined;
const sites = new Map<string, number>();

/** Install the shared buffer in this thread; `onSite` tells the supervisor each user-function id's name. */
export function installHeartbeat(buf: SharedArrayBuffer, onSite: (id: number, where: string) => void): void {
  shared = new Int32Array(buf);
  announce = onSite;
  for (const [where, id] of sites) onSite(id, where);
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
