/** Worker side of `startInWorker`: installs the heartbeat, runs one task, posts its events and its result or error kind. */
import { parentPort, workerData } from 'node:worker_threads';
import { beatsSoFar, installHeartbeat } from '../util/heartbeat.ts';

const { task, args, heartbeat } = workerData as { task: import('./large-stack.ts').TaskName; args: unknown; heartbeat?: SharedArrayBuffer };
if (heartbeat) installHeartbeat(heartbeat, (site, where) => parentPort?.postMessage({ site, where }));
const emit = (event: unknown): void => parentPort?.postMessage({ event });
try {
  let value: unknown;
  if (task === 'run') {
    const { executeRun } = await import('./cmd-run.ts');
    const a = args as { file: string; opts: Parameters<typeof executeRun>[1] };
    value = await executeRun(a.file, a.opts);
  } else if (task === 'leak') {
    const { executeLeak } = await import('./cmd-leak.ts');
    const a = args as { file: string; opts: Parameters<typeof executeLeak>[1] };
    value = await executeLeak(a.file, a.opts);
  } else if (task === 'replay') {
    // The files one after another, each entry's result (or its user error) posted as an event with the progress
    // count at its end; any other error ends the task, and the supervisor goes on with a fresh worker.
    const { replay } = await import('../api/hunt.ts');
    const a = args as { files: string[]; variant?: string; lattice?: string };
    const opts = { ...(a.variant !== undefined ? { variant: a.variant } : {}), ...(a.lattice !== undefined ? { lattice: a.lattice } : {}) };
    for (const file of a.files) {
      try {
        const r = await replay(file, opts);
        emit({ file, beats: beatsSoFar(), result: { file: r.file, entry: r.entry, ok: r.ok, reference: r.reference, variant: r.variant, report: r.report, explanation: r.explanation } });
      } catch (e) {
        if (!(e instanceof Error) || (e.name !== 'UserError' && e.name !== 'BudgetExceeded')) throw e;
        emit({ file, beats: beatsSoFar(), error: e.message });
      }
    }
    value = null;
  } else if (task === 'load') {
    const { executeLoad } = await import('./load-task.ts');
    value = await executeLoad(args as Parameters<typeof executeLoad>[0]);
  } else if (task === 'target') {
    const { executeTarget } = await import('./cmd-target.ts');
    value = await executeTarget(args as Parameters<typeof executeTarget>[0], emit);
  } else if (task === 'hunt-system') {
    const { executeSystemHunt } = await import('./system-hunt-task.ts');
    value = executeSystemHunt(args as Parameters<typeof executeSystemHunt>[0], emit);
  } else {
    const { executeHunt } = await import('./hunt-task.ts');
    value = await executeHunt(args as Parameters<typeof executeHunt>[0], emit);
  }
  parentPort?.postMessage({ ok: true, value });
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  parentPort?.postMessage({ ok: false, kind: err.name, message: err.name === 'UserError' || err.name === 'StackLimitError' || err.name === 'BudgetExceeded' ? err.message : (err.stack ?? err.message) });
}
