/**
 * Constrained endorse (paper, Appendix E): the `powerset-use` lattice, `robust_endorse` and
 * `bounded_endorse` on the Appendix's probes, and the two suites: no cascade through robust_endorse and
 * the log2 n bound of bounded_endorse hold on 2,000 generated cases each under the standard prelude, and
 * every breaking prelude variant is caught.
 */
import { ENDORSE_SUITES } from '../src/api/registry.ts';
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { isIMaximal } from '../src/lattice/lattice.ts';
import { powersetUSE, USE } from '../src/lattice/instances.ts';
import { print } from '../src/syntax/printer.ts';
import { failureKey } from '../src/semantics/config.ts';
import { runSuite } from '../src/runner/suite.ts';
import { checkLattice } from '../properties/lattice-laws.ts';
import { endorseNoCascade } from '../properties/endorse-no-cascade.ts';
import { endorseBounded } from '../properties/endorse-bounded.ts';
import { runSource } from '../src/endorse/cases.ts';
import { PRELUDE_VARIANTS, preludeSourceOf, preludeWith } from '../src/endorse/variants.ts';
import { STANDARD_PRELUDE_SOURCE } from '../src/semantics/prelude.ts';
import { huntEndorse } from '../src/endorse/hunt.ts';

const lat = powersetUSE;
const REF = { prelude: 'reference' };

/** The single outcome of a program (value printed with its label), or the reason it is stuck. */
function outcome(src: string, ctx = REF): string {
  const r = runSource(ctx, 'echo', src);
  const fs = entries(r.finals);
  if (fs.length === 1 && Q.eq(fs[0]![1], Q.ONE)) return print(fs[0]![0].value, lat);
  if (fs.length === 0 && r.missing.length === 1) return `stuck: ${failureKey(r.missing[0]!.failure)}`;
  throw new Error(`unexpected outcome of ${src}`);
}

describe('the powerset-use lattice {U, S, E}', () => {
  it('is registered, satisfies the lattice laws and factors as integrity {U,E} × confidentiality {S}', () => {
    expect(latticeByName('powerset-use')).toBe(powersetUSE);
    const v = checkLattice(lat, { runs: 300, seed: 3 });
    expect(v.ok, v.counterexample?.reason).toBe(true);
    const f = lat.factoring!;
    expect(f.toI(7)).toBe(USE.U | USE.E);
    expect(f.toS(7)).toBe(USE.S);
    expect(isIMaximal(lat, USE.U | USE.E)).toBe(true);
    expect(isIMaximal(lat, USE.U | USE.S)).toBe(false);
    expect(lat.show(7)).toBe('["U","S","E"]');
    expect(lat.toLabel({ kind: 'array', elems: [{ kind: 'str', value: 'E' }, { kind: 'str', value: 'U' }] } as never)).toBe(USE.U | USE.E);
    expect(lat.toLabel({ kind: 'array', elems: [{ kind: 'str', value: 'E' }, { kind: 'str', value: 'E' }] } as never)).toBeUndefined();
  });
});

describe('Appendix E probes (spec §8.3 on powerset-use, then the constrained forms)', () => {
  it.each([
    ['endorse [] (["U"]:"untrusted")', '[]:"untrusted"'],
    ['endorse [] (["S"]:"password")', '["S"]:"password"'],
    ['if ["U"]:true then endorse [] "x" else "skip"', '["U"]:"x"'],
    ['let m = endorse [] (["U"]:42) in m * 2', '[]:84'],
    ['let w = endorse [] (["U"]:"x") in if ["S"] ? w then "accepted" else "rejected"', '["S"]:"accepted"'],
  ])('plain endorse: %s ↦ %s', (src, want) => {
    expect(outcome(src)).toBe(want);
  });
  it('plain endorse of a non-label is stuck', () => {
    expect(outcome('endorse "not a label" (["U"]:"d")')).toMatch(/^stuck: stuck Endorse/);
  });
  it.each([
    ['robust_endorse (["U"]:"untrusted")', '["E"]:"untrusted"'],
    ['robust_endorse (["U","S"]:"password")', '["S","E"]:"password"'],
    ['let m = robust_endorse (["U"]:42) in m * 2', '["E"]:84'],
    ['let w = robust_endorse (["U"]:"x") in if ["S","E"] ? w then "accepted" else "rejected"', '["S","E"]:"accepted"'],
    ['bounded_endorse ["yes", "no"] (["U"]:"no")', '[]:"no"'],
    ['bounded_endorse [1, 2, 3] (["U","S"]:3)', '["S"]:3'],
  ])('%s ↦ %s', (src, want) => {
    expect(outcome(src)).toBe(want);
  });
  it.each([
    ['robust_endorse (robust_endorse (["U"]:1))', /\["E"\] does not flow to \["U","S"\]/],
    ['let a = robust_endorse (["U"]:1) in robust_endorse (a + (["U"]:2))', /\["U","E"\] does not flow/],
    ['let a = robust_endorse (["U"]:1) in robust_endorse [a, 2]', /does not flow/],
    ['let a = robust_endorse (["U"]:true) in if a then robust_endorse (["U"]:1) else 0', /does not flow/],
    ['bounded_endorse [1, 2, 3] (["U"]:7)', /LabelAssert/],
  ])('refused (stuck): %s', (src, why) => {
    expect(outcome(src)).toMatch(why);
  });
  it('a once-endorsed value is marked: it does not flow to the clean label []', () => {
    expect(outcome('let w = robust_endorse (["U"]:"x") in if [] ? w then "clean" else "marked"')).toBe('[]:"marked"');
  });
});

describe('prelude variants', () => {
  it('replace exactly one definition of the standard prelude', () => {
    for (const v of PRELUDE_VARIANTS) {
      const src = preludeSourceOf(v.name);
      expect(src).not.toBe(STANDARD_PRELUDE_SOURCE);
      expect(src.split('\n').filter((l, i) => l !== STANDARD_PRELUDE_SOURCE.split('\n')[i])).toEqual([`let ${v.replaces} = ${v.definition}`]);
    }
    expect(() => preludeWith('no_such_name', '1')).toThrow(/no one-line definition/);
    expect(() => preludeSourceOf('nope')).toThrow(/unknown prelude variant/);
  });
});

const RUNS = 2000;

describe('the endorse suites on 2,000 generated cases each', () => {
  it('robust_endorse never cascades under the standard prelude (and the suite is not vacuous)', () => {
    const v = runSuite(endorseNoCascade, REF, { runs: RUNS, seed: 11 });
    expect(v.counterexample?.pretty, v.counterexample?.reason).toBeUndefined();
    expect(v.error).toBeUndefined();
    expect(v.vacuous).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.runs).toBe(RUNS);
  });
  it('bounded_endorse leaks at most log2 of its outcomes under the standard prelude (not vacuous)', () => {
    const v = runSuite(endorseBounded, REF, { runs: RUNS, seed: 12 });
    expect(v.counterexample?.pretty, v.counterexample?.reason).toBeUndefined();
    expect(v.error).toBeUndefined();
    expect(v.vacuous).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.stats['bound reached']).toBeGreaterThan(0.3); // the bound is tight on many cases
  });
  it.each(PRELUDE_VARIANTS.map((v) => [v.name, v] as const))('%s is caught by its suite', (_n, variant) => {
    const suite = variant.caughtBy === 'endorse-no-cascade' ? endorseNoCascade : endorseBounded;
    const v = runSuite(suite as never, { prelude: variant.name }, { runs: RUNS, seed: 1 });
    expect(v.counterexample, `${variant.name} survived ${v.runs} cases`).toBeDefined();
    expect(v.counterexample!.reason).not.toMatch(/^exception/);
  });
});

describe('llmbda hunt --system endorse', () => {
  it.each(PRELUDE_VARIANTS.map((v) => [v.name] as const))('finds %s, with a replay line', (name) => {
    const r = huntEndorse({ suites: ENDORSE_SUITES, variant: name, seed: 1, timeMs: 20_000 });
    expect(r.found, r.report).toBe(true);
    expect(r.report).toContain(`Replay: npx llmbda hunt --system endorse --variant ${name} --seed 1`);
  });
  it('gives the standard prelude a clean bill on a short hunt, and rejects unknown variants', () => {
    const r = huntEndorse({ suites: ENDORSE_SUITES, variant: 'reference', seed: 2, timeMs: 2000 });
    expect(r.found, r.report).toBe(false);
    expect(r.tried).toBeGreaterThan(50);
    expect(() => huntEndorse({ suites: ENDORSE_SUITES, variant: 'nope' })).toThrow(/unknown variant/);
  });
});
