/**
 * v2's depth-first fast path with branches (docs/evaluator-v2.md "Depth-first runs of entries that never
 * merge"): an entry of a code node whose next-round entries never merged is run by `runDirect` with choice
 * points — a model's several responses taken one after another over a copy of the frames below — instead of
 * by the general machine's rule generators. It may only change the cost: every expectation here is the
 * substitution evaluator's (the executable spec) or a closed form, never v2's own output; the counters only
 * show that the path under test was taken (or given up where it must be).
 */
import { describe, expect, it, vi } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { assembleEvaluation, evaluate, finalKey, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { Machine } from '../src/semantics/v2/machine.ts';
import { coinModel, standardModel } from '../src/semantics/models/index.ts';
import type { ResponseDist } from '../src/semantics/model.ts';
import { STANDARD_PRIMS } from '../src/semantics/prims.ts';
import type { PlainValue } from '../src/syntax/ast.ts';
import { failureKey } from '../src/semantics/config.ts';
import { render } from './helpers/render.ts';
import { print } from '../src/syntax/printer.ts';
import { binomials, flipSumRows } from './helpers/closed-forms.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };
const program = (src: string, model = coin) => closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
const FLIP = '(fork @"flip").[1]';
const loop = (n: number, next: string, init: string, last = 'acc') =>
  `let go = fix (\\loop. \\n. \\acc. if n == 0 then ${last} else loop (n - 1) (${next})) in go ${n} ${init}`;

/** A non-merging outer loop (strings) around a merging inner one (the sum of `inner` flips). */
const nested = (outer: number, inner: number) =>
  `let sum = fix (\\s. \\k. \\a. if k == 0 then a else s (k - 1) (a + ${FLIP})) in ${loop(outer, `acc + str(sum ${inner} 0) + ","`, '""')}`;

/** Finals and missing mass as sorted text lines. */
function table(e: Evaluation<typeof US.bottom>): string[] {
  const fin = entries(e.finals).map(([f, w]) => `${print(f.value, lat)} ↦ ${Q.show(w)}`);
  const miss = e.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`);
  return [...fin, ...miss].sort();
}

describe('depth-first fast path: the same answers as the substitution evaluator', () => {
  // [name, program, fuels, whether probation 1 must run entries depth first]
  const programs: readonly (readonly [string, string, readonly number[], boolean])[] = [
    ['flips into a string (Fork, ArrayIndex, Prim frames below the branch)', loop(7, `acc + str(${FLIP})`, '""'), [4000, 150, 260], true],
    ['straight-line flips', `${Array.from({ length: 9 }, (_, i) => `let x${i} = ${FLIP} in`).join(' ')} ${Array.from({ length: 9 }, (_, i) => `x${i}`).join(' + ')}`, [4000, 120], true],
    // An array literal whose middle element branches: the ArrayCons frame's values are copied per choice.
    ['nested arrays (an ArrayCons frame below the branch)', loop(6, `[acc, ${FLIP}, n]`, '0'), [4000, 170], true],
    ['records and indexing (FieldAccess, ArrayIndex frames)', loop(5, `acc + str({a: ${FLIP}, b: 2}.a) + str([${FLIP}, 5].[0])`, '""'), [4000, 300], true],
    // Endorse around the branch: a rule generator below the choice, which cannot be copied (sharing it would
    // lose every path after the first: 4 outcomes of 1/16 here instead of 64 of 1/64).
    ['endorse around the flip (a generator frame below the branch)', loop(6, `acc + str(endorse [] ${FLIP})`, '""'), [4000], false],
    // The last flip in tail position: the choice's alternatives carry the whole path's weight. (It sends the path's
    // own string: the same tail configuration on every path would merge, and the run would give up there.)
    ['a branch in tail position (the path weight carried into it)', loop(6, `acc + str(${FLIP})`, '""', '@acc'), [4000], true],
    // The same failure on every path past n = 3 (one stuck reason): outcomes kept as a list at the root are merged
    // once, by `assembleEvaluation`.
    ['the same failure on many paths', loop(7, `if n == 3 then acc + str(1 + {}) else acc + str(${FLIP})`, '""'), [4000], true],
    // Stuck on some paths part-way: `"…" + 1`.
    ['stuck part-way', loop(7, `if n == 3 then acc + 1 else acc + str(${FLIP})`, '""'), [4000], true],
    ['a merging loop inside a non-merging one', nested(2, 5), [6000], false],
  ];

  it.each(programs)('%s', (_, src, fuels, depthFirst) => {
    const e = program(src);
    for (const fuel of fuels) {
      const spec = table(evaluate(coin, lat, US.bottom, start, e, fuel, { engine: 'substitution' }));
      expect(table(evaluateV2(coin, lat, US.bottom, start, e, fuel)), `fuel ${fuel}`).toEqual(spec);
      // The general machine's depth-first entries: with `afterBranch: 0` the root's run gives up at its first branch
      // (by default it would go on depth first itself, and most of these programs would never reach the rounds).
      const p1 = evaluateV2(coin, lat, US.bottom, start, e, fuel, { probation: 1, afterBranch: 0 });
      expect(table(p1), `fuel ${fuel}, probation 1`).toEqual(spec);
      if (depthFirst && fuel === fuels[0]) expect(p1.directDepthFirst, 'entries run depth first').toBeGreaterThan(0);
    }
  });

  it('endorse below every branch: those depth-first runs give up, the general machine answers', () => {
    const e = program(programs[4]![1]);
    const r = evaluateV2(coin, lat, US.bottom, start, e, 4000, { afterBranch: 0 });
    expect(r.directBails).toBeGreaterThan(0);
    // Runs entered inside the endorse's premise (no generator below their branch) may finish depth first: since
    // the fifteenth session a give-up pauses attempts for an eighth of its waste (docs/evaluator-v2.md), so they
    // are tried; the answer is the substitution evaluator's either way.
    expect(table(r)).toEqual(table(evaluate(coin, lat, US.bottom, start, e, 4000, { engine: 'substitution' })));
  });

  it('closed form at the default probation: 2^12 strings each 1/4096, the loop head run depth first', () => {
    const r = evaluateV2(coin, lat, US.bottom, start, program(loop(12, `acc + str(${FLIP})`, '""')), 10_000);
    const lines = table(r);
    expect(lines).toHaveLength(4096);
    expect(lines.every((l) => /^\[\]:"[01]{12}" ↦ 1\/4096$/.test(l))).toBe(true);
    expect(r.directDepthFirst).toBeGreaterThan(0);
  });

  it('three responses (a non-uniform model): weights multiply along each path', () => {
    const dist: ResponseDist = [['a', Q.rat(1, 2)], ['b', Q.rat(1, 3)], ['c', Q.rat(1, 6)]];
    const m = standardModel('three-way', () => dist);
    const src = loop(5, `acc + (fork @"roll").[1]`, '""');
    const e = program(src, m);
    const spec = table(evaluate(m, lat, US.bottom, start, e, 4000, { engine: 'substitution' }));
    expect(table(evaluateV2(m, lat, US.bottom, start, e, 4000, { probation: 1 }))).toEqual(spec);
    expect(spec).toHaveLength(3 ** 5);
    // Three responses under an ArrayCons frame: each later path needs its own copy of the frame's values.
    const arrays = program(loop(4, `[acc, (fork @"roll").[1]]`, '0'), m);
    const arraySpec = table(evaluate(m, lat, US.bottom, start, arrays, 4000, { engine: 'substitution' }));
    const r = evaluateV2(m, lat, US.bottom, start, arrays, 4000, { probation: 1 });
    expect(table(r)).toEqual(arraySpec);
    expect(r.directDepthFirst).toBeGreaterThan(0);
  });

  // Found by mutation testing (docs/mutation.md, "Evaluator v2"): a model's own fromBool (not a standard Church
  // boolean) makes the fused if push its three Apps as frames; after a branch the path's weight must go on the
  // outermost of them only.
  it('an if on a model\'s own fromBool after a branch: the path weight carried once', () => {
    const dist: ResponseDist = [['0', Q.rat(1, 3)], ['1', Q.rat(2, 3)]];
    for (const shape of ['\\t. \\t. \\u. t u', '\\t. \\f. \\u. "x"']) {
      const value = parse(shape, lat) as unknown as PlainValue;
      const m = standardModel(`own-fromBool ${shape}`, () => dist, { prims: { ...STANDARD_PRIMS, fromBool: () => ({ ok: true as const, value }) } });
      // Straight-line (the model's fromBool would also decide a loop's exit test): three flips, then an if in tail
      // position (entered with the path's weight; as an operand it would start with weight 1).
      const e = program('let x0 = (fork @"roll").[1] in let x1 = (fork @"roll").[1] in let x2 = (fork @"roll").[1] in if x2 == 1 then str(x0) + str(x1) else str(x1) + "," + str(x0)', m);
      const spec = table(evaluate(m, lat, US.bottom, start, e, 400, { engine: 'substitution' }));
      const r = evaluateV2(m, lat, US.bottom, start, e, 400, { probation: 1, afterBranch: 0 });
      expect(table(r), shape).toEqual(spec);
      expect(table(evaluateV2(m, lat, US.bottom, start, e, 400, { probation: 1 })), `${shape}, past the first branch`).toEqual(spec);
      expect(r.directDepthFirst, shape).toBeGreaterThan(0);
    }
  });

  it('a merging loop inside a non-merging one: depth-first runs give up where the inner loop merged, not enumerate its paths', () => {
    // Enumerating 2^9 paths per inner sum instead of merging them took ≈ 3.3 million rule applications here
    // (the substitution evaluator needs ≈ 15 thousand); giving up at the node that merged keeps v2 near it.
    // Frontier runs (on by default without a step budget) take the inner loop's round entries before a depth-first
    // run meets them, so the give-up at a merged node is exercised with them off as well (as under a budget).
    const e = program(nested(3, 9));
    const spec = evaluate(coin, lat, US.bottom, start, e, 6000, { engine: 'substitution' });
    for (const frontier of [undefined, false]) {
      const r = evaluateV2(coin, lat, US.bottom, start, e, 6000, frontier === undefined ? {} : { frontier });
      expect(table(r), `frontier ${frontier}`).toEqual(table(spec));
      expect(r.directDepthFirst, `frontier ${frontier}`).toBeGreaterThan(0);
      expect(r.steps, `frontier ${frontier}`).toBeLessThan(4 * spec.steps);
    }
  });

  // Found while measuring the probation (docs/evaluator-v2.md, "Sampled re-checks"): a loop whose first iterations
  // never merge (a string of flips: 2^8 distinct states, past the probation of 64) and whose later ones do (the
  // string dropped for a sum of flips) was classified "never merges" for good, and its later iterations were
  // enumerated path by path — by the rounds (unkeyed entries) and by depth-first runs alike: more than 30 million
  // rule applications at P = 12 where merging needs about 30,000.
  it('a loop that merges only in its later iterations is merged there (a sampled re-check), in the rounds and depth first', () => {
    const late = (p1: number, p2: number) => `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (if n > ${p2} then acc + str(${FLIP}) else if n == ${p2} then ${FLIP} else acc + ${FLIP})) in go ${p1 + p2} ""`;
    for (const [p1, p2] of [[7, 8], [8, 12]] as const) {
      const e = program(late(p1, p2));
      // The sum of p2 fair flips (the string is dropped at n = p2): binomial weights C(p2, k) / 2^p2.
      const want = flipSumRows(p2);
      for (const direct of [true, false]) {
        const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct, maxSteps: 1_000_000 });
        expect(table(r), `P = ${p1} + ${p2}, direct ${direct}`).toEqual(want);
        expect(r.steps, `P = ${p1} + ${p2}, direct ${direct}`).toBeLessThan(200 * 2 ** p1);
      }
    }
  });

  // Thirty-fifth round (docs/evaluator-v2.md): the depth-first runs' sample of their tail entries is the machine's and
  // thins while it finds no repeat. Before, every run had its own sample at one tail in 8 (about sixty runs for 2^16
  // strings, none of them thinning): 8,342 configuration keys at n = 14, each interning its string.
  it('the tail sample thins across a machine\'s depth-first runs, and a loop that merges late is still merged', () => {
    const keys = vi.spyOn(Machine.prototype, 'cfgKeyOf');
    try {
      const r = evaluateV2(coin, lat, US.bottom, start, program(loop(14, `acc + str(${FLIP})`, '""')), 10_000);
      expect(r.finals.size).toBe(2 ** 14);
      expect(r.directDepthFirst).toBeGreaterThan(0);
      // Tail entries: two per path and level below the branch, ≈ 2^16; at one in 8 that is ≈ 8,000 keys, thinned to
      // one in 64 after 4 × 256 misses it is under 2,000 (memo and round keys included).
      expect(keys.mock.calls.length).toBeLessThan(3000);
    } finally {
      keys.mockRestore();
    }
    // After 2^12 distinct strings (the sample at its sparsest), the sum of 8 flips: its tails repeat and are merged,
    // the steps about as many as with the dense sample (≈ 149 per early path, measured before and after the change).
    const late = `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (if n > 8 then acc + str(${FLIP}) else if n == 8 then ${FLIP} else acc + ${FLIP})) in go 20 ""`;
    const r = evaluateV2(coin, lat, US.bottom, start, program(late), 100_000);
    expect(table(r)).toEqual(flipSumRows(8));
    expect(r.steps).toBeLessThan(200 * 2 ** 12);
  });

  // Found by constructing the case docs/evaluator-v2.md had left open (eighth round): the outcomes of a sub-derivation
  // were switched to unmerged for good after 64 without a merge. A recursion first called where its results all
  // differ (strings of flips) and then where they merge (sums of flips) handed every level 2^k copies of k + 1
  // outcomes: at n = 20 14.5 s where merging takes 0.14 s. Rule applications did not show it (the continuations
  // were memo hits), so the test bounds `premiseOutcomes`, the outcomes handed to the rules that wait on them.
  it('a recursion whose results merge only in its later calls is merged there (a sampled re-check of sub-derivation outcomes)', () => {
    const n = 14;
    const e = program(`let flip = \\u. ${FLIP} in
      let g = fix (\\g. \\m. \\n. if n == 0 then (if m then "" else 0) else (g m (n - 1)) + (if m then str(flip {}) else flip {})) in
      [g true 7, g false ${n}]`);
    // Independent: seven fair bits as a string (1/128 each) beside the sum of n fair flips (C(n, k) / 2^n).
    const want: string[] = [];
    for (let bits = 0; bits < 128; bits++) {
      const s = bits.toString(2).padStart(7, '0');
      binomials(n).forEach((c, k) => want.push(`[]:[[]:"${s}", []:${k}] ↦ ${Q.show(Q.div(Q.rat(c, 1n), Q.rat(2n ** BigInt(n + 7), 1n)))}`));
    }
    want.sort();
    for (const direct of [true, false]) {
      const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct });
      expect(table(r), `direct ${direct}`).toEqual(want);
      // Merged: ≈ 3,600 here, growing linearly with n; unmerged (the re-check removed) 84,854, doubling with n.
      expect(r.premiseOutcomes, `direct ${direct}`).toBeLessThan(10_000);
    }
  });

  // Found the same way (eighth round): memoisation switched off for good at a node whose first 64 lookups all missed.
  // Here the 64 levels of `warm` each ask their sub-derivations once, with new arguments; past the 64th, the same
  // derivation was asked for once per outcome of the flip before it, and without the memo each level redid the
  // one below twice: more than 2,000,000 rule applications at 64 levels where 63 take 11,011.
  it('a node whose memo lookups missed at first is re-checked: repeated derivations later are memoised again', () => {
    const levels = 70;
    const e = program(`let flip = \\u. ${FLIP} in
      let h = fix (\\h. \\s. \\m. \\n. if n == 0 then 0 else (let b = flip {} in ((h s (m + b * s) (n - 1)) + b) % 3)) in
      let warm = fix (\\w. \\k. if k == 0 then 0 else ((h 1 (3 * k) 1) + w (k - 1)) % 3) in
      warm ${levels}`);
    // Independent: h 1 m 1 is one fair flip, so `warm n` is the sum of n fair flips mod 3.
    const mass = [0n, 0n, 0n];
    binomials(levels).forEach((c, k) => { mass[k % 3]! += c; });
    const want = mass.map((m, r) => `[]:${r} ↦ ${Q.show(Q.div(Q.rat(m, 1n), Q.rat(2n ** BigInt(levels), 1n)))}`).sort();
    for (const direct of [true, false]) {
      const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct, maxSteps: 2_000_000 });
      expect(table(r), `direct ${direct}`).toEqual(want);
      expect(r.steps, `direct ${direct}`).toBeLessThan(100_000);
    }
  });

  it('a merging loop is still evaluated by rounds: rule applications grow as N², not as 2^N', () => {
    // (a) of the benchmark: the sum of N flips. Depth first it would be 2^40 paths.
    const n = 40;
    const r = evaluateV2(coin, lat, US.bottom, start, program(loop(n, `acc + ${FLIP}`, '0')), 100_000);
    expect(entries(r.finals)).toHaveLength(n + 1);
    expect(r.steps).toBeLessThan(50 * n * n);
  });

  it('assembleEvaluation merges repeated outcomes (a root kept as a list): finals by their printed key, failures by theirs', () => {
    const v = (n: number) => ({ kind: 'label' as const, label: US.bottom, body: { kind: 'num' as const, value: Q.rat(n, 1) } });
    const conv = { label: US.bottom, messages: [] };
    const ok = (n: number) => ({ kind: 'ok' as const, conv, value: v(n) });
    const stuck = { kind: 'stuck' as const, rule: 'Prim', reason: 'binop_+ on a record' };
    const a = assembleEvaluation(lat, [
      { out: { kind: 'fuel' as const }, weight: Q.rat(1, 8) }, { out: ok(1), weight: Q.rat(1, 8) }, { out: stuck, weight: Q.rat(1, 16) },
      { out: { kind: 'fuel' as const }, weight: Q.rat(1, 4) }, { out: ok(1), weight: Q.rat(1, 4) }, { out: { ...stuck }, weight: Q.rat(3, 16) },
    ], (c) => c, (x) => x);
    expect(entries(a.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`)).toEqual(['[]:1 ↦ 3/8']);
    expect(a.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`)).toEqual(['fuel ↦ 3/8', 'stuck Prim: binop_+ on a record ↦ 1/4']);
    expect(Q.show(a.mass)).toBe('3/8');
    expect(Q.show(a.modelDeficit)).toBe('0');
  });

  it('assembleEvaluation and finalKey key each final by its own conversation (kept for the last one): interleaved, equal but distinct objects, one shared', () => {
    const v = (n: number) => ({ kind: 'label' as const, label: US.bottom, body: { kind: 'num' as const, value: Q.rat(n, 1) } });
    const c0 = { label: US.bottom, messages: ['a'] }, c1 = { label: US.bottom, messages: ['b'] }, c0again = { label: US.bottom, messages: ['a'] };
    const cHigh = { label: US.S, messages: ['a'] };
    const ok = (conv: typeof c0, n: number) => ({ kind: 'ok' as const, conv, value: v(n) });
    const w = Q.rat(1, 8);
    // Internal conversations C0, C0, C1, C0, C0′ (equal to C0, another object), Chigh: the conversion runs once per run of
    // one internal object (5 times), and every final is keyed by its own conversation.
    let conversions = 0;
    const a = assembleEvaluation(lat, [
      { out: ok(c0, 1), weight: w }, { out: ok(c0, 2), weight: w }, { out: ok(c1, 1), weight: w },
      { out: ok(c0, 1), weight: w }, { out: ok(c0again, 1), weight: w }, { out: ok(cHigh, 1), weight: w },
    ], (c) => { conversions++; return { label: c.label, messages: c.messages }; }, (x) => x);
    expect(conversions).toBe(5);
    expect(entries(a.finals).map(([f, wt]) => `${lat.show(f.conv.label)} ${f.conv.messages.join(',')} ${render(lat, f.value)} ↦ ${Q.show(wt)}`).sort()).toEqual([
      '["S"] a []:1 ↦ 1/8', '[] a []:1 ↦ 3/8', '[] a []:2 ↦ 1/8', '[] b []:1 ↦ 1/8',
    ]);
    // finalKey on its own: the same key for equal contents, whichever object came before.
    const key = finalKey(lat);
    const f = (conv: typeof c0) => ({ conv, value: v(1) });
    const keys = [key(f(c0)), key(f(c1)), key(f(c0again)), key(f(c0)), key(f(cHigh))];
    expect(keys[0]).toBe(keys[2]);
    expect(keys[0]).toBe(keys[3]);
    expect(new Set(keys).size).toBe(3);
  });
});

/**
 * Found by mutation testing (docs/mutation.md, "Evaluator v2"): a restored choice point's frames must carry their
 * own fuel (a wrong or missing fuel shows only where some premise below the branch runs out), a path that ends
 * with no outcome (a model that answers nothing) adds nothing, and the step allowance of a depth-first run is
 * what lets a tight step budget that the general machine fits in still be met.
 */
describe('depth-first fast path: fuel, empty paths and the step allowance', () => {
  it('every fuel from 1 up: the same answers as the substitution evaluator, frames below the branch included', () => {
    const programs = [
      loop(3, `acc + str(${FLIP})`, '""'),
      loop(3, `[acc, ${FLIP}, n]`, '0'),
      loop(2, `acc + str({a: ${FLIP}, b: 2}.a) + str([${FLIP}, 5].[0])`, '""'),
      `let x0 = ${FLIP} in let x1 = ${FLIP} in let x2 = ${FLIP} in x0 + x1 + x2`,
      loop(3, `acc + str(${FLIP})`, '""', '@acc'),
    ];
    for (const src of programs) {
      const e = program(src);
      let depthFirst = 0;
      let afterBranch = 0;
      let complete = false;
      for (let fuel = 1; !complete; fuel++) {
        const spec = evaluate(coin, lat, US.bottom, start, e, fuel, { engine: 'substitution' });
        const p1 = evaluateV2(coin, lat, US.bottom, start, e, fuel, { probation: 1, afterBranch: 0 });
        expect(table(p1), `${src} at fuel ${fuel}`).toEqual(table(spec));
        depthFirst += p1.directDepthFirst;
        // The root's own run going on past its first branch (the default), at the same fuel.
        const past = evaluateV2(coin, lat, US.bottom, start, e, fuel, { probation: 1 });
        expect(table(past), `${src} at fuel ${fuel}, past the first branch`).toEqual(table(spec));
        afterBranch += past.directAfterBranch;
        complete = spec.missing.length === 0;
        expect(fuel, src).toBeLessThan(400);
      }
      expect(depthFirst, `${src}: entries run depth first`).toBeGreaterThan(0);
      expect(afterBranch, `${src}: the root's run went on past its first branch`).toBeGreaterThan(0);
    }
  });

  it('paths that end with no outcome (the model stops answering): missing mass, no outcome, as the substitution evaluator', () => {
    // Answers "1" or "0" with 1/2 each until the conversation holds two "0" answers, then nothing.
    const tired = standardModel('tired', (msgs) => (msgs.filter((x) => x === '0').length >= 2 ? [] : [['1', Q.rat(1, 2)], ['0', Q.rat(1, 2)]]));
    const e = program(loop(5, 'acc + str(@"x")', '""'), tired);
    const spec = evaluate(tired, lat, US.bottom, start, e, 4000, { engine: 'substitution' });
    expect(Q.isZero(spec.modelDeficit)).toBe(false);
    for (const probation of [undefined, 1]) {
      const r = evaluateV2(tired, lat, US.bottom, start, e, 4000, probation === undefined ? {} : { probation, afterBranch: 0 });
      expect(table(r), `probation ${probation}`).toEqual(table(spec));
      expect(Q.show(r.modelDeficit)).toBe(Q.show(spec.modelDeficit));
      if (probation === 1) expect(r.directDepthFirst).toBeGreaterThan(0);
    }
  });

  it('a step budget 1.6× what the general machine needs is still met: depth-first runs give up past half of it', () => {
    // Depth first this loop costs ≈ 1.8× the general machine's rule applications (no memo); without the step
    // allowance the runs would exhaust this budget instead of handing over to the rounds.
    const e = program(loop(10, `acc + str(${FLIP})`, '""'));
    const general = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { direct: false });
    const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { maxSteps: Math.round(1.6 * general.steps) });
    expect(entries(r.finals)).toHaveLength(1024);
    expect(entries(r.finals).every(([, w]) => Q.eq(w, Q.rat(1, 1024)))).toBe(true);
    expect(r.directDepthFirst).toBeGreaterThan(0);
  });
});
