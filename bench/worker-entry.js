// Worker-thread bootstrap for the benchmarks: register tsx so TypeScript loads (as src/runner/worker-entry.js
// does), then run the worker module named by `workerData.entry` (a path relative to this folder).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(new URL(workerData.entry, import.meta.url).href);
