/**
 * Evaluator v2's deterministic fast path (`Machine.direct`, issue 12 part 2): a derivation whose premises
 * all have at most one outcome runs as one path of generators, with App by hand; at the first branching
 * premise it gives up and the general machine (rounds, keys, memo) does the derivation. The answers must be
 * the general machine's exactly (and the substitution evaluator's); expected values here are written by hand.
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, standardModel } from '../src/semantics/models/index.ts';
import { failureKey, showConversation } from '../src/semantics/config.ts';
import { render } from './helpers/render.ts';
import { print } from '../src/syntax/printer.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
/** A sub-distribution model: one response, "0", with weight 1/2 (the other half is withheld). */
const half = standardModel('half', () => [['0', Q.rat(1, 2)]]);
const start = { label: US.bottom, messages: [] };

function table(model: PModel, src: string, fuel: number, direct = true): string[] {
  const e = closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
  const r = evaluateV2(model, lat, US.bottom, start, e, fuel, { direct });
  return [
    ...entries(r.finals).map(([f, w]) => `${print(f.value, lat)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`).sort(),
    ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`),
    `deficit ${Q.show(r.modelDeficit)}`,
  ];
}

function substitution(model: PModel, src: string, fuel: number): string[] {
  const e = closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
  const r = evaluate(model, lat, US.bottom, start, e, fuel, { engine: 'substitution' });
  return [
    ...entries(r.finals).map(([f, w]) => `${render(lat, f.value)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`).sort(),
    ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`),
    `deficit ${Q.show(r.modelDeficit)}`,
  ];
}

describe('v2 deterministic fast path', () => {
  it('a lone response of weight 1/2 in the function AND the argument premise of an App: weight 1/4 (by hand)', () => {
    // Both premises receive "0" with weight 1/2 each; the rest of the mass is withheld by the model.
    const src = '((\\_. \\y. [y, 1]) (@"q")) ((\\_. 2) (@"r"))';
    const want = ['[]:[[]:2, []:1] @ []:["q", "0", "r", "0"] ↦ 1/4', 'deficit 3/4'];
    expect(table(half, src, 50)).toEqual(want);
    expect(table(half, src, 50, false)).toEqual(want);
    expect(substitution(half, src, 50)).toEqual(want);
  });

  it('a premise with no outcome at all (a model with no response) leaves an empty distribution', () => {
    const none = standardModel('none', () => []);
    expect(table(none, '(\\x. x) (@"q")', 50)).toEqual(['deficit 1']);
  });

  // Found by mutation testing (docs/mutation.md, "Evaluator v2"): a premise with no response under a rule run as a
  // generator frame (Endorse here) must hand that generator an empty result, not start it again.
  it('a premise with no response under a generator frame (Endorse, the label test, Assert): an empty distribution, as the substitution evaluator', () => {
    const none = standardModel('none', () => []);
    // Also a generator that ends empty under another generator frame (found by mutation testing, run 7): the
    // outer rule must be handed the empty result, not started again.
    for (const src of ['endorse [] (@"q")', '[] ? (@"q")', 'assert [] (@"q")', '[1, endorse [] (@"q")]', 'endorse [] ([] ? (@"q"))', 'assert [] (endorse [] (@"q"))']) {
      const want = substitution(none, src, 50);
      expect(want, src).toEqual(['deficit 1']);
      expect(table(none, src, 50), src).toEqual(want);
    }
  });

  it('a recv with a single response does not make the fast path give up (only several responses branch)', () => {
    const one = standardModel('one', () => [['7', Q.ONE]]);
    const src = 'let f = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + (fork @"q").[1])) in f 20 0';
    const e = closeProgram(parse(src, lat), loadPrelude(lat, one.preludeSource));
    const r = evaluateV2(one, lat, US.bottom, start, e, 10_000);
    expect(entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`)).toEqual(['[]:140 ↦ 1']);
    expect(r.directBails).toBe(0);
    expect(r.directRuns).toBeGreaterThan(0);
  });

  it('out of fuel and stuck inside a deterministic run are the outcome of the whole run', () => {
    expect(table(coin, 'let f = fix (\\f. \\n. f (n + 1)) in f 0', 300)).toEqual(['fuel ↦ 1', 'deficit 0']);
    expect(table(coin, 'let x = 3 in x 4', 50)).toEqual(['stuck App: applying a non-function []:3 ↦ 1', 'deficit 0']);
  });

  it('a branching premise deep inside a deterministic loop: the attempt gives up, the answer and step count are the general machine\'s', () => {
    // 200 deterministic iterations, then one fair flip: two outcomes of 1/2.
    const src = 'let count = fix (\\f. \\n. \\acc. if n == 0 then acc + (fork @"flip").[1] else f (n - 1) (acc + 1)) in count 200 0';
    const e = closeProgram(parse(src, lat), loadPrelude(lat));
    const fast = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { afterBranch: 0 });
    const slow = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct: false });
    const show = (r: typeof fast) => entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`).sort();
    expect(show(fast)).toEqual(['[]:200 ↦ 1/2', '[]:201 ↦ 1/2']);
    expect(show(slow)).toEqual(show(fast));
    // The attempt from the root ran the 200 iterations and gave up at the flip; the general machine did it all again.
    expect(fast.directBails).toBeGreaterThan(0);
    expect(slow.directRuns + slow.directBails).toBe(0);
    // Attempts that gave up are not counted as rule applications.
    expect(fast.steps).toBe(slow.steps);
  });

  it('work before a branch is kept: the run goes on depth first past its first branch (afterBranch)', () => {
    const COUNT = 'let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in';
    const run = (src: string, o: { afterBranch?: number; maxSteps?: number; direct?: boolean }) =>
      evaluateV2(coin, lat, US.bottom, start, closeProgram(parse(src, lat), loadPrelude(lat)), 1_000_000, o);
    const show = (r: ReturnType<typeof run>) => entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`).sort();
    // 2,000 deterministic iterations, then a flip beside them: the root's run keeps the loop's result and finishes
    // both paths itself (before the fifteenth session it gave up at the flip and the general machine ran the loop
    // again, rule by rule: about ten times the time).
    const src = `${COUNT} [count 2000 0, fork @"flip"]`;
    const past = run(src, {});
    const slow = run(src, { direct: false });
    expect(show(past)).toEqual(show(slow));
    expect(show(past)).toHaveLength(2);
    expect([past.directRuns, past.directAfterBranch, past.directBails]).toEqual([1, 1, 0]);
    expect(past.fused.fix).toBe(2000);
    expect(past.steps).toBe(slow.steps);
    // Under a step budget it is off by default (its paths share no memo), and `afterBranch: 0` turns it off.
    expect(run(src, { maxSteps: 10_000_000 }).directAfterBranch).toBe(0);
    const off = run(src, { afterBranch: 0 });
    expect(off.directAfterBranch).toBe(0);
    expect(off.directBails).toBeGreaterThan(0);
    expect(show(off)).toEqual(show(slow));
    // A give-up pauses the fast path for an eighth of the rule applications it wasted, not twice as many: the
    // general machine takes the loop up for a while, then the fast path takes it back (here with the run past the
    // branch off, so that the root's run gives up). With the old pause the general machine ran all of it (fix 0).
    expect(off.fused.fix).toBeGreaterThan(1500);
    // Past its allowance the run gives up at its next branch: 2^12 paths after the first branch need far more than
    // 64 rule applications; the general machine answers.
    const strings = `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str((fork @"flip").[1]))) in go 12 ""`;
    const small = run(strings, { afterBranch: 64 });
    expect(small.directAfterBranch).toBe(0);
    expect(small.directBails).toBeGreaterThan(0);
    expect(show(small)).toEqual(show(run(strings, { direct: false })));
    expect(show(small)).toHaveLength(4096);
  });

  it('a fully deterministic program runs on the fast path alone (no task, no memo)', () => {
    const e = closeProgram(parse('let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count 1000 0', lat), loadPrelude(lat));
    const r = evaluateV2(coin, lat, US.bottom, start, e, 1_000_000);
    expect(entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`)).toEqual(['[]:1000 ↦ 1']);
    expect([r.directRuns, r.directBails, r.peakMemo, r.peakRound]).toEqual([1, 0, 0, 0]);
  });
});
