// The hash of the build's inputs (every file under src/ and properties/, and the two tsconfigs), recorded in
// dist/.inputs-hash by `npm run build` (scripts/build.mjs, after tsc succeeds) and compared by the tests' global setup
// (test/helpers/fresh-build.ts), which rebuilds when they differ.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const HASH_FILE = 'dist/.inputs-hash';

function files(dir, out) {
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

/** The inputs' hash of the checkout at `root` (default: the current directory); paths enter it relative to `root`. */
export function inputsHash(root = '.') {
  const h = createHash('sha256');
  const rel = (p) => relative(root, p);
  const all = [...files(join(root, 'src'), []).map(rel), ...files(join(root, 'properties'), []).map(rel), 'tsconfig.json', 'tsconfig.build.json']
    .filter((p) => existsSync(join(root, p)));
  for (const p of all) h.update(p).update('\0').update(readFileSync(join(root, p))).update('\0');
  return h.digest('hex');
}

/**
 * Build dist/ (`npm run build`) unless its recorded hash says it is the compiled form of the current sources; true
 * when it built. `who` names the caller in the one line it prints before building. Used by the tests' global setup
 * and by the benchmarks, whose measuring processes run the compiled package (bench/lib/measured.ts).
 */
export function ensureBuild(who, root = '.') {
  const want = inputsHash(root);
  const hashFile = join(root, HASH_FILE);
  const have = existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : '';
  if (have === want) return false;
  process.stderr.write(`${who}: dist/ is ${have === '' ? 'missing' : 'older than the sources'}; building it (npm run build)\n`);
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  return true;
}
