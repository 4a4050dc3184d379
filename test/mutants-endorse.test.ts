/**
 * The generated mutants of Endorse's body pc (issue 17, part 3) are caught by the suites that show a leak,
 * not only by a law of the proof. After the gadget generator was added, `m-endorse-body-drop-n` survived
 * `llmbda mutants --time 10s`: TIPNI and Insulated TIPNI missed it in 1,000 cases per lattice and only
 * Stripping (a lemma, "law fails") caught it. The gadgets now endorse with a secret label operand and
 * endorse around effects (src/generators/gadgets.ts); these cases pin that.
 */
import { describe, it, expect } from 'vitest';
import { generateMutants } from '../src/variants/mutants.ts';
import { hunt } from '../src/api/hunt.ts';

const mutant = (name: string) => {
  const m = generateMutants().find((x) => x.name === name);
  if (!m) throw new Error(`no generated mutant ${name}`);
  return m;
};

describe('Endorse body mutants', () => {
  it('m-endorse-body-drop-n (body at pc): Insulated TIPNI shows a leak on powerset-us within 1,000 cases', async () => {
    const r = await hunt({ variant: mutant('m-endorse-body-drop-n'), suite: 'insulated-tipni', lattices: ['powerset-us'], runs: 1000, seed: 1, minimise: false });
    expect(r.finding?.leak).toBe(true);
    expect(r.finding!.testsToFailure).toBeLessThanOrEqual(1000);
  }, 300_000);

  it('m-endorse-body-bot (body at ⊥): Confinement fails on two-point within 300 cases', async () => {
    const r = await hunt({ variant: mutant('m-endorse-body-bot'), suite: 'confinement', lattices: ['two-point'], runs: 300, seed: 1, minimise: false });
    expect(r.finding?.suite).toBe('confinement');
  }, 300_000);

  it('the reference is clean on the same budgets (the cases are not failing for another reason)', async () => {
    for (const [suite, lattice, runs] of [['insulated-tipni', 'powerset-us', 1000], ['confinement', 'two-point', 300]] as const) {
      const r = await hunt({ variant: 'reference', suite, lattices: [lattice], runs, seed: 1, minimise: false });
      expect(r.finding).toBeUndefined();
    }
  }, 300_000);
});
