/**
 * What evaluator v2 now shares between evaluations (issue 12, per-evaluation cost; docs/evaluator-v2.md
 * "Per-evaluation cost"): the standard `fromBool`'s Church booleans as runtime bodies (per lattice), the label
 * keys of scalar labels (per lattice), and its tables created on first use. Sharing must not carry anything
 * from one evaluation into another: interleaved evaluations on five lattices, with two models and at every
 * fuel, give exactly the substitution evaluator's answer (the executable spec), and an evaluation repeated
 * after many others gives the same answer as the first time. (Shown able to fail: a Church-boolean cache that
 * ignores the boolean fails both tests at once.)
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import * as A from '../src/syntax/ast.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, standardModel } from '../src/semantics/models/index.ts';
import { failureKey, showConversation } from '../src/semantics/config.ts';
import { print } from '../src/syntax/printer.ts';

const LATTICES = ['two-point', 'powerset-us', 'chain(3)', 'powerset-use', 'ppmf'].map((n) => {
  const l = latticeByName(n);
  if (!l) throw new Error(`no lattice ${n}`);
  return l as Lattice<unknown>;
});

const coin = coinModel(Q.rat(1, 3));
const echo = standardModel('echo', (ms) => [[ms.length === 0 ? '0' : ms[ms.length - 1]!, Q.ONE]]);

/**
 * Programs whose answers depend on what is shared: `fromBool`'s result returned as a value (its lambda's labels
 * are the lattice's, so a Church boolean of another lattice would print differently), conditionals under a
 * raised pc, labels that merge or not, and the model's responses.
 */
function programs(lat: Lattice<unknown>): Expr<unknown>[] {
  const top = lat.show(lat.top);
  const src = [
    `if 1 < 2 then 3 else 4`,
    `let c = (fork @"flip").[1] in ${top}:(if c == 1 then "a" else "b")`,
    `let x = (fork @"q").[1] in let y = (fork @"q").[1] in x + y`,
    `let f = \\b. if b then ${top}:1 else 2 in [f (1 < 2), f (2 < 1)]`,
    `let u = send "hello" in (@"again").[1]`,
  ].map((s) => parse(s, lat) as Expr<unknown>);
  // `fromBool` itself as the answer: a closure whose readback carries the lattice's ⊥ labels.
  src.push(A.prim('fromBool', parse('1 < 2', lat) as Expr<unknown>), A.prim('fromBool', parse(`${top}:false`, lat) as Expr<unknown>));
  return src;
}

/** Printed in full (the printer's canonical form: lambdas with their inner labels). */
function table(lat: Lattice<unknown>, r: Evaluation<unknown>): string[] {
  return [
    ...entries(r.finals).map(([f, w]) => `${print(f.value, lat)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`).sort(),
    ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`).sort(),
  ];
}

function run(lat: Lattice<unknown>, model: PModel, e: Expr<unknown>, pc: unknown, fuel: number, engine: 'substitution' | 'v2' | 'v2-general'): string[] {
  const closed = closeProgram(e, loadPrelude(lat, model.preludeSource));
  const start = { label: lat.bottom, messages: [] };
  return table(lat, engine === 'substitution'
    ? evaluate(model, lat, pc, start, closed, fuel, { engine: 'substitution' })
    : evaluateV2(model, lat, pc, start, closed, fuel, { direct: engine === 'v2' }));
}

describe('v2 shares nothing observable between evaluations', () => {
  it('interleaved evaluations on five lattices and two models give the substitution evaluator\'s answers at every fuel', () => {
    let compared = 0;
    for (let round = 0; round < 2; round++) {
      for (const fuel of [3, 8, 40]) {
        for (const lat of LATTICES) {
          for (const model of [coin, echo]) {
            for (const [i, e] of programs(lat).entries()) {
              for (const pc of [lat.bottom, lat.top]) {
                const spec = run(lat, model, e, pc, fuel, 'substitution');
                const what = `${lat.name}, ${model.name}, program ${i}, pc ${lat.show(pc)}, fuel ${fuel}`;
                expect(run(lat, model, e, pc, fuel, 'v2'), what).toEqual(spec);
                expect(run(lat, model, e, pc, fuel, 'v2-general'), `${what} (general machine)`).toEqual(spec);
                compared++;
              }
            }
          }
        }
      }
    }
    expect(compared).toBe(2 * 3 * 5 * 2 * 7 * 2);
  });

  it('an evaluation repeated after evaluations on other lattices gives the same answer as the first time', () => {
    const [first, ...others] = LATTICES;
    const lat = first!;
    const before = programs(lat).map((e) => run(lat, coin, e, lat.bottom, 40, 'v2'));
    for (const o of others) for (const e of programs(o)) run(o, echo, e, o.top, 40, 'v2');
    const after = programs(lat).map((e) => run(lat, coin, e, lat.bottom, 40, 'v2'));
    expect(after).toEqual(before);
    // Not vacuous: the Church boolean answers are closures printed with their labels, and the coin branches.
    expect(before[5]!.join('\n')).toMatch(/\\t\. \\f\. .*:/);
    expect(before[1]!.length).toBeGreaterThan(1);
  });
});
