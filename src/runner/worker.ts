/** Worker thread: imports the job module named in `workerData`, runs the jobs it is sent, posts results. */
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../util/absurd.ts';
import { installHeartbeat } from '../util/heartbeat.ts';

const { module, heartbeat } = workerData as { module: string; heartbeat?: SharedArrayBuffer };
if (heartbeat) installHeartbeat(heartbeat, (site, where) => parentPort?.postMessage({ site, where }));
const { runJob } = (await import(module)) as { runJob: (job: unknown) => Promise<unknown> };

parentPort?.on('message', async (msg: { id: number; job: unknown }) => {
  try {
    const result = await runJob(msg.job);
    parentPort?.postMessage({ id: msg.id, result });
  } catch (e) {
    const user = e instanceof UserError;
    parentPort?.postMessage({ id: msg.id, error: e instanceof Error ? `${user ? '' : `${e.name}: `}${e.message}` : String(e), user });
  }
});
