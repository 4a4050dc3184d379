#!/usr/bin/env node
// The `llmbda` command. It runs the compiled package (dist/, built by `npm run build`, which `npm ci`
// runs through `prepare`; the test suite rebuilds it first when it no longer matches the sources). In a
// checkout without a build, or with LLMBDA_SOURCE=1, it runs the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
let main;
if (process.env.LLMBDA_SOURCE !== '1' && existsSync(compiled)) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
