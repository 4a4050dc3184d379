/**
 * The m-skipping semantics ⇓♯ of spec §7, rule by rule, each beside what the reference ⇓ does on the
 * same input. Observer m = ["U"] on powerset-us (I-maximal: ["S"] and ["U","S"] are high) unless said.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries, leq, equals } from '../src/distributions/subdist.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, constModel } from '../src/semantics/models/index.ts';
import type { Conversation } from '../src/semantics/config.ts';
import { SKIPPING } from '../src/skipping/skipping.ts';
import { observe } from '../src/observe/indist.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const { bottom: BOT, U, S } = US;

interface RunOpts { pc?: USLabel; conv?: Conversation<USLabel>; fuel?: number; model?: PModel; m?: USLabel }

function run(src: string, sharp: boolean, o: RunOpts = {}): Evaluation<USLabel> {
  const model = o.model ?? constModel('0');
  const expr = closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));
  return evaluate(model, lat, o.pc ?? BOT, o.conv ?? { label: BOT, messages: [] }, expr, o.fuel ?? 100,
    sharp ? { semantics: SKIPPING, observer: o.m ?? U } : {});
}


/** The outcomes as `value @ conversation ↦ p`, plus `stuck Rule` / `out of fuel` for missing mass. */
function outcomes(res: Evaluation<USLabel>): string[] {
  return [
    ...entries(res.finals).map(([f, w]) => `${render(lat, f.value)} @ ${lat.show(f.conv.label)}:${JSON.stringify(f.conv.messages)} ↦ ${Q.show(w)}`),
    ...res.missing.map((m) => (m.failure.kind === 'stuck' ? `stuck ${m.failure.rule}` : 'out of fuel')),
  ].sort();
}

/** ⇓ and ⇓♯ side by side. */
const both = (src: string, o: RunOpts = {}): { ref: string[]; sharp: string[] } => ({ ref: outcomes(run(src, false, o)), sharp: outcomes(run(src, true, o)) });

describe('the m-skipping semantics ⇓♯ (spec §7), observer ["U"]', () => {
  it('1. skip at entry: pc ⋢ m ⟹ C, pc:{} ▷ 1 — whatever e is', () => {
    expect(both('send "x"', { pc: S })).toEqual({ ref: ['stuck Send'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
    // a high label raises pc: the body 1/0 is never run
    expect(both('["S"]:(1 / 0)')).toEqual({ ref: ['stuck Prim'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
  });

  it('1. a skip is one derivation step: it needs fuel ≥ 1', () => {
    expect(outcomes(run('send "x"', true, { pc: S, fuel: 1 }))).toEqual(['["S"]:{} @ []:[] ↦ 1']);
    expect(outcomes(run('send "x"', true, { pc: S, fuel: 0 }))).toEqual(['out of fuel']);
  });

  it('2. App: e2 is always evaluated (its low effects kept); l1 ⋢ m ⟹ l1:{} with no function check', () => {
    expect(both('(["S"]:1) (send "a")')).toEqual({ ref: ['stuck App'], sharp: ['["S"]:{} @ []:["a"] ↦ 1'] });
  });

  it('3. Send: lc ⋢ m ⟹ C1, pc:{} — nothing appended, no pc ⊑ lc check', () => {
    expect(both('send "x"', { pc: U, conv: { label: S, messages: ['a'] } }))
      .toEqual({ ref: ['stuck Send'], sharp: ['["U"]:{} @ ["S"]:["a"] ↦ 1'] });
  });

  it('4. Recv: lc ⋢ m ⟹ C, lc:{} ▷ 1 — no sampling, no check', () => {
    const conv = { label: S, messages: ['a'] };
    expect(outcomes(run('recv', true, { conv, model: coinModel(Q.rat(1, 3)) }))).toEqual(['["S"]:{} @ ["S"]:["a"] ↦ 1']);
    expect(outcomes(run('recv', false, { conv, model: coinModel(Q.rat(1, 3)) })))
      .toEqual(['["S"]:[["S"]:true, ["S"]:0] @ ["S"]:["a","0"] ↦ 2/3', '["S"]:[["S"]:true, ["S"]:1] @ ["S"]:["a","1"] ↦ 1/3']);
  });

  it('5. Clear: lc ⋢ m ⟹ pc:ε, pc:{} — no check', () => {
    expect(both('clear', { pc: U, conv: { label: S, messages: ['a'] } })).toEqual({ ref: ['stuck Clear'], sharp: ['["U"]:{} @ ["U"]:[] ↦ 1'] });
  });

  it('6. LabelFlow, LabelTest, Endorse: n ⋢ m after e1 ⟹ C1, (pc ⊔ n):{} without decoding', () => {
    expect(both('let l = ["S"]:"junk" in l:1')).toEqual({ ref: ['stuck LabelFlow'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
    expect(both('let l = ["S"]:"junk" in l ? 1')).toEqual({ ref: ['stuck LabelTest'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
    expect(both('endorse (["S"]:"junk") 1')).toEqual({ ref: ['stuck Endorse'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
    // a low policy value is decoded as usual
    expect(both('["S"] ? 1').sharp).toEqual(['["S"]:true @ []:[] ↦ 1']);
  });

  it('7. LabelAssert: l2 ⋢ m ⟹ the assertion passes; n ⋢ m stays stuck', () => {
    expect(both('assert ["U"] (["S"]:1)')).toEqual({ ref: ['stuck LabelAssert'], sharp: ['[]:{} @ []:[] ↦ 1'] });
    expect(both('let l = ["S"]:["U","S"] in assert l 1')).toEqual({ ref: ['stuck LabelAssert'], sharp: ['stuck LabelAssert'] });
  });

  it('8. Prim: deepLabel(V) ⋢ m ⟹ (pc ⊔ deepLabel(V)):{} without calling primEval', () => {
    expect(both('[1, ["S"]:0] + 1')).toEqual({ ref: ['stuck Prim'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
    expect(both('1 + ["U"]:2').sharp).toEqual(['["U"]:3 @ []:[] ↦ 1']);
  });

  it('9. FieldAccess: l1 ⋢ m ⟹ l1:{} with no shape check', () => {
    expect(both('(["S"]:1).a')).toEqual({ ref: ['stuck FieldAccess'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
  });

  it('9. ArrayIndex: l1 ⋢ m ⟹ no shape check, e\' still evaluated; l2 ⋢ m ⟹ no bounds check; a low non-array stays stuck', () => {
    expect(both('(["S"]:"x").[let _ = send "a" in 0]')).toEqual({ ref: ['stuck ArrayIndex'], sharp: ['["S"]:{} @ []:["a"] ↦ 1'] });
    expect(both('[1].[["S"]:5]')).toEqual({ ref: ['stuck ArrayIndex'], sharp: ['["S"]:{} @ []:[] ↦ 1'] });
    expect(both('"x".[["S"]:0]')).toEqual({ ref: ['stuck ArrayIndex'], sharp: ['stuck ArrayIndex'] });
  });

  it('everything low is the ordinary rule: ⇓♯ = ⇓ on a program with no high labels', () => {
    const src = 'let x = @"flip" in let y = fork @"again" in [x.[1] + y.[1], ["U"] ? x]';
    const model = coinModel(Q.rat(3, 10));
    expect(outcomes(run(src, true, { model }))).toEqual(outcomes(run(src, false, { model })));
  });
});

describe('the proof sketch on the bare-pc example: μ0 ≤ ω0 = ω1 ≥ μ1 (Lemmas 11 and 12)', () => {
  it('the ⇓♯ observations of the two related runs are equal and dominate the ⇓ observations', () => {
    const m = U;
    const obs = (src: string, sharp: boolean) => observe(lat, m, run(src, sharp, { m }).finals);
    const [p0, p1] = ['["S"] ? (["S"]:0)', '["S"] ? (["U","S"]:0)'];
    expect(equals(obs(p0, true), obs(p1, true))).toBe(true);
    expect(leq(obs(p0, false), obs(p0, true))).toBe(true);
    expect(leq(obs(p1, false), obs(p1, true))).toBe(true);
  });
});

/** The diagnostics of the missing mass: `Rule: reason` (stuck) or `out of fuel`. */
function why(res: Evaluation<USLabel>): string[] {
  return res.missing.map((m) => (m.failure.kind === 'stuck' ? `${m.failure.rule}: ${m.failure.reason}` : 'out of fuel'));
}

describe('the checks ⇓♯ keeps (spec §7: everything low is the ordinary rule), with their diagnostics', () => {
  it('Clear: lc ⊑ m keeps the pc ⊑ lc check (pc ["U"], lc [], m ["U"])', () => {
    expect(why(run('clear', true, { pc: U }))).toEqual(['Clear: pc ["U"] does not flow to conversation label []']);
    expect(outcomes(run('clear', true, { pc: U, conv: { label: U, messages: ['a'] } }))).toEqual(['["U"]:{} @ ["U"]:[] ↦ 1']);
  });

  it('LabelAssert: a low policy label n ⋢ pc is stuck on n ⊑ pc, before decoding', () => {
    // n = ["U"] ⊑ m but ⋢ pc = []: without the check the assertion ["S"] would pass (body 1 is at [])
    expect(why(run('let l = ["U"]:["S"] in assert l 1', true))).toEqual([`LabelAssert: the policy label's own label ["U"] does not flow to pc []`]);
    expect(outcomes(run('let l = ["U"]:["U"] in assert l (["U"]:1)', true, { pc: U }))).toEqual(['["U"]:{} @ []:[] ↦ 1']);
  });

  it('LabelAssert: a low policy value that is no label is stuck, and says so', () => {
    expect(why(run('assert "junk" 1', true))).toEqual(['LabelAssert: []:"junk" is not a label of powerset-us']);
  });

  it('LabelAssert: a low l2 ⋢ l is a policy violation; l2 ⊑ l passes', () => {
    expect(why(run('assert [] (["U"]:1)', true))).toEqual(['LabelAssert: policy violation: ["U"] does not flow to []']);
    expect(outcomes(run('assert ["U"] (["U"]:1)', true))).toEqual(['[]:{} @ []:[] ↦ 1']);
  });

  it('ArrayIndex: a low non-array and a low out-of-bounds index stay stuck, and say so', () => {
    expect(why(run('"x".[0]', true))).toEqual(['ArrayIndex: indexing a non-array []:"x"']);
    expect(why(run('[1].[3]', true))).toEqual(['ArrayIndex: index []:3 out of bounds for length 1']);
    expect(why(run('[1].[["U"]:3]', true))).toEqual(['ArrayIndex: index ["U"]:3 out of bounds for length 1']);
    expect(outcomes(run('[1, 2].[["U"]:1]', true))).toEqual(['["U"]:2 @ []:[] ↦ 1']);
  });

  it('⇓♯ without an observer m is an internal error, not a silent run', () => {
    expect(() => evaluate(constModel('0'), lat, BOT, { label: BOT, messages: [] }, parse('1', lat, { file: 'test' }), 10, { semantics: SKIPPING }))
      .toThrow('internal error: the skipping semantics needs an observer m');
  });
});
