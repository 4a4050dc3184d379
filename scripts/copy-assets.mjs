// After `tsc -p tsconfig.build.json`: copy the non-TypeScript files the compiled code reads at run time
// (the prelude source, data files) from src/ to dist/src/, keeping their paths; then record the hash of the
// build's inputs (scripts/inputs-hash.mjs), which the tests' global setup compares to rebuild a stale dist/.
import { cpSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HASH_FILE, inputsHash } from './inputs-hash.mjs';

const ASSET = /\.(lam|json)$/;
function walk(dir) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (ASSET.test(f)) cpSync(p, join('dist', p));
  }
}
walk('src');
writeFileSync(HASH_FILE, `${inputsHash()}\n`);
