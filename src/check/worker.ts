/** Worker thread: receives jobs, runs them, posts results (and progress ticks). */
import { parentPort } from 'node:worker_threads';
import { runJob, type Job } from './jobs.ts';

parentPort?.on('message', async (msg: { id: number; job: Job }) => {
  try {
    const result = await runJob(msg.job);
    parentPort?.postMessage({ id: msg.id, result });
  } catch (e) {
    parentPort?.postMessage({ id: msg.id, error: e instanceof Error ? `${e.name === 'UserError' ? '' : `${e.name}: `}${e.message}` : String(e), user: e instanceof Error && e.name === 'UserError' });
  }
});
