/**
 * Worker side of the import probe (`probeImport` in util/user-module.ts): load one user module under the
 * watchdog's eye (the heartbeat marks it as loading) and say whether it loaded. The CLI thread then imports
 * it for real, knowing its top level ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { installHeartbeat } from './heartbeat.ts';
import { importUserModule } from './user-module.ts';

const { file, what, heartbeat } = workerData as { file: string; what: string; heartbeat: SharedArrayBuffer };
installHeartbeat(heartbeat, (site, where) => parentPort?.postMessage({ site, where }));
try {
  await importUserModule(file, what);
  parentPort?.postMessage({ ok: true });
} catch (e) {
  parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
}
