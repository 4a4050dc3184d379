/**
 * The model M of spec §4: the built-in models (`coin:P`, `echo`, `const:R`, `table:FILE.json`,
 * `random:SEED`) and their command-line names, the standard `parse` (`[true, e]` / `[false, "parse
 * error: …"]`), `serialise`, the primitive table `primEval` (exact arithmetic), the prelude, and the
 * serialisable generated models (`ModelSpec`).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import type { PlainValue } from '../src/syntax/ast.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude, PARSE_CACHE_LIMIT, parsedResponse, parseResponse } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import type { PModel, ResponseDist } from '../src/semantics/model.ts';
import { coinModel, constModel, echoModel, randomModel, resolveModel, tableModel } from '../src/semantics/models/index.ts';
import { serialise } from '../src/semantics/serialise.ts';
import { STANDARD_PRIMS } from '../src/semantics/prims.ts';
import { UserError } from '../src/util/absurd.ts';
import { isDeterministicSpec, isDistSpec, modelOf, modelSpecArb } from '../src/generators/models.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;

/** A response distribution as `{response: "p/q"}`. */
const dist = (d: ResponseDist): Record<string, string> => Object.fromEntries(d.map(([r, w]) => [r, Q.show(w)]));
const total = (d: ResponseDist): Q.Rational => d.reduce((a, [, w]) => Q.add(a, w), Q.ZERO);


/** The value of a deterministic program under `model`. */
function value(src: string, model: PModel = constModel('0')): string {
  const expr = closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
  const res = evaluate(model, lat, US.bottom, { label: US.bottom, messages: [] }, expr, 500);
  const es = entries(res.finals);
  expect(es, JSON.stringify(res.missing.map((m) => m.failure))).toHaveLength(1);
  return render(lat, es[0]![0].value);
}

describe('built-in models', () => {
  it('coin:P answers "1" with probability P and "0" otherwise, whatever the conversation', () => {
    const m = resolveModel('coin:3/10');
    for (const c of [[], ['a'], ['x', 'y', 'z']]) expect(dist(m.weight(c))).toEqual({ '1': '3/10', '0': '7/10' });
    expect(resolveModel('coin:0.25').weight([])).toEqual(coinModel(Q.rat(1, 4)).weight([]));
    expect(coinModel(Q.ONE).deterministic).toBe(true);
    expect(coinModel(Q.rat(1, 2)).deterministic).toBe(false);
  });

  it('echo answers with the last message (the prompt-injection channel)', () => {
    const m = resolveModel('echo');
    expect(dist(m.weight(['a', 'send "leak"']))).toEqual({ 'send "leak"': '1' });
    expect(dist(m.weight([]))).toEqual({ '': '1' });
    // the echoed message is run as code: a prompt that is code comes back and executes
    expect(value('(@"[1, 2]").[1].[1]', echoModel())).toBe('[]:2');
  });

  it('const:R always answers R', () => {
    expect(dist(resolveModel('const:hello').weight(['x']))).toEqual({ hello: '1' });
  });

  it('table:FILE.json: the first rule whose suffix patterns (exact or /regex/) match wins, else the default', () => {
    const m = tableModel('t.json', JSON.stringify({
      rules: [
        { suffix: ['flip'], responses: { '1': '3/10', '0': '7/10' } },
        { suffix: ['/^ask .*/', 'now'], responses: { '"yes"': '1' } },
        { suffix: ['/^ask/'], responses: { '"no"': '1/2' } },
      ],
      default: { '"?"': '1' },
    }));
    expect(dist(m.weight(['hello', 'flip']))).toEqual({ '1': '3/10', '0': '7/10' });
    expect(dist(m.weight(['ask me', 'now']))).toEqual({ '"yes"': '1' });
    expect(dist(m.weight(['ask me']))).toEqual({ '"no"': '1/2' });
    expect(dist(m.weight(['flip', 'other']))).toEqual({ '"?"': '1' });
  });

  it('table:FILE.json rejects bad tables with a UserError naming the problem', () => {
    const bad = (o: unknown): (() => PModel) => () => tableModel('bad.json', JSON.stringify(o));
    expect(bad({ default: { a: '2/3', b: '2/3' } })).toThrow(/sum to 4\/3 > 1/);
    expect(bad({ default: { a: 0.3 } })).toThrow(UserError);
    expect(bad({ rules: [{ suffix: 'x', responses: {} }] })).toThrow(/suffix must be an array/);
    expect(bad({ rulez: [] })).toThrow(/unknown key/);
    expect(() => tableModel('bad.json', '{not json')).toThrow(UserError);
  });

  it('random:SEED draws 1–3 responses with exact weights summing to 1, a function of the conversation', () => {
    const m = resolveModel('random:5');
    const convs = [[], ['a'], ['b'], ['a', 'b'], ['q', '1'], ['x', 'y', 'z']];
    for (const c of convs) {
      const d = m.weight(c);
      expect(d.length).toBeGreaterThanOrEqual(1);
      expect(d.length).toBeLessThanOrEqual(3);
      expect(Q.show(total(d))).toBe('1');
      for (const [, w] of d) expect(Q.lt(Q.ZERO, w)).toBe(true);
      expect(m.weight(c)).toEqual(d);
    }
    expect(new Set(convs.map((c) => JSON.stringify(dist(m.weight(c))))).size).toBeGreaterThan(1);
    expect(new Set([1, 2, 3, 4].map((s) => JSON.stringify(dist(randomModel(s).weight(['a'])))) ).size).toBeGreaterThan(1);
  });

  it('unknown or malformed model names are a UserError listing the choices', () => {
    expect(() => resolveModel('gpt')).toThrow(/coin:P, echo, const:TEXT, table:FILE.json or random:SEED/);
    expect(() => resolveModel('coin:abc')).toThrow(UserError);
    expect(() => resolveModel('coin:3/2')).toThrow(/0 ≤ P ≤ 1/);
    expect(() => resolveModel('random:x')).toThrow(UserError);
  });
});

describe('the standard parse(r): [true, e] or [false, "parse error: …"]', () => {
  const prelude = loadPrelude(lat);
  /** What `recv` returns when the model answers r. */
  const parsed = (r: string): string => value('recv', constModel(r));

  it('a response that parses is [true, e], with e evaluated', () => {
    expect(parsed('1')).toBe('[]:[[]:true, []:1]');
    expect(parsed('{a: [1, 2]}')).toBe('[]:[[]:true, []:{a: []:[[]:1, []:2]}]');
  });

  it('a response that does not parse, or has free variables outside the prelude, is [false, "parse error: …"]', () => {
    for (const r of ['not (valid', '', ')', 'foo']) {
      const e = parseResponse(r, lat, prelude);
      expect(e.kind).toBe('array');
      if (e.kind !== 'array') continue;
      expect(e.elems[0]).toEqual({ kind: 'bool', value: false });
      expect(e.elems[1]!.kind === 'str' && e.elems[1]!.value).toMatch(/^parse error: /);
    }
  });

  it('prelude names in a response are substituted (the response is closed)', () => {
    expect(parsed('is_trusted (["S"]:1)')).toBe('[]:[[]:true, ["S"]:true]');
  });

  it('parsedResponse is parseResponse shared per (lattice, prelude): one expression per response text', () => {
    for (const r of ['1 + 2', 'is_trusted (["S"]:1)', 'not (valid']) {
      const shared = parsedResponse(r, lat, prelude);
      expect(parsedResponse(r, lat, prelude)).toBe(shared);
      expect(shared).toEqual(parseResponse(r, lat, prelude));
      // Another prelude (another model's), another entry.
      const other = loadPrelude(lat, 'let one = 1');
      expect(parsedResponse(r, lat, other)).not.toBe(shared);
    }
  });

  it('the shared parses are bounded: PARSE_CACHE_LIMIT distinct responses are kept, one more empties the table', () => {
    const own = loadPrelude(lat, 'let parse_cache_bound_test = 1'); // a prelude no other test uses
    const first = parsedResponse('0', lat, own);
    for (let i = 1; i < PARSE_CACHE_LIMIT; i++) parsedResponse(String(i), lat, own);
    expect(parsedResponse('0', lat, own)).toBe(first);
    parsedResponse(String(PARSE_CACHE_LIMIT), lat, own);
    const again = parsedResponse('0', lat, own);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('serialise(v)', () => {
  const s = (v: PlainValue): string => serialise(v);
  const n = (a: number, b = 1): PlainValue => ({ kind: 'num', value: Q.rat(a, b) });
  it('a string\'s raw contents; numbers as integers, finite decimals or p/q', () => {
    expect(s({ kind: 'str', value: 'he said "hi"' })).toBe('he said "hi"');
    expect(s(n(42))).toBe('42');
    expect(s(n(1, 4))).toBe('0.25');
    expect(s(n(-1, 8))).toBe('-0.125');
    expect(s(n(1, 3))).toBe('1/3');
    expect(s({ kind: 'bool', value: false })).toBe('false');
    expect(s({ kind: 'null' })).toBe('null');
  });
  it('strings inside structures are double-quoted, and the text parses back to the same data', () => {
    const v: PlainValue = { kind: 'array', elems: [{ kind: 'str', value: 'a' }, n(1, 4), { kind: 'record', fields: [{ name: 'k', expr: { kind: 'str', value: 'v' } }] }] };
    const text = s(v);
    expect(text).toContain('"a"');
    expect(text).toContain('"v"');
    expect(value(text)).toBe('[]:[[]:"a", []:1/4, []:{k: []:"v"}]');
  });
});

describe('primEval: the primitive table of spec §4 (exact rationals)', () => {
  it('arithmetic is exact: 1/10 + 2/10 == 3/10', () => {
    expect(value('1/10 + 2/10 == 3/10')).toBe('[]:true');
    expect(value('7 / 2')).toBe('[]:7/2');
    expect(value('7 % 3')).toBe('[]:1');
    expect(value('2 - 5')).toBe('[]:-3');
  });
  it('binop_+ adds numbers, concatenates strings and arrays', () => {
    expect(value('"ab" + "c"')).toBe('[]:"abc"');
    expect(value('[1] + [2]')).toBe('[]:[[]:1, []:2]');
  });
  it('comparisons on numbers; == on scalars of the same kind only', () => {
    expect(value('[1 < 2, 2 <= 2, 3 > 4, 4 >= 5]')).toBe('[]:[[]:true, []:true, []:false, []:false]');
    expect(value('"a" == "a"')).toBe('[]:true');
    const fails = (a: PlainValue, b: PlainValue, p = 'binop_=='): boolean => !STANDARD_PRIMS[p]!({ kind: 'array', elems: [a, b] }).ok;
    expect(fails({ kind: 'num', value: Q.ONE }, { kind: 'str', value: '1' })).toBe(true);
    expect(fails({ kind: 'str', value: 'a' }, { kind: 'num', value: Q.ONE }, 'binop_<')).toBe(true);
    expect(fails({ kind: 'num', value: Q.ONE }, { kind: 'num', value: Q.ZERO }, 'binop_/')).toBe(true);
    expect(fails({ kind: 'bool', value: true }, { kind: 'num', value: Q.ONE }, 'binop_+')).toBe(true);
  });
  it('fromBool: only the literal false takes the else branch', () => {
    expect(value('[if false then 1 else 2, if true then 1 else 2, if 0 then 1 else 2, if null then 1 else 2]')).toBe('[]:[[]:2, []:1, []:1, []:1]');
  });
  it('shape describes the outer shape; toStr serialises; recordUpdate replaces or appends a field', () => {
    expect(value('shape(1)')).toBe('[]:{type: []:"number"}');
    expect(value('shape("abc")')).toBe('[]:{type: []:"string", length: []:3}');
    expect(value('shape([1, 2])')).toBe('[]:{type: []:"array", length: []:2}');
    expect(value('shape({a: 1, b: 2})')).toBe('[]:{type: []:"record", fields: []:[[]:"a", []:"b"]}');
    expect(value('shape(\\x. x)')).toBe('[]:{type: []:"function"}');
    expect(value('str(1/4)')).toBe('[]:"0.25"');
    expect(value('{a: 1, b: 2}.a := 3')).toBe('[]:{a: []:3, b: []:2}');
    expect(value('{a: 1}.c := 3')).toBe('[]:{a: []:1, c: []:3}');
  });
});

describe('the prelude (spec §4)', () => {
  it('fix, is_fn, is_array, any, is_trusted, is_public behave as specified', () => {
    expect(value('fix (\\f. \\n. if n == 0 then 1 else n * f (n - 1)) 5')).toBe('[]:120');
    expect(value('[is_fn (\\x. x), is_fn 1, is_array [1], is_array {}]')).toBe('[]:[[]:true, []:false, []:true, []:false]');
    expect(value('[any (\\x. x == 2) [1, 2, 3], any (\\x. x == 5) [1, 2, 3]]')).toBe('[]:[[]:true, []:false]');
    expect(value('is_trusted (["U"]:1)')).toBe('["S"]:false');
    expect(value('is_public (["U"]:1)')).toBe('["U"]:true');
  });
});

describe('generated models (ModelSpec)', () => {
  it('IsDist specs sum to exactly 1 for every conversation; sub specs to at most 1; deterministic specs are point masses', () => {
    const convs = [[], ['a'], ['hello', 'secret'], ['1', '0', 'x']];
    fc.assert(fc.property(modelSpecArb(), (spec) => {
      const m = modelOf(spec);
      return isDistSpec(spec) && convs.every((c) => Q.eq(total(m.weight(c)), Q.ONE));
    }), { numRuns: 200, seed: 1 });
    fc.assert(fc.property(modelSpecArb({ sub: true }), (spec) => {
      const m = modelOf(spec);
      return convs.every((c) => Q.le(total(m.weight(c)), Q.ONE));
    }), { numRuns: 200, seed: 1 });
    fc.assert(fc.property(modelSpecArb({ deterministic: true }), (spec) => {
      const m = modelOf(spec);
      return isDeterministicSpec(spec) && convs.every((c) => m.weight(c).length <= 1);
    }), { numRuns: 200, seed: 1 });
  });

  it('some generated sub-distribution models really withhold mass (the sub option is not vacuous)', () => {
    const specs = fc.sample(modelSpecArb({ sub: true }), { numRuns: 100, seed: 2 });
    expect(specs.filter((s) => !isDistSpec(s)).length).toBeGreaterThan(10);
  });
});
