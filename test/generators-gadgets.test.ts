/**
 * The tuned profile's gadgets (src/generators/gadgets.ts) are correct by construction: for every
 * shipped lattice and EVERY observer (including those where a gadget's biased label combinations are
 * empty, so it falls back to uniform labels), every hole of a gadget is labelled ⋢ m, and the two
 * sides of a gadget are `∼m`-related by erasure. (The first version drew a hole's label from all
 * labels when the bias found no combination; this test fails on it.) How fast gadgets find the
 * catalogue's leaks is measured by `npm run bench:mttf`, not asserted here.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { Expr } from '../src/syntax/ast.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { gadgetArb } from '../src/generators/gadgets.ts';
import { highLabels, plainToExpr, resolve } from '../src/generators/programs.ts';
import { holeParts } from '../src/generators/hole.ts';
import { children } from '../src/syntax/helpers.ts';
import { eraseExpr } from '../src/observe/indist.ts';

/** Every hole label of a raw skeleton. */
function holeLabels<L>(e: Expr<L>): L[] {
  const h = holeParts(e);
  if (h) return [h.label, ...holeLabels(h.left), ...holeLabels(h.right)];
  return children(e).flatMap((c) => holeLabels(c));
}

function kit<L>(lat: Lattice<L>, obs: L | undefined) {
  const els = lat.elements!;
  const leaf: fc.Arbitrary<Expr<L>> = fc.constantFrom<Expr<L>>({ kind: 'recv' }, { kind: 'var', name: '#0' }, { kind: 'bool', value: true });
  return {
    lat, ...(obs !== undefined ? { obs } : {}), highs: obs === undefined ? [] : highLabels(lat, obs), endorse: true,
    labels: fc.constantFrom(...els), labelLit: (l: L) => plainToExpr(lat.fromLabel(l)) as Expr<L>, leaf,
  };
}

describe('gadgets are correct by construction', () => {
  for (const name of SHIPPED_LATTICES) {
    it(`on ${name}, for every observer with high labels: every hole is labelled ⋢ m and the two sides are ∼m-related`, () => {
      const lat = latticeByName(name)! as Lattice<unknown>;
      let holes = 0;
      for (const obs of lat.elements!) {
        if (highLabels(lat, obs).length === 0) continue;
        for (const g of fc.sample(gadgetArb(kit(lat, obs)), { numRuns: 300, seed: 7 })) {
          for (const l of holeLabels(g)) { holes++; expect(lat.leq(l, obs), `hole label ${lat.show(l)} ⊑ m = ${lat.show(obs)}`).toBe(false); }
          expect(eraseExpr(lat, obs, resolve(g, 0))).toBe(eraseExpr(lat, obs, resolve(g, 1)));
        }
      }
      expect(holes).toBeGreaterThan(0);
    });
  }

  it('single-run gadgets have no holes', () => {
    const lat = latticeByName('powerset-us')! as Lattice<unknown>;
    for (const g of fc.sample(gadgetArb(kit(lat, undefined)), { numRuns: 300, seed: 7 })) expect(holeLabels(g)).toEqual([]);
  });
});
