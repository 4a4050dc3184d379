// After `tsc -p tsconfig.build.json`: copy the non-TypeScript files the compiled code reads at run time
// (the prelude source, data files) from src/ to dist/src/, keeping their paths.
import { cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ASSET = /\.(lam|json)$/;
function walk(dir) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (ASSET.test(f)) cpSync(p, join('dist', p));
  }
}
walk('src');
