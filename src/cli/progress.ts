/**
 * A one-line progress display on stderr, for a terminal only (never when piped, never with
 * `--no-progress`): cases judged, cases per second and the estimated time left, redrawn at most every
 * 100 ms. Writes to a TTY are synchronous, so a synchronous hunt can redraw from its per-case callback.
 * The cursor is hidden while the line is shown and shown again by `stop`, at exit, and by the signal
 * handler (cli/interrupt.ts `restoreTerminal`).
 */

/** Seconds as `42s` or `3m05s`. */
export function showSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const r = Math.max(0, Math.round(s));
  return r < 60 ? `${r}s` : `${Math.floor(r / 60)}m${String(r % 60).padStart(2, '0')}s`;
}

/** The text of a progress line (pure, tested): `label 1200/3000 cases  85/s  ETA 21s  detail`. */
export function progressText(o: { readonly label: string; readonly done: number; readonly total?: number; readonly elapsedMs: number; readonly leftMs?: number; readonly detail?: string }): string {
  const rate = o.elapsedMs > 0 ? (o.done * 1000) / o.elapsedMs : 0;
  const eta = o.leftMs !== undefined ? o.leftMs / 1000 : o.total !== undefined && rate > 0 ? (o.total - o.done) / rate : Infinity;
  const count = o.total !== undefined ? `${o.done}/${o.total}` : `${o.done}`;
  return `${o.label} ${count} cases  ${rate.toFixed(0)}/s  ETA ${showSeconds(eta)}${o.detail ? `  ${o.detail}` : ''}`;
}

export class ProgressLine {
  private readonly started = performance.now();
  private last = 0;
  private shown = false;

  constructor(private readonly out: NodeJS.WriteStream, private readonly label: string) {}

  /** Whether a progress line should be drawn: on a terminal, unless turned off. */
  static enabled(stream: NodeJS.WriteStream, wanted: boolean): boolean {
    return wanted && stream.isTTY === true;
  }

  update(done: number, o: { readonly total?: number; readonly leftMs?: number; readonly detail?: string } = {}): void {
    const now = performance.now();
    // At most one redraw per 100 ms, but the final count (done = total) is always drawn.
    if (now - this.last < 100 && !(o.total !== undefined && done >= o.total)) return;
    this.last = now;
    const text = progressText({ label: this.label, done, elapsedMs: now - this.started, ...o });
    const width = this.out.columns !== undefined && this.out.columns > 10 ? this.out.columns : 100;
    if (!this.shown) {
      // Hide the cursor while the line is redrawn; whatever ends the process shows it again.
      this.out.write('\x1b[?25l');
      process.once('exit', this.showCursor);
    }
    this.out.write(`\r\x1b[K${[...text].slice(0, width - 1).join('')}`);
    this.shown = true;
  }

  private readonly showCursor = (): void => { this.out.write('\x1b[?25h'); };

  /** Erase the line and show the cursor again. */
  stop(): void {
    if (this.shown) {
      this.out.write('\r\x1b[K');
      this.showCursor();
      process.off('exit', this.showCursor);
    }
    this.shown = false;
  }
}
