/**
 * Generated rule mutants (issue 17, part 3): the enumeration is every single-point weakening of the
 * reference decisions, and no unsound one survives — every mutant without a soundness sketch
 * (src/variants/mutant-sketches.ts, reviewed in docs/variants.md) is caught within a fixed case budget
 * per (suite, lattice), and no sketched mutant is caught with a leak.
 */
import { describe, it, expect } from 'vitest';
import { generateMutants } from '../src/variants/mutants.ts';
import { MUTANT_SKETCHES } from '../src/variants/mutant-sketches.ts';
import { REFERENCE_DECISIONS, RULE_LABEL_VARS } from '../src/semantics/decisions.ts';
import { huntMutants } from '../src/api/mutants.ts';
import { hunt } from '../src/api/hunt.ts';
import { SHIPPED_LATTICES } from '../src/lattice/registry.ts';

const MUTANTS = generateMutants();

describe('the enumeration', () => {
  it('is every single-point weakening, each once, never the reference', () => {
    const names = MUTANTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    // Per point: a check gives one mutant; a join J gives drop-each-operand, ⊥ and pc, minus duplicates.
    let expected = 0;
    for (const [rule, points] of Object.entries(REFERENCE_DECISIONS)) {
      for (const ref of Object.values(points as Record<string, unknown>)) {
        if (typeof ref === 'boolean') { expected += ref ? 1 : 0; continue; }
        const j = ref as string[];
        const outs = new Set<string>();
        for (const x of j) outs.add(j.filter((y) => y !== x).sort().join('⊔'));
        outs.add('');
        if (RULE_LABEL_VARS[rule as keyof typeof RULE_LABEL_VARS].includes('pc')) outs.add('pc');
        outs.delete([...j].sort().join('⊔'));
        expected += outs.size;
      }
    }
    expect(MUTANTS.length).toBe(expected);
    for (const m of MUTANTS) {
      const d = m.decisions as Record<string, Record<string, unknown>>;
      expect(Object.keys(d)).toEqual([m.rule]);
      expect(Object.keys(d[m.rule]!)).toEqual([m.point]);
      expect(d[m.rule]![m.point]).not.toEqual((REFERENCE_DECISIONS as unknown as Record<string, Record<string, unknown>>)[m.rule]![m.point]);
    }
    expect(names).toContain('m-send-nsu-off');
    expect(names).toContain('m-label-test-result-drop-l');
    expect(names).toContain('m-array-index-result-drop-l1');
  });

  it('every sketch names a generated mutant', () => {
    for (const k of Object.keys(MUTANT_SKETCHES)) expect(MUTANTS.map((m) => m.name)).toContain(k);
  });
});

describe('no unsound generated mutant survives', () => {
  const unsketched = MUTANTS.filter((m) => !MUTANT_SKETCHES[m.name]).map((m) => m.name);
  it(`each of the ${unsketched.length} mutants without a soundness sketch is caught (≤ 1000 cases per suite and lattice)`, async () => {
    const rows = await huntMutants({ only: unsketched, runs: 1000, seed: 1, timeMs: 3_600_000, minimiseMs: 0 });
    const survivors = rows.filter((r) => !r.caught && !MUTANT_SKETCHES[r.mutant.name]).map((r) => r.mutant.name);
    expect(survivors).toEqual([]);
  }, 900_000);

  it('no sketched mutant is caught with a leak by TIPNI or Insulated TIPNI (100 cases per lattice)', async () => {
    for (const name of Object.keys(MUTANT_SKETCHES)) {
      const m = MUTANTS.find((x) => x.name === name)!;
      for (const suite of ['tipni', 'insulated-tipni']) {
        const r = await hunt({ variant: m, suite, lattices: SHIPPED_LATTICES, runs: 100, seed: 2, timeMs: 600_000, minimise: false });
        expect(r.finding?.leak ? `${name} leaks under ${suite}: ${r.finding.reason}` : undefined).toBeUndefined();
      }
    }
  }, 600_000);
});
