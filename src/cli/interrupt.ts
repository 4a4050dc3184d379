/**
 * Ctrl-C and `kill`: a long command (check, hunt) installs a handler that prints what is known
 * (finished verdicts, the best counterexample so far), restores the terminal (cursor shown) and exits
 * 130 for SIGINT or 143 for SIGTERM. The command's heavy work runs in worker threads, so this thread's
 * event loop is free and the handler runs within a fraction of a second.
 */

/** Exit code for a signal: 128 + its number. */
export const SIGNAL_EXIT: Readonly<Record<'SIGINT' | 'SIGTERM', number>> = { SIGINT: 130, SIGTERM: 143 };

/** Show the cursor again (a progress bar hides it) when stderr is a terminal. */
export function restoreTerminal(): void {
  if (process.stderr.isTTY) process.stderr.write('\x1b[?25h');
}

/**
 * Install the handler for the duration of `body`: on a signal, `onSignal` prints what is known (it may
 * return a different exit code, e.g. 2 when saving failed); then the process exits.
 */
export async function withInterrupts<T>(onSignal: (signal: 'SIGINT' | 'SIGTERM') => number | void, body: () => Promise<T>): Promise<T> {
  const handler = (signal: 'SIGINT' | 'SIGTERM'): void => {
    let code: number = SIGNAL_EXIT[signal];
    try {
      const c = onSignal(signal);
      if (typeof c === 'number') code = c;
    } catch (e) {
      process.stderr.write(`llmbda: while stopping: ${e instanceof Error ? e.message : String(e)}\n`);
    } finally {
      restoreTerminal();
    }
    process.exit(code);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await body();
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
}
