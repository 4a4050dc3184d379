/**
 * Stuck reasons of the reference rules on BOTH engines. Since evaluator v2 became `evaluate`'s default
 * engine for the reference semantics, a test that calls `evaluate` without `engine` no longer runs the
 * substitution evaluator (src/semantics/ev.ts + rules.ts, the executable spec); the Stryker run of
 * 2026-12-02 found the stuck reasons below (Var, LabelAssert and Endorse on a non-label, ArrayIndex out of
 * bounds and on a negative index) covered by nothing but test/rules-stuck.test.ts, which now runs v2
 * (docs/mutation.md). Each case is run on `substitution` and on `v2`; expected texts are written by hand.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { constModel } from '../src/semantics/models/index.ts';

const lat = powersetUS;
const model = constModel('0');
const ENGINES = ['substitution', 'v2'] as const;

/** The failures of a run with no final configuration, as `Rule: reason`. */
function stuck(e: Expr<USLabel>, engine: (typeof ENGINES)[number]): string[] {
  const res = evaluate(model, lat, US.bottom, { label: US.bottom, messages: [] }, e, 50, { engine });
  expect(Q.show(res.mass)).toBe('0');
  return res.missing.map((m) => (m.failure.kind === 'stuck' ? `${m.failure.rule}: ${m.failure.reason}` : m.failure.kind));
}
const program = (src: string): Expr<USLabel> => closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));

describe.each(ENGINES)('stuck reasons on the %s engine', (engine) => {
  it('Var: a free variable has no derivation', () => {
    expect(stuck({ kind: 'var', name: 'y' }, engine)).toEqual(['Var: unbound variable y']);
  });
  it('LabelAssert: a policy that is not a label', () => {
    expect(stuck(program('assert "x" 1'), engine)).toEqual(['LabelAssert: []:"x" is not a label of powerset-us']);
  });
  it('LabelAssert: n ⊑ pc is checked before toLabel', () => {
    expect(stuck(program('assert (["S"]:"x") 1'), engine)).toEqual(['LabelAssert: the policy label\'s own label ["S"] does not flow to pc []']);
  });
  it('Endorse: a label operand that is not a label', () => {
    expect(stuck(program('endorse "x" 1'), engine)).toEqual(['Endorse: []:"x" is not a label of powerset-us']);
  });
  it('ArrayIndex: an index past the end, and a negative one', () => {
    expect(stuck(program('[1, 2].[2]'), engine)).toEqual(['ArrayIndex: index []:2 out of bounds for length 2']);
    expect(stuck(program('[1, 2].[0 - 1]'), engine)).toEqual(['ArrayIndex: index []:-1 out of bounds for length 2']);
  });
});
