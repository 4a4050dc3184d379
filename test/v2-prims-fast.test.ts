/**
 * Evaluator v2's primitives on values (src/semantics/v2/prims-fast.ts, issue 12): the standard binops and
 * `fromBool` computed without building label-free arguments, integers without gcd, a binop over a literal
 * pair without building the array, variable reads at pc ⊥ without joins. Every answer is compared with
 * the substitution evaluator (the executable spec), at every fuel from 1 up to enough and at several pcs,
 * so out-of-fuel mass at each premise boundary and every label join are checked, not only final values.
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import type { USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, standardModel } from '../src/semantics/models/index.ts';
import { STANDARD_PRIMS } from '../src/semantics/prims.ts';
import { failureKey, showConversation } from '../src/semantics/config.ts';
import { render } from './helpers/render.ts';
import { print } from '../src/syntax/printer.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };

type Engine = 'substitution' | 'v2' | 'v2-general';

function table(model: PModel, src: string, pc: USLabel, fuel: number, engine: Engine): string[] {
  const e = closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
  const r = engine === 'substitution'
    ? evaluate(model, lat, pc, start, e, fuel, { engine: 'substitution' })
    : evaluateV2(model, lat, pc, start, e, fuel, { direct: engine === 'v2' });
  return [
    ...entries(r.finals).map(([f, w]) => `${print(f.value, lat)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`).sort(),
    ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`).sort(),
  ];
}

/** v2 (fast path on and off) = substitution for `src` at every fuel 1…`upTo` and at pc ⊥, U, S. */
function sameAsSpec(model: PModel, src: string, upTo: number): void {
  for (const pc of [US.bottom, US.U, US.S] as const) {
    for (let fuel = 1; fuel <= upTo; fuel++) {
      const spec = table(model, src, pc, fuel, 'substitution');
      expect(table(model, src, pc, fuel, 'v2'), `${src} at pc ${lat.show(pc)}, fuel ${fuel}`).toEqual(spec);
      expect(table(model, src, pc, fuel, 'v2-general'), `${src} at pc ${lat.show(pc)}, fuel ${fuel} (general machine)`).toEqual(spec);
    }
  }
}

describe('v2 primitives on values = the substitution semantics', () => {
  it.each([
    // labelled operands, in literals, through variables and under a labelled pc
    '["S"]:3 + 4', '3 - ["U"]:4', '["U"]:(2 * ["S"]:5)', 'let x = ["S"]:5 in let y = ["U"]:1 in x - y',
    'let x = ["S"]:5 in ["U"]:(x == 5)', '["U","S"]:1 < 2', 'let f = \\x. x + 1 in f (["S"]:41)',
    // big integers (beyond 2^53) stay exact
    '9007199254740993 * 9007199254740993', '9007199254740993 + 1 - 9007199254740994', '-9007199254740993 * 3 < 0',
    // division and modulo (spec §4: `%` has the sign of the dividend), by zero stuck in the table's words
    '7 % 3', '-7 % 3', '7 % -3', '-7 % -3', '0 % 5', '7 % 0', '7 / 0', '6 / 4', '-6 / 4', '7/2 % 1/3', '-7/2 % 1/3', '7/2 % 0',
    // comparisons of rationals and integers, equality of every scalar kind
    '1/3 < 1/2', '2/4 == 1/2', '-1/3 >= -1/2', '1 <= 3/2', '3/2 > 1', '2 >= 2', '1/3 == 1/3', '-5 == 5',
    '"a" == "a"', 'true == false', 'null == null', '"a" + "b"', '["S"]:"a" + "b"',
    // not fast: the generic path with its own wording
    '"a" + 1', '1 == "1"', '(\\x. x) == 1', '[1] + [2, 3]', '{a: 1} == {a: 1}', '1 < "b"', 'true + 1',
    // fromBool on every kind of value (anything but false is true), labelled conditions
    'if 0 then 1 else 2', 'if null then 1 else 2', 'if false then 1 else 2', 'if ["S"]:false then 1 else 2',
    'if ["U"]:true then 1 else 2', 'if (\\x. ["S"]:x) then 1 else 2', 'if {a: ["S"]:1} then 1 else 2',
    // binops over a pair that is not quick (one frame for Prim and ArrayCons on the fast path): failures,
    // out of fuel at each premise, a branching element (the fast path gives up)
    '(\\x. x) 1 + 2', '1 + (\\x. ["S"]:x) 2', '(1 2) + 3', '1 + (2 3)', '(\\x. x) "a" == (\\x. x) 1',
    '(fork @"q").[1] + ["S"]:1', '["U"]:((fork @"q").[1] < (\\x. x) 1)',
    // str (prim toStr) of every scalar kind, labelled, and of non-scalars (the generic path)
    'str(1/3)', 'str(-2)', 'str(["S"]:"a\\"b")', 'str(true)', 'str(null)', '["U"]:str(["S"]:7)', 'str([1, 2])', 'str({a: ["S"]:1})', 'str(\\x. x)',
    // a variable holding a record read at a non-⊥ pc raises the nested labels (not the pc-⊥ shortcut)
    'let r = {a: ["S"]:1} in ["U"]:(r.a + 1)',
  ])('%s', (src) => {
    sameAsSpec(coin, src, 14);
  });

  it('deterministic loops over big integers and labelled accumulators (fast path, exact past 2^53)', () => {
    sameAsSpec(coin, 'let p = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc * 3)) in p 6 1', 140);
    const e = closeProgram(parse('let p = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc * 3)) in p 60 ["S"]:1', lat), loadPrelude(lat));
    const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000);
    expect(entries(r.finals).map(([f]) => render(lat, f.value))).toEqual([`["S"]:${3n ** 60n}`]);
    expect(r.directRuns).toBe(1);
    sameAsSpec(coin, 'let s = fix (\\f. \\n. if n <= 0 then ["U"]:0 else n % 4 + f (n - 1)) in s 5', 160);
  });

  it('a computed number (body: its rational itself) leaves v2 as the spec\'s plain literal, at the top and nested', () => {
    // v2 keeps a computed number's rational as the value's body (a rational is its own `NumE`, rational.ts);
    // `readback` must give the substitution evaluator's values field by field, not a rational where a literal was.
    const r = Q.rat(3, 4);
    expect([r.kind, r.value === r, Object.keys(r).includes('kind')]).toEqual(['num', true, false]);
    for (const src of ['1 + 2', '{a: 1 + 2, b: [2 * 3, ["S"]:(7 - 1)]}', 'let y = 5 - 1 in \\x. x + y', '[1/2 + 1/4, (fork @"flip").[1] + 1]']) {
      const values = (engine: Engine): unknown[] => {
        const e = closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource));
        const out = engine === 'substitution'
          ? evaluate(coin, lat, US.bottom, start, e, 200, { engine: 'substitution' })
          : evaluateV2(coin, lat, US.bottom, start, e, 200, { direct: engine === 'v2' });
        return entries(out.finals).map(([f]) => f.value).sort((a, b) => render(lat, a).localeCompare(render(lat, b)));
      };
      const spec = values('substitution');
      expect(spec.length, src).toBeGreaterThan(0);
      expect(values('v2'), src).toEqual(spec);
      expect(values('v2-general'), src).toEqual(spec);
    }
  });

  it('a model with its own primitive keeps it (no standard fast path for that name)', () => {
    const prims = { ...STANDARD_PRIMS, 'binop_+': () => ({ ok: true as const, value: { kind: 'num' as const, value: Q.rat(42) } }) };
    const own = standardModel('own-plus', () => [['0', Q.ONE]], { prims });
    expect(table(own, '1 + 2', US.bottom, 20, 'v2')).toEqual(['[]:42 @ []:[] ↦ 1']);
    sameAsSpec(own, 'let x = ["S"]:1 in x + 2', 10);
    const notFalse = standardModel('own-if', () => [['0', Q.ONE]], { prims: { ...STANDARD_PRIMS, fromBool: STANDARD_PRIMS.fromBool!, 'binop_==': () => ({ ok: true as const, value: { kind: 'bool' as const, value: false } }) } });
    expect(table(notFalse, 'if 1 == 1 then "yes" else "no"', US.bottom, 40, 'v2')).toEqual(['[]:"no" @ []:[] ↦ 1']);
    const ownStr = standardModel('own-str', () => [['0', Q.ONE]], { prims: { ...STANDARD_PRIMS, toStr: () => ({ ok: true as const, value: { kind: 'str' as const, value: 'mine' } }) } });
    expect(table(ownStr, 'str(1)', US.bottom, 20, 'v2')).toEqual(['[]:"mine" @ []:[] ↦ 1']);
  });
});
