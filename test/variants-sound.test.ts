/**
 * Unsound variants survive where they should. `test-bare-pc` survives 2,000 TIPNI cases on two-point:
 * on a two-point lattice the policy label of a test is ⊥ or ⊤, and neither answer can leak.
 * `endorse-drops-pc` breaks only Confinement, and only on a lattice with a real integrity axis: it
 * survives Insulated TIPNI on powerset-us (for I-maximal m, Confinement of the endorsed expression
 * gives ℓ(v2)→ ⊒ pc→, so forgetting pc changes only the integrity part, which such an m always sees;
 * docs/variants.md), and Confinement on the trivially factored two-point and chain(3).
 */
import { describe, it, expect } from 'vitest';
import { runSuite } from '../src/runner/suite.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { variantCtx } from '../src/llmbda/variant-ctx.ts';
import { suiteNamed } from '../src/api/registry.ts';

function survives(variant: string, suite: string, lattice: string, runs: number, seed: number): void {
  const v = runSuite(suiteNamed(suite), variantCtx(latticeByName(lattice)!, variantByName(variant)!), { runs, seed });
  expect(v.counterexample?.pretty, `${variant} was flagged by ${suite} on ${lattice}: ${v.counterexample?.reason ?? ''}`).toBeUndefined();
  expect(v.error).toBeUndefined();
  expect(v.runs).toBe(runs);
  // A survival only counts if the cases were not vacuous (the suites' non-vacuity thresholds).
  expect(v.vacuous).toEqual([]);
}

describe('variants that are sound on some lattices survive there', () => {
  it('test-bare-pc survives 2000 TIPNI cases on two-point', () => {
    expect(variantByName('test-bare-pc')!.expected?.soundOn).toEqual(['two-point']);
    survives('test-bare-pc', 'tipni', 'two-point', 2000, 7);
  });

  it('endorse-drops-pc survives 1000 Insulated TIPNI cases on powerset-us (it is caught by Confinement instead)', () => {
    expect(variantByName('endorse-drops-pc')!.expected?.caughtBy).toBe('confinement');
    survives('endorse-drops-pc', 'insulated-tipni', 'powerset-us', 1000, 8);
  });

  for (const lattice of ['two-point', 'chain(3)']) {
    it(`endorse-drops-pc survives 1000 Confinement cases on ${lattice} (trivial factoring: ⟨l1←, l2→⟩ = l2 ⊒ pc)`, () => {
      expect(variantByName('endorse-drops-pc')!.expected?.soundOn).toContain(lattice);
      survives('endorse-drops-pc', 'confinement', lattice, 1000, 9);
    });
  }
});
