import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { numerator } from '../src/distributions/rational.ts';
import { runSuite } from '../src/runner/suite.ts';
import type { AnyLattice, Lattice } from '../src/lattice/lattice.ts';
import { US, chain, powersetUS, ppmfTrustSecrecy, product, twoPoint } from '../src/lattice/instances.ts';
import type { USLabel } from '../src/lattice/instances.ts';
import { SHIPPED_LATTICES, latticeByName } from '../src/lattice/registry.ts';
import { finiteLattice, stringsValue } from '../src/lattice/define.ts';
import { incomparablePairs, labelArb, labelCandidateArb, labelPairArb } from '../src/generators/labels.ts';
import { checkLattice, latticeLaws } from '../properties/lattice-laws.ts';
import myLattice from '../examples/my-lattice.ts';
import brokenLattice from '../examples/broken-lattice.ts';

const RUNS = 500;

describe('lattice laws hold on every shipped lattice', () => {
  const lattices: AnyLattice[] = [
    ...SHIPPED_LATTICES.map((n) => latticeByName(n)!),
    ppmfTrustSecrecy,
    chain(1),
    chain(7),
    product(twoPoint, chain(3)),
    product(powersetUS, twoPoint, { factored: true }),
    product(chain(4), chain(3), { factored: true }),
    myLattice,
    finiteLattice({ name: 'three-level', elements: ['public', 'internal', 'secret'], order: [['public', 'internal'], ['internal', 'secret']] }),
    // M3, the smallest non-distributive lattice: still a lattice, so every law must hold.
    finiteLattice({ name: 'M3', elements: ['0', 'x', 'y', 'z', '1'], order: [['0', 'x'], ['0', 'y'], ['0', 'z'], ['x', '1'], ['y', '1'], ['z', '1']] }),
  ];
  for (const lat of lattices) {
    it(`${lat.name}: join-semilattice with ⊥ and ⊤, encoding and factoring laws`, () => {
      const verdict = checkLattice(lat, { runs: RUNS, seed: 42 });
      expect(verdict.counterexample?.pretty).toBeUndefined();
      expect(verdict.error).toBeUndefined();
      expect(verdict.vacuous).toEqual([]);
      expect(verdict.ok).toBe(true);
      expect(verdict.runs).toBe(RUNS);
    });
  }

  it('a lattice without `elements` is still checked (labels drawn through its decoder)', () => {
    const { elements: _dropped, ...noElements } = chain(5);
    const verdict = checkLattice(noElements, { runs: RUNS, seed: 7 });
    expect(verdict.ok).toBe(true);
    expect(verdict.stats['distinct']).toBeGreaterThan(0.3);
  });
});

describe('the lattice-law suite can fail', () => {
  it('catches the non-associative join of examples/broken-lattice.ts with a shrunk three-label counterexample', () => {
    const verdict = checkLattice(brokenLattice, { runs: RUNS, seed: 1 });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample!;
    expect(cx.reason).toMatch(/^associativity fails: \(a ⊔ b\) ⊔ c = .* but a ⊔ \(b ⊔ c\) = .* with a=.*, b=.*, c=/);
    const { a, b, c } = cx.value;
    // Only the three middle labels, all distinct, can witness the cycle: shrinking cannot go below.
    expect(new Set([a, b, c])).toEqual(new Set(['A', 'B', 'C']));
    expect(cx.pretty).toContain('associativity fails');
    expect(cx.pretty).toMatch(/a=\["[ABC]"\], b=\["[ABC]"\], c=\["[ABC]"\]/);
    expect(cx.path).not.toBe('');
  });

  it('the counterexample replays from its seed and path', () => {
    const first = checkLattice(brokenLattice, { runs: RUNS, seed: 5 }).counterexample!;
    const replay = runSuite(latticeLaws, { lattice: brokenLattice }, { runs: RUNS, seed: first.seed, path: first.path });
    expect(replay.counterexample?.value).toEqual(first.value);
    expect(replay.counterexample?.reason).toBe(first.reason);
  });

  const mutant = (changes: Partial<Lattice<USLabel>>): Lattice<USLabel> => ({ ...powersetUS, ...changes });

  it('catches a decoder that accepts anything', () => {
    // Decodes labels correctly but maps every non-label to ⊥ instead of rejecting it.
    const v = checkLattice(mutant({ toLabel: (x) => powersetUS.toLabel(x) ?? US.bottom }), { runs: RUNS, seed: 3 });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/toLabel accepts a non-label/);
  });

  it('catches a decoder that accepts labels outside the lattice', () => {
    const c3 = chain(3);
    // No range check: [7] decodes to 7, which round-trips but is not one of the elements.
    const unchecked: Lattice<number> = {
      ...c3,
      toLabel: (v) => (v.kind === 'array' && v.elems.length === 1 && v.elems[0]!.kind === 'num' ? Number(numerator(v.elems[0]!.value)) : c3.toLabel(v)),
    };
    const v = checkLattice(unchecked, { runs: RUNS, seed: 3 });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/^toLabel decodes to a label outside the lattice: toLabel\(v\) = \[-?\d+\] with v=\[-?\d+\]/);
  });

  it('catches a non-injective show', () => {
    const v = checkLattice(mutant({ show: (l) => (l === US.top ? '["U"]' : powersetUS.show(l)) }), { runs: RUNS, seed: 3 });
    expect(v.counterexample?.reason).toMatch(/^show is not injective/);
  });

  it('catches an order inconsistent with the join', () => {
    const v = checkLattice(mutant({ leq: (a, b) => (a | b) === b && !(a === US.U && b === US.top) }), { runs: RUNS, seed: 3 });
    expect(v.counterexample?.reason).toMatch(/^order and join disagree: leq\(a, b\) = false but a ⊔ b = \["U","S"\] with a=\["U"\], b=\["U","S"\]/);
  });

  it('catches an encoding that does not round-trip', () => {
    const v = checkLattice(mutant({ fromLabel: () => stringsValue([]) }), { runs: RUNS, seed: 3 });
    expect(v.counterexample?.reason).toMatch(/^encoding round trip fails/);
  });

  it('catches a broken factoring', () => {
    const f = powersetUS.factoring!;
    const v = checkLattice(mutant({ factoring: { ...f, toI: (l) => l } }), { runs: RUNS, seed: 3 });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/integrity part has confidentiality|toI/);
  });

  it('reports a crashing lattice by law, as a failure value', () => {
    const v = checkLattice(mutant({ join: (a, b) => { if (a === US.top && b === US.top) throw new Error('boom'); return (a | b) as USLabel; } }), { runs: RUNS, seed: 3 });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/^join-idempotent: the lattice threw: boom/);
  });
});

describe('label generators (src/generators/labels.ts)', () => {
  it('draw only elements, and ⊥ and ⊤ often', () => {
    const xs = fc.sample(labelArb(ppmfTrustSecrecy), { numRuns: 600, seed: 9 });
    expect(xs.every((x) => ppmfTrustSecrecy.elements!.includes(x))).toBe(true);
    expect(xs.filter((x) => x === ppmfTrustSecrecy.bottom).length).toBeGreaterThan(600 / 8);
    expect(xs.filter((x) => x === ppmfTrustSecrecy.top).length).toBeGreaterThan(600 / 8);
    expect(new Set(xs).size).toBe(12);
  });

  it('list incomparable pairs (none on a chain) and draw them often', () => {
    expect(incomparablePairs(chain(4))).toEqual([]);
    expect(incomparablePairs(powersetUS)).toEqual([[US.U, US.S]]);
    const ps = fc.sample(labelPairArb(powersetUS), { numRuns: 600, seed: 9 });
    const incomparable = ps.filter(([a, b]) => !powersetUS.leq(a, b) && !powersetUS.leq(b, a));
    expect(incomparable.length).toBeGreaterThan(600 * 0.3);
  });

  it('produce decoder inputs that are mostly non-labels, and some near misses that are labels', () => {
    const vs = fc.sample(labelCandidateArb(powersetUS), { numRuns: 1000, seed: 9 });
    const accepted = vs.filter((v) => powersetUS.toLabel(v) !== undefined).length;
    expect(accepted).toBeGreaterThan(10);
    expect(accepted).toBeLessThan(500);
  });
});
