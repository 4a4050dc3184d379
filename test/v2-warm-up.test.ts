/**
 * Evaluator v2's warm-up evaluations (src/semantics/v2/warm-up.ts; docs/evaluator-v2.md "Warm-up evaluations"):
 * their programs answer what the table says on every shipped lattice, by v2 with the warm-up's own options and by
 * the substitution evaluator (so a warm-up never runs a path the spec would not); the warm-up runs once per process
 * and lattice, not with `warmUp: false`, and an exception ends it without escaping (a user's lattice under test is
 * for the user's own evaluation to report).
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { chain } from '../src/lattice/instances.ts';
import { SHIPPED_LATTICES, latticeByName } from '../src/lattice/registry.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { WARM_UP, warmUp, warmedUp } from '../src/semantics/v2/warm-up.ts';

/** `value ↦ weight` per outcome, sorted, plus what is missing: the warm-up table's form. */
function rows(r: Evaluation<unknown>): string[] {
  const out = entries(r.finals).map(([f, w]) => {
    const b = f.value.body;
    return `${b.kind === 'num' ? Q.show(b.value) : b.kind === 'str' ? JSON.stringify(b.value) : b.kind} ↦ ${Q.show(w)}`;
  }).sort();
  return r.missing.length === 0 ? out : [...out, `missing ${r.missing.length}`];
}

const coin = coinModel(Q.rat(1, 2));

describe('v2 warm-up', () => {
  it.each(SHIPPED_LATTICES)('each warm-up program answers its table entry on %s, by v2 and by the substitution evaluator', (name) => {
    const lat = latticeByName(name) as Lattice<unknown>;
    const start = { label: lat.bottom, messages: [] };
    for (const w of WARM_UP) {
      const e = closeProgram(parse(w.src, lat), loadPrelude(lat, coin.preludeSource));
      expect(rows(evaluateV2(coin, lat, lat.bottom, start, e, 1_000, { ...w.opts, warmUp: false })), w.src).toEqual(w.expect);
      expect(rows(evaluate(coin, lat, lat.bottom, start, e, 1_000, { engine: 'substitution' })), w.src).toEqual(w.expect);
    }
  });

  it('runs once per lattice, with each program and its options, and not with warmUp: false', () => {
    const lat = chain(7) as Lattice<unknown>;
    const seen: string[] = [];
    warmUp(lat, (_m, _e, o) => { seen.push(JSON.stringify(o)); });
    expect(seen).toEqual(WARM_UP.map((w) => JSON.stringify(w.opts)));
    expect(seen[0]).toBe('{"frontier":false,"afterBranch":0}');
    warmUp(lat, () => { seen.push('again'); });
    expect(seen).toHaveLength(WARM_UP.length);

    const other = chain(7) as Lattice<unknown>;
    const e = parse('1 + 2', other);
    evaluateV2(coin, other, other.bottom, { label: other.bottom, messages: [] }, e, 10, { warmUp: false });
    expect(warmedUp(other)).toBe(false);
    const r = evaluateV2(coin, other, other.bottom, { label: other.bottom, messages: [] }, e, 10);
    expect(warmedUp(other)).toBe(true);
    expect(rows(r)).toEqual(['3 ↦ 1']);

    // Through `evaluate` (as `llmbda run` calls it, one evaluation per process): off when asked, else on.
    const third = chain(7) as Lattice<unknown>;
    const e3 = parse('1 + 2', third);
    evaluate(coin, third, third.bottom, { label: third.bottom, messages: [] }, e3, 10, { warmUp: false });
    expect(warmedUp(third)).toBe(false);
    evaluate(coin, third, third.bottom, { label: third.bottom, messages: [] }, e3, 10);
    expect(warmedUp(third)).toBe(true);
  });

  it('an exception ends the warm-up without escaping, and the lattice counts as warmed', () => {
    const lat = chain(5) as Lattice<unknown>;
    let calls = 0;
    expect(() => warmUp(lat, () => { calls++; throw new Error('a broken lattice'); })).not.toThrow();
    expect(calls).toBe(1);
    expect(warmedUp(lat)).toBe(true);
  });
});
