/**
 * The cost property of v2's adaptive heuristics (docs/evaluator-v2.md, "Per-code-node heuristics" and "Sampled
 * re-checks"). A heuristic switches a cost off at a code node — its memo, its merging of next-round entries or of
 * outcomes — after `probation` tries without a success; it may only ever lose a bounded factor, never change an
 * answer. Two exponential cases found in the eighth round (a node switched off for good whose later calls would
 * have reused or merged, level after level of a recursion) are the shape generated here (test/helpers/recursions.ts):
 * a recursion with a coin flip beside its call, first called with new arguments, then once deep.
 *
 * Answers are the substitution evaluator's. Costs are compared with v2 itself with every heuristic disabled
 * (`probation: Infinity`: nothing switched off, so no re-check involved): with the heuristics eager (`probation: 1`)
 * or at their default, the general machine's work — rule applications plus the outcomes handed to waiting rules
 * (`premiseOutcomes`) — stays within 8× that plus 2,000. (The fast path's depth-first runs are left out of the bound:
 * each may spend its own allowance, at least 100,000 rule applications, before giving up; measured: up to 72,000
 * on these programs with `probation: 1`, none at the default.) Without any one of the three re-checks (memo,
 * next-round entries, outcomes) this fails; without all of them most programs exceed the budget of 3,000,000.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { failureKey } from '../src/semantics/config.ts';
import { print } from '../src/syntax/printer.ts';
import { recursionArb, recursionSource, BODIES, ARGS } from './helpers/recursions.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };
const FUEL = 100_000;
const BUDGET = 3_000_000;

function table(e: Evaluation<typeof US.bottom>): string[] {
  const fin = entries(e.finals).map(([f, w]) => `${print(f.value, lat)} ↦ ${Q.show(w)}`);
  const miss = e.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`);
  return [...fin, ...miss].sort();
}

describe('v2 heuristics lose at most a bounded factor (generated recursions)', () => {
  it('the generator builds every body and argument shape, and every program parses and is closed', () => {
    const seen = new Set<string>();
    for (const r of fc.sample(recursionArb, { numRuns: 300, seed: 3 })) {
      seen.add(`${r.body} ${r.arg}`);
      expect(() => closeProgram(parse(recursionSource(r), lat), loadPrelude(lat, coin.preludeSource))).not.toThrow();
    }
    expect(seen.size).toBe(Object.keys(BODIES).length * ARGS.length);
  });

  it('answers equal the substitution evaluator, and work stays within 8× the heuristic-free machine plus 2,000', () => {
    fc.assert(fc.property(recursionArb, (r) => {
      const e = closeProgram(parse(recursionSource(r), lat), loadPrelude(lat, coin.preludeSource));
      const spec = table(evaluate(coin, lat, US.bottom, start, e, FUEL, { engine: 'substitution' }));
      const work = (probation: number | undefined, direct = false, frontier?: boolean): number => {
        try {
          const v = evaluateV2(coin, lat, US.bottom, start, e, FUEL, { direct, maxSteps: BUDGET, ...(probation !== undefined ? { probation } : {}), ...(frontier !== undefined ? { frontier } : {}) });
          expect(table(v), `probation ${probation ?? 'default'}`).toEqual(spec);
          return v.steps + v.premiseOutcomes;
        } catch (err) {
          if (err instanceof BudgetExceeded) return Infinity;
          throw err;
        }
      };
      const free = work(Infinity);
      for (const p of [1, undefined]) {
        const w = work(p);
        expect(w, `probation ${p ?? 'default'}: ${w} against ${free} without heuristics`).toBeLessThanOrEqual(8 * free + 2000);
      }
      // The fast path's depth-first runs have their own allowance (at least 100,000 rule applications per give-up,
      // docs/evaluator-v2.md), which the bound above does not cover: with it on, only the answers are checked, with
      // frontier runs (which the step budget turns off by default) and without.
      for (const frontier of [undefined, true]) {
        work(1, true, frontier);
        work(undefined, true, frontier);
      }
    }), { numRuns: 60, seed: 12 });
  });
});
