/**
 * Stuck reasons of the reference rules (spec §3) that generated programs do not reach — a free
 * variable (generated and parsed programs are closed), a label assertion on a non-label — and the
 * order of LabelAssert's side conditions (`n ⊑ pc` is checked before `toLabel`). The reasons are
 * observable: they key the stuck mass. Expected texts are written by hand.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { constModel } from '../src/semantics/models/index.ts';
import type { USLabel } from '../src/lattice/instances.ts';

const lat = powersetUS;
const model = constModel('0');

/** The failures of a run with no final configuration, as `Rule: reason`. */
function stuck(e: Expr<USLabel>): string[] {
  const res = evaluate(model, lat, US.bottom, { label: US.bottom, messages: [] }, e, 50);
  expect(Q.show(res.mass)).toBe('0');
  return res.missing.map((m) => (m.failure.kind === 'stuck' ? `${m.failure.rule}: ${m.failure.reason}` : m.failure.kind));
}
const program = (src: string): Expr<USLabel> => closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));

describe('stuck reasons no generated program reaches', () => {
  it('Var: a free variable has no derivation', () => {
    expect(stuck({ kind: 'var', name: 'y' })).toEqual(['Var: unbound variable y']);
  });
  it('LabelAssert: a policy that is not a label is stuck, naming the value and the lattice', () => {
    expect(stuck(program('assert "x" 1'))).toEqual(['LabelAssert: []:"x" is not a label of powerset-us']);
  });
  it("LabelAssert: n ⊑ pc is checked first, even when the policy is not a label", () => {
    expect(stuck(program('assert (["S"]:"x") 1'))).toEqual(['LabelAssert: the policy label\'s own label ["S"] does not flow to pc []']);
  });
});
