// Copy the non-TypeScript files the compiled code reads at run time (the prelude source, data files) from src/ to
// dist/src/, keeping their paths. Called by scripts/build.mjs after tsc; run alone it only copies, and never marks
// dist/ fresh (the inputs' hash is written by build.mjs alone).
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ASSET = /\.(lam|json)$/;

export function copyAssets(dir = 'src') {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) copyAssets(p);
    else if (ASSET.test(f)) cpSync(p, join('dist', p));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) copyAssets();
