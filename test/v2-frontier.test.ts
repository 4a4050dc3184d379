/**
 * v2's frontier runs (docs/evaluator-v2.md "Frontier runs of round entries"): an entry of a task's round is run by
 * the fast path up to its tail premises, branches included, and those tails go to the next round (merged there as
 * the rules' tails are), instead of the entry being taken apart rule by rule by the general machine's generators.
 * Only the cost may change: every expectation is the substitution evaluator's (the executable spec) or a closed
 * form; the counters only show that the path under test was taken, or given up where it must be.
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { coinModel, standardModel } from '../src/semantics/models/index.ts';
import type { ResponseDist } from '../src/semantics/model.ts';
import { BudgetExceeded } from '../src/semantics/errors.ts';
import { failureKey } from '../src/semantics/config.ts';
import { print } from '../src/syntax/printer.ts';
import { flipSumRows } from './helpers/closed-forms.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };
const program = (src: string, model = coin) => closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
const FLIP = '(fork @"flip").[1]';
const sumLoop = (n: number) => `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + ${FLIP})) in go ${n} 0`;

function table(e: Evaluation<typeof US.bottom>): string[] {
  const fin = entries(e.finals).map(([f, w]) => `${print(f.value, lat)} ↦ ${Q.show(w)}`);
  const miss = e.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`);
  return [...fin, ...miss].sort();
}

describe('frontier runs: the same answers as the substitution evaluator', () => {
  const programs: readonly (readonly [string, string, readonly number[]])[] = [
    ['a merging loop (the sum of flips)', sumLoop(9), [4000, 120, 61]],
    ['a labelled accumulator (labels joined along every path)', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + ({}:${FLIP}))) in go 6 0`, [4000, 90]],
    ['a record built across the branch', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) {a: acc.a + ${FLIP}, b: n}) in go 6 {a: 0, b: 0}`, [4000, 100]],
    ['a stuck path part-way (a string plus a number on one side)', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (if n == 3 then acc + (if ${FLIP} == 1 then 1 else "x") else acc + ${FLIP})) in go 6 0`, [4000]],
    ['a conversation carried into the tails (each path sends its sum so far)', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + (\\u. ${FLIP}) (send str(acc)))) in go 5 0`, [4000, 80]],
    ['endorse below the branch (a rule generator there: the run gives up)', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + endorse [] ${FLIP})) in go 6 0`, [4000]],
  ];

  it.each(programs)('%s', (_, src, fuels) => {
    const e = program(src);
    for (const fuel of fuels) {
      const spec = table(evaluate(coin, lat, US.bottom, start, e, fuel, { engine: 'substitution' }));
      for (const probation of [undefined, 1]) {
        const o = { ...(probation ? { probation } : {}) };
        expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel, o)), `fuel ${fuel}, probation ${probation}`).toEqual(spec);
        expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel, { ...o, frontier: false })), `fuel ${fuel}, probation ${probation}, rounds`).toEqual(spec);
        expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel, { ...o, maxSteps: 10_000_000, frontier: true })), `fuel ${fuel}, probation ${probation}, under a budget`).toEqual(spec);
      }
    }
  });

  it('three responses (a non-uniform model): the tails carry each path\'s weight', () => {
    // A 3-way chain: three responses per step, weights 1/2, 1/3, 1/6, a state mod 5.
    const dist: ResponseDist = [['0', Q.rat(1, 2)], ['1', Q.rat(1, 3)], ['2', Q.rat(1, 6)]];
    const m = standardModel('three-way', () => dist);
    // (`.[1]`: the response of the forked conversation. Until the fifteenth session this read `acc + (fork @"roll")`,
    // a number plus an array, stuck at the first step on every path, so no weight was ever carried.)
    const e = program(`let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) ((acc + (fork @"roll").[1]) % 5)) in go 7 0`, m);
    const spec = table(evaluate(m, lat, US.bottom, start, e, 4000, { engine: 'substitution' }));
    expect(spec).toHaveLength(5);
    const r = evaluateV2(m, lat, US.bottom, start, e, 4000);
    expect(table(r)).toEqual(spec);
    expect(r.directFrontier).toBeGreaterThan(0);
  });
});

describe('frontier runs: when they are taken, and what they cost', () => {
  it('the sum of 40 flips: closed form, every round entry of the loop a frontier run, rule applications still N²', () => {
    const r = evaluateV2(coin, lat, US.bottom, start, program(sumLoop(40)), 100_000);
    expect(table(r)).toEqual(flipSumRows(40));
    // Entries (n, acc) with acc ≤ 40 − n: 41·42/2 of the loop's head, and as many of the branch taken after its `if`.
    expect(r.directFrontier).toBeGreaterThanOrEqual(41 * 42 / 2);
    const big = evaluateV2(coin, lat, US.bottom, start, program(sumLoop(80)), 1_000_000);
    expect(table(big)).toEqual(flipSumRows(80));
    // Twice the loop: about four times the work (N²), nowhere near 2^40 more.
    expect(big.steps / r.steps).toBeGreaterThan(3);
    expect(big.steps / r.steps).toBeLessThan(4.5);
  });

  it('off when asked, under a step budget by default, and with the fast path off; on under an outcome limit', () => {
    const e = program(sumLoop(12));
    expect(evaluateV2(coin, lat, US.bottom, start, e, 4000, { frontier: false }).directFrontier).toBe(0);
    expect(evaluateV2(coin, lat, US.bottom, start, e, 4000, { maxSteps: 1_000_000 }).directFrontier).toBe(0);
    expect(evaluateV2(coin, lat, US.bottom, start, e, 4000, { maxSteps: 1_000_000, frontier: true }).directFrontier).toBeGreaterThan(0);
    expect(evaluateV2(coin, lat, US.bottom, start, e, 4000, { direct: false }).directFrontier).toBe(0);
    // `llmbda run` has a default outcome limit (10,000): its merging loops get frontier runs too.
    const limited = evaluateV2(coin, lat, US.bottom, start, e, 4000, { maxOutcomes: 10_000 });
    expect(limited.directFrontier).toBeGreaterThan(0);
    expect(table(limited)).toEqual(flipSumRows(12));
  });

  // Under `maxOutcomes`, the substitution evaluator stops as soon as any distribution it builds holds more than that
  // many outcomes. A frontier run builds none: it follows paths. So it gives up past maxOutcomes paths, and the
  // general machine, which checks every distribution, meets the limit where the rules do.
  describe('under an outcome limit: stopped exactly where the substitution evaluator stops', () => {
    const dist: ResponseDist = [['0', Q.rat(1, 2)], ['1', Q.rat(1, 3)], ['2', Q.rat(1, 6)]];
    const three = standardModel('three-way', () => dist);
    const limited = (src: string, model: typeof coin, maxOutcomes: number) => {
      const e = program(src, model);
      const outcome = (f: () => Evaluation<typeof US.bottom>): string => {
        try { return table(f()).join('; '); } catch (err) { if (err instanceof BudgetExceeded) return `stopped: ${err.limit}`; throw err; }
      };
      return {
        spec: outcome(() => evaluate(model, lat, US.bottom, start, e, 4000, { engine: 'substitution', maxOutcomes })),
        v2: outcome(() => evaluateV2(model, lat, US.bottom, start, e, 4000, { maxOutcomes })),
      };
    };

    // Each iteration's three responses are three paths of one entry that end at ONE tail (`* 0`): the round and the
    // result never hold more than one configuration, only the responses' distribution holds three.
    it('three responses merged into one tail: limit 2 stops (the responses), limit 3 does not', () => {
      const src = 'let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + (fork @"roll").[1] * 0)) in go 3 0';
      expect(limited(src, three, 2)).toEqual({ spec: 'stopped: outcomes', v2: 'stopped: outcomes' });
      expect(limited(src, three, 3)).toEqual({ spec: '[]:0 ↦ 1', v2: '[]:0 ↦ 1' });
      // Three paths per entry are within a limit of 3: every frontier run that finishes without a limit finishes.
      const runs = (o: { maxOutcomes?: number }) => evaluateV2(three, lat, US.bottom, start, program(src, three), 4000, o).directFrontier;
      expect(runs({})).toBeGreaterThan(0);
      expect(runs({ maxOutcomes: 3 })).toBe(runs({}));
    });

    it('the sum of 12 flips: 13 outcomes allowed, 12 stop', () => {
      expect(limited(sumLoop(12), coin, 12)).toEqual({ spec: 'stopped: outcomes', v2: 'stopped: outcomes' });
      const ok = limited(sumLoop(12), coin, 13);
      expect(ok.v2).toEqual(flipSumRows(12).join('; '));
      expect(ok.spec).toEqual(ok.v2);
    });
  });

  it('a step budget met by the general machine is still met by default: frontier runs (which may apply more rules) wait for an unbudgeted run', () => {
    const e = program(sumLoop(30));
    const rounds = evaluateV2(coin, lat, US.bottom, start, e, 4000, { frontier: false });
    const frontier = evaluateV2(coin, lat, US.bottom, start, e, 4000);
    expect(table(frontier)).toEqual(table(rounds));
    // The general machine derives the flip once per round (its memo); a frontier run derives it for every entry.
    expect(frontier.steps).toBeGreaterThan(rounds.steps);
    const budget = rounds.steps;
    expect(table(evaluateV2(coin, lat, US.bottom, start, e, 4000, { maxSteps: budget }))).toEqual(table(rounds));
    expect(() => evaluateV2(coin, lat, US.bottom, start, e, 4000, { maxSteps: budget, frontier: true })).toThrow(BudgetExceeded);
  });

  // Found by mutation testing (docs/mutation.md, run 12): `noteFrontier` emptied, so a node's frontier runs were tried
  // for good however often they gave up, survived every test. An `endorse` below the flip puts a rule generator under
  // the branch, so the loop head's frontier runs never finish; after its probation the node must stop trying, so the
  // give-ups stay the same whatever the loop's length (65 and 65 here; without the switch 90 and 330).
  it('a node whose frontier runs never finish stops trying after its probation: give-ups do not grow with the loop', () => {
    const endorsed = (n: number) => `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) ((acc + endorse [] ${FLIP}) % 3)) in go ${n} 0`;
    const short = evaluateV2(coin, lat, US.bottom, start, program(endorsed(40)), 4000, { probation: 8 });
    expect(table(short)).toEqual(table(evaluate(coin, lat, US.bottom, start, program(endorsed(40)), 4000, { engine: 'substitution' })));
    const long = evaluateV2(coin, lat, US.bottom, start, program(endorsed(160)), 4000, { probation: 8 });
    expect(short.directBails).toBeGreaterThan(0);
    expect(long.directBails).toBe(short.directBails);
  });

  it('paths that multiply under frames (a branching non-tail recursion) make the run give up; the rounds answer', () => {
    const e = program(`let f = fix (\\f. \\n. if n == 0 then 0 else ${FLIP} + f (n - 1)) in f 40`);
    const spec = table(evaluate(coin, lat, US.bottom, start, e, 100_000, { engine: 'substitution' }));
    const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000);
    expect(table(r)).toEqual(spec);
    expect(r.directBails).toBeGreaterThan(0);
    // Polynomial: the rounds merge each level's 41 sums; 2^40 paths were not enumerated.
    expect(r.steps).toBeLessThan(200_000);
  });
});
