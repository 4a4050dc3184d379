/**
 * v2's per-code-node heuristics (issue 12): a code node whose memo lookups never hit stops being keyed,
 * one whose `direct` attempts always give up stops being tried, and one whose next-round entries or
 * sub-task outcomes never merged keeps them unkeyed. They may only change the cost, never the answer:
 * every expectation here is the substitution evaluator's (the executable spec) or a closed form, never
 * v2's own output.
 *
 * - The equivalence property with `probation: 1` (every heuristic switched on after one miss) on every
 *   shipped lattice: the generated programs are too small to reach the default probation of 64.
 * - Programs large enough to reach the default probation, including one where a node first never merges
 *   (2^7 distinct strings) and then every configuration collapses to one state (unmerged duplicates).
 * - `maxOutcomes` still counts DISTINCT configurations of a round when entries are kept unkeyed.
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { v2EquivalenceSuite } from '../properties/v2-equivalence.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { failureKey } from '../src/semantics/config.ts';
import { print } from '../src/syntax/printer.ts';
import { flipSumRows } from './helpers/closed-forms.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };
const program = (src: string) => closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource));
const FLIP = '(fork @"flip").[1]';

/** Finals and missing mass as sorted text lines. */
function table(e: Evaluation<typeof US.bottom>): string[] {
  const fin = entries(e.finals).map(([f, w]) => `${print(f.value, lat)} ↦ ${Q.show(w)}`);
  const miss = e.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`);
  return [...fin, ...miss].sort();
}

describe('v2 heuristics change the cost, never the answer', () => {
  // With frontier runs (the property's default) and without them (the general machine's rounds take every entry).
  it.each(SHIPPED_LATTICES.flatMap((name) => [[name, true], [name, false]] as const))('the equivalence property holds with every heuristic on at once (probation 1) on %s, frontier runs %s', (name, frontier) => {
    const v = runSuite(v2EquivalenceSuite({ probation: 1, frontier }), referenceCtx(latticeByName(name)!), { runs: 300, seed: 21 });
    expect(v.error, v.error).toBeUndefined();
    expect(v.counterexample?.pretty, `${v.counterexample?.pretty}\n${v.counterexample?.reason}`).toBeUndefined();
    expect(v.vacuous).toEqual([]);
    expect(v.ok).toBe(true);
  });

  const programs: readonly (readonly [string, string, number])[] = [
    // 2^7 distinct strings (no merge for > 64 inserts: merging and memo switch off), then every run collapses
    // to "x0" or "x1": rounds of 2^8 entries with 2 distinct configurations.
    ['distinct, then collapsing', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (if n > 3 then acc + str(${FLIP}) else "x" + str(${FLIP}))) in go 10 ""`, 4000],
    ['flips into a string, 2^8 outcomes', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str(${FLIP}))) in go 8 ""`, 4000],
    ['straight-line flips', `${Array.from({ length: 8 }, (_, i) => `let x${i} = ${FLIP} in`).join(' ')} ${Array.from({ length: 8 }, (_, i) => `x${i}`).join(' + ')}`, 4000],
    ['a branching non-tail recursion', `let f = fix (\\f. \\n. if n == 0 then 0 else ${FLIP} + f (n - 1)) in f 12`, 4000],
    ['sum of flips, too little fuel for the last ones', `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + ${FLIP})) in go 12 0`, 300],
  ];

  it.each(programs)('%s: v2 (default probation, and probation 1) = the substitution evaluator', (_, src, fuel) => {
    const e = program(src);
    const spec = table(evaluate(coin, lat, US.bottom, start, e, fuel, { engine: 'substitution' }));
    expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel))).toEqual(spec);
    expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel, { probation: 1 }))).toEqual(spec);
    expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel, { probation: 1, frontier: false }))).toEqual(spec);
    expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel, { probation: 1, direct: false }))).toEqual(spec);
  });

  it('closed forms: 2^8 strings each 1/256; the collapsing loop ends in "x0" or "x1", 1/2 each', () => {
    const strings = table(evaluateV2(coin, lat, US.bottom, start, program(programs[1]![1]), 4000));
    expect(strings).toHaveLength(256);
    expect(strings.every((l) => /^\[\]:"[01]{8}" ↦ 1\/256$/.test(l))).toBe(true);
    expect(table(evaluateV2(coin, lat, US.bottom, start, program(programs[0]![1]), 4000))).toEqual(['[]:"x0" ↦ 1/2', '[]:"x1" ↦ 1/2']);
  });

  // Found by mutation testing (docs/mutation.md, machine.ts 470–840): nothing checked that the memo is bounded (its
  // two generations) or that `peakMemo` reports it; a memo that never rotated, or a peak never recorded, passed.
  it('the memo is bounded by its two generations, peakMemo reports the peak, and the answer does not depend on it', () => {
    const n = 30;
    const e = program(`let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + ${FLIP})) in go ${n} 0`);
    const want = flipSumRows(n);
    // (The general machine's memo: frontier runs off, or they would take every entry of the loop.)
    for (const direct of [true, false]) {
      const unbounded = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct, frontier: false });
      expect(table(unbounded)).toEqual(want);
      expect(unbounded.memoHits).toBeGreaterThan(0);
      // More than 2 × 8 entries are stored when nothing is dropped: the bound below is not met by accident.
      expect(unbounded.peakMemo).toBeGreaterThan(100);
      const bounded = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct, frontier: false, memoGeneration: 8 });
      expect(table(bounded)).toEqual(want);
      // Two generations of at most 8, and both were full at some point.
      expect(bounded.peakMemo).toBe(16);
    }
  });

  it('maxOutcomes counts distinct configurations even when entries are kept unkeyed', () => {
    // Rounds: at most 2^7 distinct strings; after the collapse 2^8 unkeyed entries but 2 distinct configurations.
    const e = program(programs[0]![1]);
    for (const probation of [1, undefined]) {
      const limited = (max: number) => () => evaluateV2(coin, lat, US.bottom, start, e, 4000, { maxOutcomes: max, ...(probation ? { probation } : {}) });
      expect(table(limited(128)())).toEqual(['[]:"x0" ↦ 1/2', '[]:"x1" ↦ 1/2']);
      expect(limited(127)).toThrow(BudgetExceeded);
    }
  });
});

// Found by mutation testing of the rules and their bookkeeping (docs/mutation.md, run 9: machine.ts 870–1188).
describe('the rules run as generators, and the per-node switches switch', () => {
  // The fast path does Recv by hand, so with it on the generator's side condition (pc ⊑ the conversation's label)
  // was never run: a Recv that ignored it survived.
  it.each(['recv', '[1, recv]', 'fork recv', '(\\x. recv) 1', '{a: recv}.a'])('%s at a raised pc: stuck at Recv in the general machine as in the spec', (src) => {
    const e = program(src);
    for (const pc of [US.U, US.bottom]) {
      const spec = table(evaluate(coin, lat, pc, start, e, 20, { engine: 'substitution' }));
      if (pc === US.U) expect(spec.some((l) => l.startsWith('stuck Recv: pc'))).toBe(true);
      expect(table(evaluateV2(coin, lat, pc, start, e, 20, { direct: false }))).toEqual(spec);
      expect(table(evaluateV2(coin, lat, pc, start, e, 20))).toEqual(spec);
    }
  });

  // A node whose fast-path attempts only give up (the flip's sub-derivation branches), or whose memo never hits
  // (every key holds a new counter value), is switched off after `probation` tries. Nothing observed that: a
  // switch that never tripped cost a give-up (or a memo entry) per iteration, and survived. Observed here as
  // counts that stop growing with the loop's length.
  it('give-ups of the fast path stop growing with the loop once its nodes are switched off', () => {
    const loop = (n: number) => program(`let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + ${FLIP})) in go ${n} 0`);
    // (The attempts on sub-derivations: frontier runs off, or they would take every entry of the loop.)
    const short = evaluateV2(coin, lat, US.bottom, start, loop(40), 100_000, { probation: 8, frontier: false });
    const long = evaluateV2(coin, lat, US.bottom, start, loop(160), 1_000_000, { probation: 8, frontier: false });
    expect(table(short)).toEqual(flipSumRows(40));
    expect(table(long)).toEqual(flipSumRows(160));
    expect(short.directRuns).toBeGreaterThan(0);
    // Fewer give-ups than iterations, and four times the loop adds at most one more probation's worth.
    expect(short.directBails).toBeLessThan(40);
    expect(long.directBails).toBeLessThanOrEqual(short.directBails + 8);
  });

  it('memo entries of nodes whose lookups never hit stop growing with the loop', () => {
    const count = (n: number) => program(`let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count ${n} 0`);
    const short = evaluateV2(coin, lat, US.bottom, start, count(40), 100_000, { direct: false, probation: 8 });
    const long = evaluateV2(coin, lat, US.bottom, start, count(160), 100_000, { direct: false, probation: 8 });
    expect(table(short)).toEqual(['[]:40 ↦ 1']);
    expect(table(long)).toEqual(['[]:160 ↦ 1']);
    expect(short.memoHits).toBe(0);
    expect(short.peakMemo).toBeGreaterThan(0);
    expect(long.peakMemo).toBeLessThanOrEqual(short.peakMemo + 8);
  });
});
