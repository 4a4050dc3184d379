/**
 * The standard primitive table `primEval` (spec §4), primitive by primitive, with every answer and every
 * stuck reason written from the spec by hand (the reasons are observable: they are the stuck mass's key).
 * Results are shown in surface syntax (`showPlain`, the serialise printer) so each expectation reads
 * like the spec.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import type { PlainValue } from '../src/syntax/ast.ts';
import { STANDARD_PRIMS, codePointLength, shapeOf } from '../src/semantics/prims.ts';
import { showPlain } from '../src/semantics/serialise.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { constModel } from '../src/semantics/models/index.ts';

const n = (p: number, q = 1): PlainValue => ({ kind: 'num', value: Q.rat(p, q) });
const s = (value: string): PlainValue => ({ kind: 'str', value });
const b = (value: boolean): PlainValue => ({ kind: 'bool', value });
const NULL: PlainValue = { kind: 'null' };
const arr = (...elems: PlainValue[]): PlainValue => ({ kind: 'array', elems });
const rec = (...fields: [string, PlainValue][]): PlainValue => ({ kind: 'record', fields: fields.map(([name, expr]) => ({ name, expr })) });
const ID: PlainValue = { kind: 'lam', param: 'x', body: { kind: 'var', name: 'x' } };

/** `prim p v` as surface text, or `stuck: reason`. */
function call(p: string, v: PlainValue): string {
  const f = STANDARD_PRIMS[p];
  if (!f) throw new Error(`no primitive ${p}`);
  const r = f(v);
  return r.ok ? showPlain(r.value) : `stuck: ${r.reason}`;
}

describe('arithmetic: exact rationals', () => {
  it('+ adds numbers, concatenates strings and arrays', () => {
    expect(call('binop_+', arr(n(1, 2), n(1, 3)))).toBe('5/6');
    expect(call('binop_+', arr(s('ab'), s('c')))).toBe('"abc"');
    expect(call('binop_+', arr(arr(n(1)), arr(n(2), n(3))))).toBe('[1, 2, 3]');
  });
  it('+ on mixed kinds is stuck, naming both operands', () => {
    expect(call('binop_+', arr(n(1), s('a')))).toBe('stuck: binop_+ expects two numbers, strings or arrays, got 1 and "a"');
    expect(call('binop_+', arr(s('a'), n(1)))).toBe('stuck: binop_+ expects two numbers, strings or arrays, got "a" and 1');
    expect(call('binop_+', arr(arr(), s('a')))).toBe('stuck: binop_+ expects two numbers, strings or arrays, got [] and "a"');
    expect(call('binop_+', arr(NULL, NULL))).toBe('stuck: binop_+ expects two numbers, strings or arrays, got null and null');
  });
  it('an operator needs a two-element array', () => {
    expect(call('binop_+', n(1))).toBe('stuck: binop_+ expects a two-element array, got 1');
    expect(call('binop_+', arr(n(1)))).toBe('stuck: binop_+ expects a two-element array, got [1]');
    expect(call('binop_-', arr(n(1), n(2), n(3)))).toBe('stuck: binop_- expects a two-element array, got [1, 2, 3]');
    expect(call('binop_<', rec())).toBe('stuck: binop_< expects a two-element array, got {}');
    expect(call('binop_==', arr())).toBe('stuck: binop_== expects a two-element array, got []');
  });
  it('- * / exact; / and % by zero are stuck', () => {
    expect(call('binop_-', arr(n(1), n(3)))).toBe('-2');
    expect(call('binop_*', arr(n(2, 3), n(3, 4)))).toBe('0.5');
    expect(call('binop_/', arr(n(1), n(3)))).toBe('1/3');
    expect(call('binop_/', arr(n(1), n(0)))).toBe('stuck: binop_/: division by zero');
    expect(call('binop_%', arr(n(1), n(0)))).toBe('stuck: binop_%: modulo by zero');
  });
  it('% takes the sign of the dividend', () => {
    expect(call('binop_%', arr(n(7), n(3)))).toBe('1');
    expect(call('binop_%', arr(n(-7), n(3)))).toBe('-1');
    expect(call('binop_%', arr(n(7), n(-3)))).toBe('1');
  });
  it('arithmetic on a non-number is stuck, naming both operands', () => {
    expect(call('binop_-', arr(s('a'), n(1)))).toBe('stuck: binop_- expects numbers, got "a" and 1');
    expect(call('binop_*', arr(n(1), b(true)))).toBe('stuck: binop_* expects numbers, got 1 and true');
  });
});

describe('comparisons', () => {
  const cases: [string, boolean, boolean, boolean][] = [
    // op, 1 op 2, 2 op 2, 3 op 2
    ['binop_<', true, false, false],
    ['binop_>', false, false, true],
    ['binop_<=', true, true, false],
    ['binop_>=', false, true, true],
  ];
  it.each(cases)('%s on 1, 2, 3 against 2', (op, lt, eq, gt) => {
    expect(call(op, arr(n(1), n(2)))).toBe(String(lt));
    expect(call(op, arr(n(2), n(2)))).toBe(String(eq));
    expect(call(op, arr(n(3), n(2)))).toBe(String(gt));
  });
  it('comparing exact fractions: 1/3 < 1/2', () => {
    expect(call('binop_<', arr(n(1, 3), n(1, 2)))).toBe('true');
  });
  it('comparing non-numbers is stuck', () => {
    expect(call('binop_<', arr(s('a'), s('b')))).toBe('stuck: binop_< expects numbers, got "a" and "b"');
  });
});

describe('== on scalars of the same kind', () => {
  it('numbers exactly, strings, booleans, null', () => {
    expect(call('binop_==', arr(n(1, 2), n(2, 4)))).toBe('true');
    expect(call('binop_==', arr(n(1), n(2)))).toBe('false');
    expect(call('binop_==', arr(s('a'), s('a')))).toBe('true');
    expect(call('binop_==', arr(s('a'), s('b')))).toBe('false');
    expect(call('binop_==', arr(b(false), b(false)))).toBe('true');
    expect(call('binop_==', arr(b(true), b(false)))).toBe('false');
    expect(call('binop_==', arr(NULL, NULL))).toBe('true');
  });
  it('different kinds, or non-scalars, are stuck', () => {
    expect(call('binop_==', arr(n(1), s('1')))).toBe('stuck: binop_== compares scalars of the same kind, got 1 and "1"');
    expect(call('binop_==', arr(arr(), arr()))).toBe('stuck: binop_== compares scalars, got []');
    expect(call('binop_==', arr(rec(), rec()))).toBe('stuck: binop_== compares scalars, got {}');
  });
});

describe('fromBool, toStr', () => {
  it('fromBool gives the Church booleans: false picks f, anything else picks t', () => {
    expect(call('fromBool', b(false))).toBe('\\t. \\f. \\u. f u');
    expect(call('fromBool', b(true))).toBe('\\t. \\f. \\u. t u');
    expect(call('fromBool', NULL)).toBe('\\t. \\f. \\u. t u');
  });
  it('toStr serialises: a string raw, anything else in surface syntax', () => {
    expect(call('toStr', s('a"b'))).toBe('"a\\"b"');
    expect(call('toStr', n(1, 4))).toBe('"0.25"');
    expect(call('toStr', arr(s('x')))).toBe('"[\\"x\\"]"');
  });
});

describe('shape', () => {
  it('describes the outer shape of every kind of value', () => {
    expect(call('shape', n(3))).toBe('{type: "number"}');
    expect(call('shape', s('ab'))).toBe('{type: "string", length: 2}');
    expect(call('shape', b(true))).toBe('{type: "boolean"}');
    expect(call('shape', NULL)).toBe('{type: "null"}');
    expect(call('shape', ID)).toBe('{type: "function"}');
    expect(call('shape', arr(n(1), arr()))).toBe('{type: "array", length: 2}');
    expect(call('shape', rec(['a', n(1)], ['b c', NULL]))).toBe('{type: "record", fields: ["a", "b c"]}');
    expect(showPlain(shapeOf(s('')))).toBe('{type: "string", length: 0}');
  });
  it('a value of no known kind is an internal error, never a silent answer', () => {
    expect(() => shapeOf({ kind: 'weird' } as unknown as PlainValue)).toThrow('internal error: unhandled case {"kind":"weird"}');
  });
  it('a string\'s length counts code points: astral once, lone surrogates once each', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('\u{1F600}')).toBe(1);
    expect(codePointLength('a\u{1F600}b')).toBe(3);
    expect(codePointLength('\u{1F600}\u{1F600}')).toBe(2);
    expect(codePointLength('\ud83d')).toBe(1); // a high surrogate at the end
    expect(codePointLength('\ude00')).toBe(1); // a lone low surrogate
    expect(codePointLength('\ud83dx')).toBe(2); // a high surrogate before a non-surrogate
    expect(codePointLength('\ud83d\ud83d')).toBe(2); // two high surrogates
    expect(codePointLength('\udbff\udc00')).toBe(1); // the last high with the first low: U+10FC00
    expect(codePointLength('\ud800\udfff')).toBe(1); // the first high with the last low: U+103FF
    expect(codePointLength('\ud7ff\udc00')).toBe(2); // below the high range: two units
    expect(codePointLength('\udc00\udc00')).toBe(2); // a low surrogate does not start a pair
    expect(codePointLength('\ud800\udbff')).toBe(2); // high then high: two
    expect(codePointLength('\ud800\ue000')).toBe(2); // high then above the low range: two
    expect(call('shape', s('\u{1F600}'))).toBe('{type: "string", length: 1}');
  });
});

describe('recordUpdate [r, "s", x]', () => {
  it('replaces the first field named s in place, or appends a new one', () => {
    expect(call('recordUpdate', arr(rec(['a', n(1)], ['b', n(2)]), s('a'), n(9)))).toBe('{a: 9, b: 2}');
    expect(call('recordUpdate', arr(rec(['a', n(1)], ['a', n(2)]), s('a'), n(9)))).toBe('{a: 9, a: 2}');
    expect(call('recordUpdate', arr(rec(['a', n(1)]), s('b'), n(9)))).toBe('{a: 1, b: 9}');
    expect(call('recordUpdate', arr(rec(), s('b'), NULL))).toBe('{b: null}');
  });
  it('anything else is stuck', () => {
    const bad = (v: PlainValue) => `stuck: recordUpdate expects [record, "field", value], got ${showPlain(v)}`;
    for (const v of [rec(), arr(rec(), s('a')), arr(rec(), s('a'), n(1), n(2)), arr(arr(), s('a'), n(1)), arr(rec(), n(1), n(1))]) {
      expect(call('recordUpdate', v)).toBe(bad(v));
    }
    expect(call('recordUpdate', rec())).toBe('stuck: recordUpdate expects [record, "field", value], got {}');
  });
});

describe('the Prim rule calls the table by name (ev.primEval)', () => {
  const model = constModel('0');
  const stuckReasons = (src: string): string[] => {
    const expr = closeProgram(parse(src, powersetUS, { file: 'test' }), loadPrelude(powersetUS, model.preludeSource));
    const res = evaluate(model, powersetUS, US.bottom, { label: US.bottom, messages: [] }, expr, 50);
    expect(res.finals.size).toBe(0);
    return res.missing.map((m) => (m.failure.kind === 'stuck' ? `${m.failure.rule}: ${m.failure.reason}` : m.failure.kind));
  };
  it('an unknown primitive is stuck, naming it', () => {
    expect(stuckReasons('prim "nope" 1')).toEqual(['Prim: unknown primitive "nope"']);
  });
  it("a primitive's own failure is the stuck reason", () => {
    expect(stuckReasons('prim "binop_-" [1]')).toEqual(['Prim: binop_- expects a two-element array, got [1]']);
  });
});
