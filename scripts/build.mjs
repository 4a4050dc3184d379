// `npm run build`: compile with tsc, copy the run-time assets, and only then record the hash of the inputs the
// build started from (dist/.inputs-hash, compared by the tests' global setup, test/helpers/fresh-build.ts).
//
// The hash is computed *before* tsc and the old one removed first, so a build that fails, or a source edited
// while tsc runs, leaves dist/ marked stale rather than fresh. Copying the assets alone
// (scripts/copy-assets.mjs) never writes the hash.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { copyAssets } from './copy-assets.mjs';
import { HASH_FILE, inputsHash } from './inputs-hash.mjs';

const hash = inputsHash();
rmSync(HASH_FILE, { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (r.status !== 0) {
  process.stderr.write(`build: tsc failed (${r.status === null ? `signal ${r.signal}` : `exit ${r.status}`}); dist/ left marked stale\n`);
  process.exit(r.status ?? 1);
}
copyAssets();
mkdirSync(dirname(HASH_FILE), { recursive: true });
writeFileSync(HASH_FILE, `${hash}\n`);
