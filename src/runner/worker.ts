/** Worker thread: imports the job module named in `workerData`, runs the jobs it is sent, posts results. */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../util/absurd.ts';
import { installHeartbeat } from '../util/heartbeat.ts';

const { module, heartbeat, progress } = workerData as { module: string; heartbeat?: SharedArrayBuffer; progress?: boolean };
if (heartbeat) installHeartbeat(heartbeat, (site, where) => parentPort?.postMessage({ site, where }));
const { runJob } = (await import(module)) as { runJob: (job: unknown, onCase?: (cases: number) => void) => Promise<unknown> };

/** A progress callback posting the case count at most every 100 ms (a job is synchronous: messages still go out). */
function progressOf(id: number): ((cases: number) => void) | undefined {
  if (!progress) return undefined;
  let last = 0;
  return (cases) => {
    const now = performance.now();
    if (now - last < 100) return;
    last = now;
    parentPort?.postMessage({ id, cases });
  };
}

parentPort?.on('message', async (msg: { id: number; job: unknown }) => {
  try {
    const result = await runJob(msg.job, progressOf(msg.id));
    parentPort?.postMessage({ id: msg.id, result });
  } catch (e) {
    const user = e instanceof UserError;
    parentPort?.postMessage({ id: msg.id, error: e instanceof Error ? `${user ? '' : `${e.name}: `}${e.message}` : String(e), user });
  }
});
