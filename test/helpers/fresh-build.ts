/**
 * vitest's global setup: make sure dist/ is the compiled form of the sources before any test spawns the CLI.
 *
 * Tests that run `bin/llmbda.js` as a user does spawn the compiled package (dist/): a process from the TypeScript
 * sources through tsx costs ≈ 0.5 s more CPU to start, and the suite spawns a few hundred. So that such a test can
 * never exercise a stale build, the build records a hash of its inputs (`dist/.inputs-hash`: every file of src/
 * and properties/, and the two tsconfigs); here the hash is computed again and, when it differs (or dist/ is
 * missing), `npm run build` runs first (≈ 20 s). After `npm ci` (whose `prepare` builds) the hashes agree and
 * nothing runs. `LLMBDA_SOURCE=1` in the environment still makes every spawned CLI run the sources.
 */
import { ensureBuild } from '../../scripts/inputs-hash.mjs';

export default function setup(): void {
  if (process.env['LLMBDA_SOURCE'] === '1') return;
  ensureBuild('test setup');
}
