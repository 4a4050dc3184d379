/**
 * The in-repo example target (issue 13): an async, environment-based, AST-built interpreter adapted in
 * under 150 lines. Correct, it agrees exactly with the reference semantics; with each of the three
 * real-world faults planted, the tuned generator finds it: top-level operator labels by TIPNI, the
 * variable read by differential agreement, and the non-terminating deepLabel by differential agreement,
 * as a reported crash (stack overflow) rather than a hang.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { powersetUS, twoPoint } from '../src/lattice/instances.ts';
import { runTargetSuite, targetDiff, targetTipni } from '../src/targets/suites.ts';
import { makeEnvTarget } from '../examples/targets/env-target.ts';

describe('the example env-based target', () => {
  it('its adapter is under 150 lines', () => {
    const lines = readFileSync(new URL('../examples/targets/env-target.ts', import.meta.url), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThan(150);
  });

  for (const lat of [twoPoint, powersetUS]) {
    it(`correct, it agrees exactly with the reference on ${lat.name} (800 programs), and TIPNI holds (400 pairs)`, async () => {
      const target = makeEnvTarget<unknown>(lat as never);
      const d = await runTargetSuite(targetDiff, { target, profile: 'tuned' }, { runs: 800, seed: 11 });
      expect(d.counterexample?.reason).toBeUndefined();
      expect(d.ok).toBe(true);
      const t = await runTargetSuite(targetTipni, { target, profile: 'tuned' }, { runs: 400, seed: 11 });
      expect(t.counterexample?.reason).toBeUndefined();
      expect(t.ok).toBe(true);
    }, 60_000);
  }

  it('binopTopLabels (an operator labels by its operands\' top-level labels) is a TIPNI leak', async () => {
    const v = await runTargetSuite(targetTipni, { target: makeEnvTarget(powersetUS, { binopTopLabels: true }), profile: 'tuned' }, { runs: 3000, seed: 1 });
    expect(v.counterexample?.reason).toMatch(/incompatible/);
    expect(v.constructs).toContain('prim binop_+');
  }, 60_000);

  it('varTopLabel (a variable read raises only the top label) disagrees with the reference', async () => {
    const v = await runTargetSuite(targetDiff, { target: makeEnvTarget(powersetUS, { varTopLabel: true }), profile: 'tuned' }, { runs: 3000, seed: 1 });
    expect(v.counterexample?.reason).toMatch(/final distributions differ/);
    expect(v.constructs).toEqual(expect.arrayContaining(['app', 'lam']));
  }, 60_000);

  it('deepLabelWalksEnv (deepLabel loops on a let-bound closure\'s cyclic environment) is reported as a crash, and the check finishes', async () => {
    const v = await runTargetSuite(targetDiff, { target: makeEnvTarget(powersetUS, { deepLabelWalksEnv: true }), profile: 'tuned' }, { runs: 3000, seed: 1 });
    expect(v.counterexample?.reason).toMatch(/crash: the target threw: stack overflow/);
  }, 60_000);
});
