/**
 * One focused test per reference rule of spec §3 (label arithmetic, side conditions, conversation
 * threading), plus the fuel convention of §5 and the missing-mass report. Every expected value is
 * worked out by hand from the rule as the spec writes it.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, constModel, tableModel } from '../src/semantics/models/index.ts';
import type { Conversation } from '../src/semantics/config.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const { bottom: BOT, U, S, top: TOP } = US;

interface RunOpts { pc?: USLabel; conv?: Conversation<USLabel>; fuel?: number; model?: PModel; memoise?: boolean; engine?: 'substitution' | 'v2' }

function run(src: string, o: RunOpts = {}): Evaluation<USLabel> {
  const model = o.model ?? constModel('0');
  const expr = closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));
  return evaluate(model, lat, o.pc ?? BOT, o.conv ?? { label: BOT, messages: [] }, expr, o.fuel ?? 100, {
    ...(o.memoise === undefined ? {} : { memoise: o.memoise }), ...(o.engine === undefined ? {} : { engine: o.engine }),
  });
}


/** The single final configuration of a deterministic run, as `[value, conversation]`. */
function one(src: string, o: RunOpts = {}): [string, string] {
  const res = run(src, o);
  const es = entries(res.finals);
  expect(es, `expected exactly one outcome, missing: ${JSON.stringify(res.missing.map((m) => m.failure))}`).toHaveLength(1);
  const [f, w] = es[0]!;
  expect(Q.show(w)).toBe('1');
  return [render(lat, f.value), `${lat.show(f.conv.label)}:${JSON.stringify(f.conv.messages)}`];
}

/** The value of a deterministic run. */
const value = (src: string, o: RunOpts = {}): string => one(src, o)[0];

/** The stuck reasons of a run that has no final configuration, as `Rule: reason`. */
function stuck(src: string, o: RunOpts = {}): string[] {
  const res = run(src, o);
  expect(Q.show(res.mass)).toBe('0');
  return res.missing.map((m) => (m.failure.kind === 'stuck' ? `${m.failure.rule}: ${m.failure.reason}` : 'out of fuel'));
}

describe('core rules', () => {
  it('Lam: pc ⊢ C, λx.e ⇓ C, pc:λx.e', () => {
    expect(value('\\x. x', { pc: U })).toBe('["U"]:λx');
  });

  it('App: the body runs at the function\'s label l1, not at pc', () => {
    expect(value('(["S"]:\\x. 0) 1')).toBe('["S"]:0');
    // …so a send in the body of an S-labelled function hits the no-sensitive-upgrade check
    expect(stuck('(["S"]:\\x. send x) "hi"')).toEqual(['Send: pc ["S"] does not flow to conversation label []']);
  });

  it('App: applying a non-function is stuck', () => {
    expect(stuck('1 2').map((r) => r.split(':')[0])).toEqual(['App']);
  });

  it('Send: the conversation label becomes lc ⊔ n with n = deepLabel(V); the result is pc:{}', () => {
    expect(one('send (["S"]:"x")', { conv: { label: BOT, messages: ['a'] } })).toEqual(['[]:{}', '["S"]:["a","x"]']);
    // n is the deep label: an S inside a record taints the conversation; strings inside structures are double-quoted
    const [v, c] = one('send {a: ["S"]:"b"}');
    expect(v).toBe('[]:{}');
    expect(c.startsWith('["S"]:')).toBe(true);
    expect(c).toContain('\\"b\\"');
    expect(one('send "x"', { pc: U, conv: { label: U, messages: [] } })).toEqual(['["U"]:{}', '["U"]:["x"]']);
  });

  it('Send: pc ⋢ lc is stuck (no-sensitive-upgrade)', () => {
    expect(stuck('send "x"', { pc: S })).toEqual(['Send: pc ["S"] does not flow to conversation label []']);
  });

  it('Recv: the response is appended, and its code runs at pc = lc (the conversation label)', () => {
    // parse("1") = [true, 1], evaluated at lc = ["S"]
    expect(one('recv', { conv: { label: S, messages: ['hi'] }, model: constModel('1') }))
      .toEqual(['["S"]:[["S"]:true, ["S"]:1]', '["S"]:["hi","1"]']);
    // the response's code itself runs at lc: a send inside it succeeds (pc = lc) and joins nothing new
    expect(one('recv', { conv: { label: U, messages: [] }, model: constModel('send "y"') }))
      .toEqual(['["U"]:[["U"]:true, ["U"]:{}]', '["U"]:["send \\"y\\"","y"]']);
  });

  it('Recv: weights multiply by weight(c)(r)', () => {
    const res = run('recv', { model: coinModel(Q.rat(3, 10)) });
    expect(entries(res.finals).map(([f, w]) => [JSON.stringify(f.conv.messages), Q.show(w)]).sort())
      .toEqual([['["0"]', '7/10'], ['["1"]', '3/10']]);
  });

  it('Recv: pc ⋢ lc is stuck', () => {
    expect(stuck('recv', { pc: S })).toEqual(['Recv: pc ["S"] does not flow to conversation label []']);
  });

  it('Fork: the conversation is restored, label too', () => {
    expect(one('fork (send (["S"]:"x"))', { conv: { label: BOT, messages: ['a'] } })).toEqual(['[]:{}', '[]:["a"]']);
  });

  it('Clear: resets the conversation to pc:ε (not ⊥:ε) and returns pc:{}', () => {
    expect(one('clear', { pc: U, conv: { label: TOP, messages: ['a', 'b'] } })).toEqual(['["U"]:{}', '["U"]:[]']);
  });

  it('Clear: pc ⋢ lc is stuck', () => {
    expect(stuck('clear', { pc: S, conv: { label: U, messages: [] } })).toEqual(['Clear: pc ["S"] does not flow to conversation label ["U"]']);
  });
});

describe('label rules', () => {
  it('Labelled: l:e runs e at pc ⊔ l', () => {
    expect(value('["S"]:1')).toBe('["S"]:1');
    expect(value('["S"]:1', { pc: U })).toBe('["U","S"]:1');
  });

  it('LabelFlow: e2 runs at pc ⊔ n ⊔ l, n the label of the label value', () => {
    expect(value('let l = ["U"] in l:1')).toBe('["U"]:1');
    expect(value('let l = ["S"]:["U"] in l:1')).toBe('["U","S"]:1');
  });

  it('LabelFlow: a value that is not a label is stuck', () => {
    expect(stuck('let l = "x" in l:1').map((r) => r.split(':')[0])).toEqual(['LabelFlow']);
  });

  it('LabelTest: answers (ℓ(V2) ⊑ l) at pc ⊔ n ⊔ l, never at the bare pc', () => {
    expect(value('["S"] ? 1')).toBe('["S"]:true');
    expect(value('["U"] ? (["S"]:1)')).toBe('["U"]:false');
    // n = ["S"] (the label value is S-labelled): e2 runs at pc ⊔ n, the answer is at pc ⊔ n ⊔ l
    expect(value('let l = ["S"]:["U"] in l ? 1')).toBe('["U","S"]:false');
  });

  it('LabelAssert: passes with pc:{} when ℓ(V2) ⊑ l', () => {
    expect(value('assert ["U"] (["U"]:1)')).toBe('[]:{}');
    expect(value('assert ["U"] 1', { pc: U })).toBe('["U"]:{}');
  });

  it('LabelAssert: stuck on a policy violation (ℓ(V2) ⋢ l) and when n ⋢ pc', () => {
    expect(stuck('assert ["U"] (["S"]:1)')).toEqual(['LabelAssert: policy violation: ["S"] does not flow to ["U"]']);
    expect(stuck('let l = ["S"]:["U","S"] in assert l 1').map((r) => r.split(':')[0])).toEqual(['LabelAssert']);
  });

  it('Endorse: the result is (pc ⊔ ⟨l1←, l2→⟩):v2 — integrity from l1, confidentiality kept', () => {
    expect(value('endorse [] (["U","S"]:1)')).toBe('["S"]:1');
    expect(value('endorse ["U"] (["S"]:1)')).toBe('["U","S"]:1');
    expect(value('endorse [] (["U"]:1)', { pc: S })).toBe('["S"]:1');
  });
});

describe('data rules', () => {
  it('ScalarLit: pc ⊢ C, k ⇓ C, pc:k', () => {
    expect(value('"a"', { pc: U })).toBe('["U"]:"a"');
    expect(value('null', { pc: S })).toBe('["S"]:null');
  });

  it('Prim: the result is (pc ⊔ deepLabel(V)):wrapValues(v\')', () => {
    expect(value('["S"]:1 + ["U"]:2')).toBe('["U","S"]:3');
    // deepLabel: an S two levels down still labels the result
    expect(value('str([1, [["S"]:2]])').startsWith('["S"]:')).toBe(true);
    // wrapValues: every nested field of the primitive's result is ⊥
    expect(value('shape(["S"]:"ab")')).toBe('["S"]:{type: []:"string", length: []:2}');
    expect(value('1 + 1', { pc: U })).toBe('["U"]:2');
  });

  it('Prim: a failing primitive is stuck with its reason (division by zero)', () => {
    expect(stuck('1 / 0')).toEqual(['Prim: binop_/: division by zero']);
  });

  it('RecordNil / RecordCons: fields left to right at pc, result pc:{…} (duplicates kept)', () => {
    expect(value('{}', { pc: U })).toBe('["U"]:{}');
    expect(value('{a: 1, a: ["S"]:2}', { pc: U })).toBe('["U"]:{a: ["U"]:1, a: ["U","S"]:2}');
    // left to right: the second field sees the first field's send
    expect(one('{a: send "1", b: send "2"}')[1]).toBe('[]:["1","2"]');
  });

  it('ArrayNil / ArrayCons: elements left to right at pc, result pc:[…]', () => {
    expect(value('[]', { pc: S })).toBe('["S"]:[]');
    expect(value('[1, ["U"]:2]')).toBe('[]:[[]:1, ["U"]:2]');
  });

  it('FieldAccess: l1:V\' — the record\'s label joins the field\'s; the first field named s wins', () => {
    // shape's result is S:{type: ⊥:"string", …}: without the join the field would come out ⊥
    expect(value('shape(["S"]:"ab").type')).toBe('["S"]:"string"');
    expect(value('{a: 1, a: 2}.a')).toBe('[]:1');
  });

  it('FieldAccess: no such field, or not a record, is stuck', () => {
    const [reason] = stuck('{a: 1}.b');
    expect(reason).toMatch(/^FieldAccess: no field b\b/);
    expect(stuck('1.a').map((r) => r.split(':')[0])).toEqual(['FieldAccess']);
  });

  it('ArrayIndex: (l1 ⊔ l2):V[i] — joins the array\'s and the index\'s labels', () => {
    expect(value('[10, 20].[["S"]:1]')).toBe('["S"]:20');
    expect(value('(["U"]:[10, 20]).[0]')).toBe('["U"]:10');
    expect(value('[["U"]:10, 20].[["S"]:0]')).toBe('["U","S"]:10');
  });

  it('ArrayIndex: out of bounds, a non-integer index or a non-array is stuck', () => {
    for (const src of ['[1].[1]', '[1].[-1]', '[1, 2].[1/2]', '"ab".[0]']) {
      expect(stuck(src).map((r) => r.split(':')[0]), src).toEqual(['ArrayIndex']);
    }
  });
});

describe('fuel and the missing-mass report (spec §5)', () => {
  it('fuel is derivation depth: every rule\'s premises get k - 1, at 0 the branch is out of fuel', () => {
    // 1: ScalarLit, depth 1
    expect(value('1', { fuel: 1 })).toBe('[]:1');
    expect(stuck('1', { fuel: 0 })).toEqual(['out of fuel']);
    // (\x. x) 1: App (1) over Lam (1), ScalarLit (1) and the body x[x:=⊥:1] = Labelled (1) over ScalarLit (1): depth 3
    expect(value('(\\x. x) 1', { fuel: 3 })).toBe('[]:1');
    expect(stuck('(\\x. x) 1', { fuel: 2 })).toEqual(['out of fuel']);
  });

  it('missing mass is split by reason, and mass + missing = 1 for an IsDist model', () => {
    const res = run('if (@"q").[1] == 1 then 1 / 0 else 7', { model: coinModel(Q.rat(3, 10)) });
    expect(entries(res.finals).map(([f, w]) => [render(lat, f.value), Q.show(w)])).toEqual([['[]:7', '7/10']]);
    expect(res.missing.map((m) => [m.failure, Q.show(m.weight)])).toEqual([[{ kind: 'stuck', rule: 'Prim', reason: 'binop_/: division by zero' }, '3/10']]);
    expect(Q.show(res.modelDeficit)).toBe('0');
  });

  it('mass withheld by a sub-distribution model is reported as the model deficit, not as stuck', () => {
    const half = tableModel('half.json', JSON.stringify({ default: { '1': '1/2' } }));
    const res = run('recv', { model: half });
    expect(Q.show(res.mass)).toBe('1/2');
    expect(res.missing).toEqual([]);
    expect(Q.show(res.modelDeficit)).toBe('1/2');
  });

  it('memoisation changes nothing but the cost: same denotation with and without it', () => {
    const src = 'let f = \\u. (fork @"a").[1] in f {} + f {} + f {}';
    // The substitution evaluator with and without its memo table (v2, the default engine, may answer this
    // program by frontier runs, which trade memo hits for rule applications: docs/evaluator-v2.md).
    const a = run(src, { model: coinModel(Q.rat(1, 3)), engine: 'substitution' });
    const b = run(src, { model: coinModel(Q.rat(1, 3)), memoise: false });
    const c = run(src, { model: coinModel(Q.rat(1, 3)) });
    const rows = (e: Evaluation<USLabel>) => entries(e.finals).map(([f, w]) => [render(lat, f.value), Q.show(w)]);
    // sum of three independent 1/3-coins: binomial(3, 1/3) = 8/27, 12/27, 6/27, 1/27
    expect(rows(a)).toEqual([['[]:0', '8/27'], ['[]:1', '4/9'], ['[]:2', '2/9'], ['[]:3', '1/27']]);
    expect(rows(b)).toEqual(rows(a));
    expect(rows(c)).toEqual(rows(a));
    expect(a.memoHits).toBeGreaterThan(0);
    expect(b.memoHits).toBe(0);
  });
});
