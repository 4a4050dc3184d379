/**
 * The label decisions as data (src/semantics/decisions.ts) and the rule functions that read them
 * (rules.ts) agree: every label variable a decision point may mention is bound by the rule at that point
 * (and nothing else is), a decision that mentions a variable the reference does not use gives the label
 * the rule says, `withDecisions` replaces exactly the points named, and user variants are validated
 * against the same scopes. Expected labels are worked out by hand on powerset-us.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { constModel } from '../src/semantics/models/index.ts';
import type { Conversation } from '../src/semantics/config.ts';
import { REFERENCE } from '../src/semantics/rules.ts';
import {
  REFERENCE_DECISIONS, RULE_LABEL_VARS, pointLabelVars, showJoin, withDecisions,
  type DecidingRule, type DecisionChanges,
} from '../src/semantics/decisions.ts';
import { validateVariant } from '../src/variants/variant.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const { bottom: BOT, U } = US;
const model = constModel('0');

/** The single outcome `[value, conversation]` of a program under the reference with `changes` to its decisions. */
function one(src: string, changes: DecisionChanges, o: { pc?: USLabel; conv?: Conversation<USLabel> } = {}): [string, string] {
  const expr = closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));
  const semantics = { ...REFERENCE, name: 'decided', decisions: withDecisions(changes) };
  const res = evaluate(model, lat, o.pc ?? BOT, o.conv ?? { label: BOT, messages: [] }, expr, 100, { semantics });
  const es = entries(res.finals);
  expect(es, JSON.stringify(res.missing.map((m) => m.failure))).toHaveLength(1);
  expect(Q.show(es[0]![1])).toBe('1');
  const f = es[0]![0];
  return [render(lat, f.value), `${lat.show(f.conv.label)}:${JSON.stringify(f.conv.messages)}`];
}

/** A program whose evaluation uses each deciding rule. */
const USES: { readonly [K in DecidingRule]: string } = {
  Lam: '\\x. x',
  App: '(\\x. x) 1',
  Send: 'send 1',
  Recv: 'recv',
  Fork: 'fork 1',
  Clear: 'clear',
  Labelled: '["S"]:1',
  LabelFlow: 'let l = ["U"] in l:1',
  LabelTest: '["S"] ? 1',
  LabelAssert: 'assert ["U"] 1',
  Endorse: 'endorse [] 1',
  ScalarLit: '1',
  Prim: '1 + 2',
  RecordNil: '{}',
  RecordCons: '{a: 1}',
  ArrayNil: '[]',
  ArrayCons: '[1]',
  FieldAccess: '{a: 1}.a',
  ArrayIndex: '[1].[0]',
};

/** The join points (not the checks) of each rule. */
const joinPoints = (rule: DecidingRule): string[] =>
  Object.entries(REFERENCE_DECISIONS[rule] as Readonly<Record<string, unknown>>).filter(([, v]) => Array.isArray(v)).map(([k]) => k);

describe('each decision point sees exactly the label variables its rule binds there', () => {
  for (const rule of Object.keys(REFERENCE_DECISIONS) as DecidingRule[]) {
    for (const point of joinPoints(rule)) {
      // (the name computes nothing: a call here that throws would fail the file at collection, which
      // Stryker's vitest runner does not count as a failed test — docs/mutation.md, static mutants)
      it(`${rule}.${point}: the join may mention exactly pointLabelVars(${rule}, ${point})`, () => {
        const scope = pointLabelVars(rule, point);
        // A join over an unknown variable is an internal error that lists what IS in scope at that point.
        let message = '';
        try { one(USES[rule], { [rule]: { [point]: ['nope'] } }); } catch (e) { message = (e as Error).message; }
        const listed = /in scope: ([^)]*)\)/.exec(message)?.[1]?.split(', ') ?? [];
        expect([...listed].sort()).toEqual([...scope].sort());
        // …and a join over all of them evaluates.
        expect(() => one(USES[rule], { [rule]: { [point]: scope } })).not.toThrow();
      });
    }
  }

  it('pointLabelVars is the rule\'s variables except Endorse\'s `endorsed` at its body (bound after the body)', () => {
    expect(pointLabelVars('Endorse', 'body')).toEqual(['pc', 'n']);
    expect(pointLabelVars('Endorse', 'result')).toEqual(['pc', 'n', 'endorsed']);
    expect(pointLabelVars('LabelAssert', 'result')).toEqual(['pc', 'n', 'l', 'l2']);
    expect(pointLabelVars('Fork', 'conv')).toEqual(['pc', 'lc', "lc'"]);
  });
});

describe('decisions the reference does not make give the labels the rule names', () => {
  it("Fork.conv = lc': the conversation keeps the body's label (its messages are still restored)", () => {
    expect(one('fork (send (["S"]:"x"))', { Fork: { conv: ["lc'"] } }, { conv: { label: BOT, messages: ['a'] } })).toEqual(['[]:{}', '["S"]:["a"]']);
    expect(one('fork (send (["S"]:"x"))', { Fork: { conv: ['pc', 'lc'] } }, { pc: U, conv: { label: U, messages: [] } })).toEqual(['["U"]:{}', '["U"]:[]']);
  });
  it('LabelAssert.result = l2, l or n: the asserted value\'s label, the label, the label value\'s own label', () => {
    expect(one('assert ["U"] (["U"]:1)', { LabelAssert: { result: ['l2'] } })).toEqual(['["U"]:{}', '[]:[]']);
    expect(one('assert ["S"] 1', { LabelAssert: { result: ['l'] } })).toEqual(['["S"]:{}', '[]:[]']);
    expect(one('assert ["U","S"] 1', { LabelAssert: { result: ['n'] } }, { pc: U })).toEqual(['["U"]:{}', '[]:[]']);
  });
  it('Endorse.result = n: the label value\'s own label', () => {
    expect(one('let l = ["S"]:[] in endorse l 1', { Endorse: { result: ['n'] } })).toEqual(['["S"]:1', '[]:[]']);
  });
  it('App.body = pc, FieldAccess.result = pc, ArrayIndex.result = pc ⊔ l2', () => {
    expect(one('(["S"]:\\x. 0) 1', { App: { body: ['pc'] } })).toEqual(['[]:0', '[]:[]']);
    expect(one('(["S"]:{a: 1}).a', { FieldAccess: { result: ['pc'] } }, { pc: U })).toEqual(['["U","S"]:1', '[]:[]']);
    expect(one('[1].[["S"]:0]', { ArrayIndex: { result: ['l2'] } })).toEqual(['["S"]:1', '[]:[]']);
  });
  it('an empty join is ⊥', () => {
    expect(one('\\x. x', { Lam: { result: [] } }, { pc: U })).toEqual(['[]:λx', '[]:[]']);
  });
});

describe('withDecisions and showJoin', () => {
  it('withDecisions replaces exactly the points named and leaves the reference table alone', () => {
    const before = JSON.stringify(REFERENCE_DECISIONS);
    const d = withDecisions({ Send: { nsu: false }, Lam: { result: [] } });
    expect(d.Send).toEqual({ nsu: false, conv: ['lc', 'n'], result: ['pc'] });
    expect(d.Lam).toEqual({ result: [] });
    for (const rule of Object.keys(REFERENCE_DECISIONS) as DecidingRule[]) {
      if (rule !== 'Send' && rule !== 'Lam') expect(d[rule]).toEqual(REFERENCE_DECISIONS[rule]);
    }
    expect(JSON.stringify(REFERENCE_DECISIONS)).toBe(before);
    expect(withDecisions({})).toEqual(REFERENCE_DECISIONS);
  });
  it('showJoin writes a join as the paper does', () => {
    expect(showJoin([])).toBe('⊥');
    expect(showJoin(['pc'])).toBe('pc');
    expect(showJoin(['pc', 'n', 'l'])).toBe('pc ⊔ n ⊔ l');
  });
  it('every rule with decisions has its label variables listed, pc among them', () => {
    expect(Object.keys(RULE_LABEL_VARS).sort()).toEqual(Object.keys(REFERENCE_DECISIONS).sort());
    for (const vars of Object.values(RULE_LABEL_VARS)) expect(vars).toContain('pc');
  });
});

describe('a user variant\'s decisions are validated against the same scopes', () => {
  const check = (decisions: unknown) => () => validateVariant('v.ts', { name: 'v', description: 'd', rules: {}, decisions });
  it('accepts a join over in-scope variables, and a boolean for a check', () => {
    expect(check({ Endorse: { body: ['pc', 'n'], result: ['endorsed'] }, Send: { nsu: false } })).not.toThrow();
  });
  it("rejects Endorse.body mentioning `endorsed` (not bound before the body runs) — it used to crash the run", () => {
    expect(check({ Endorse: { body: ['endorsed'] } })).toThrow('v.ts: decisions.Endorse.body must be an array of label variables among pc, n');
  });
  it('rejects unknown variables, unknown points and non-booleans for checks', () => {
    expect(check({ Lam: { result: ['l1'] } })).toThrow('decisions.Lam.result must be an array of label variables among pc');
    expect(check({ Send: { nsu: ['pc'] } })).toThrow('decisions.Send.nsu must be true or false');
    expect(check({ Send: { nope: [] } })).toThrow('unknown point "nope"');
  });
});
