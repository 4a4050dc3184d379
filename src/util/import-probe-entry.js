// Worker bootstrap for the import probe (src/util/user-module.ts) from the sources: register tsx, then probe.
import { register } from 'tsx/esm/api';

register();
await import('./import-probe.ts');
