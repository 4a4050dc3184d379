/**
 * The memory guard beyond the JavaScript heap. `maxOldGenerationSizeMb` caps a worker's V8 heap only: memory
 * outside it (ArrayBuffers and Buffers, native memory of an addon) is not counted there. So a supervisor also
 * samples the resident memory of the whole process every RSS_POLL_MS and stops the task when it exceeds what
 * the process used when the worker started, plus the heap cap, plus RSS_SLACK_MB for the worker's own code,
 * stacks and young generation (per worker, when several run side by side: `runPool`). Coarse but honest: it
 * bounds the process, whatever allocates.
 */
export const RSS_SLACK_MB = 384;
/** How often a supervisor samples the process's resident memory (ms). */
export const RSS_POLL_MS = 50;

/** How much resident memory (bytes) `workers` workers capped at `capMb` each may add to the process. */
export function rssAllowanceBytes(capMb: number, workers = 1): number {
  return workers * (capMb + RSS_SLACK_MB) * 1024 * 1024;
}

/** The resident-memory limit of the process (bytes) for one worker capped at `capMb`, from now. */
export function rssLimitBytes(capMb: number): number {
  return process.memoryUsage.rss() + rssAllowanceBytes(capMb);
}

/** The message for a task stopped by the resident-memory guard. */
export function rssMessage(what: string, site: string | undefined, capMb: number, rss: number): string {
  return `${what} exceeded the memory limit${site ? ` in ${site}` : ''} (${capMb} MB; --max-memory-mb): the process's resident memory reached ${Math.round(rss / (1024 * 1024))} MB, outside the JavaScript heap (buffers or native memory); lower --fuel, or raise --max-memory-mb`;
}

/**
 * Which user function to name when the resident-memory guard stops a task. The guard samples every RSS_POLL_MS,
 * so the moment it sees the limit crossed the thread may be between two calls of the user function that
 * allocates (a lattice's `join` keeping Buffers returns after each allocation, and the evaluator runs in between).
 * `see` is given the user-function id of each sample (0: none) and answers the one to name: the current one, else
 * the last one seen within RECENT_SAMPLES samples.
 */
export class RecentSite {
  static readonly RECENT_SAMPLES = 20;
  private last = 0;
  private age = 0;

  see(site: number): number {
    if (site !== 0) { this.last = site; this.age = 0; return site; }
    if (this.last !== 0 && ++this.age > RecentSite.RECENT_SAMPLES) this.last = 0;
    return this.last;
  }
}
