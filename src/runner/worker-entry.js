// Worker-thread bootstrap when running from the TypeScript sources (tests, a checkout without a build):
// register tsx so the job module can load, then serve jobs. The compiled package starts `worker.js` directly.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
