// Worker-thread bootstrap: register tsx so the TypeScript job runner can load, then serve jobs.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
