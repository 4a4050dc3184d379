// Worker bootstrap for src/cli/large-stack.ts: register tsx, then run the named task.
import { register } from 'tsx/esm/api';

register();
await import('./large-stack-worker.ts');
