/**
 * A non-tail recursion's lane (src/semantics/v2/lane.ts `recursionLane`, direct.ts `recursionBlock`): a recursion
 * `if C then B else P op f A…` (or `f A… op P`) of one or more arguments on small integers runs whole as one generated function, all or nothing. The
 * generator is a small compiler and the lane stands for a recursion's every rule application, so it is held to v2's
 * general machine (which does not use it) on generated recursions: random conditions, base cases, pending operands
 * and arguments over `+ − * %`, constants near 2^53 (a fold that leaves the small integers part-way up), modulo by
 * zero, fuel just enough or just too little for the depth, and a step budget; the same outcomes, missing mass and
 * rule applications, and the lane must have run and must have given up on some. And at every fuel from 1 up, a small
 * recursion gives the substitution evaluator's answer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { failureKey } from '../src/semantics/config.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import { render } from './helpers/render.ts';
import { arith, childRun, CMP, countdown, literal } from './helpers/lane-programs.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };
const prelude = loadPrelude(lat, coin.preludeSource);

type Engine = 'v2' | 'v2-general' | 'substitution';

/** Outcomes, missing mass, rule applications and recursion-lane levels of `src`, or 'budget'. */
function run(src: string, fuel: number, engine: Engine, maxSteps?: number): { rows: string[]; steps: number; levels: number } | 'budget' {
  try {
    const e = closeProgram(parse(src, lat), prelude), budget = maxSteps === undefined ? {} : { maxSteps };
    const r = engine === 'substitution'
      ? evaluate(coin, lat, US.bottom, start, e, fuel, { engine: 'substitution', ...budget })
      : evaluateV2(coin, lat, US.bottom, start, e, fuel, { direct: engine === 'v2', ...budget });
    return {
      rows: [
        ...entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`),
        ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`),
      ],
      steps: r.steps,
      levels: 'fused' in r ? (r as { fused: { recursion: number } }).fused.recursion : 0,
    };
  } catch (e) {
    if (e instanceof BudgetExceeded) return 'budget';
    throw e;
  }
}


/** The exit: mostly n counting down to 0 (the call on the side the condition picks while n > 0), sometimes any condition. */
const anyCondition = fc.record({
  cond: fc.oneof(
    fc.tuple(arith(['n', 'k']), fc.constantFrom(...CMP), arith(['n', 'k'])).map(([x, c, y]) => `${x} ${c} ${y}`),
    arith(['n', 'k']),
  ),
  callIn: fc.constantFrom('else', 'then'),
});
const recursion = fc.record({
  n: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 100, max: 200 })),
  k: fc.integer({ min: -3, max: 3 }),
  step: fc.oneof({ arbitrary: fc.constantFrom('n - 1', 'n - 2', '(n - 1) % 1000', 'n - 1 - k * 0'), weight: 4 }, fc.constant('n + 1')),
  exit: fc.oneof({ arbitrary: countdown, weight: 3 }, anyCondition),
  base: arith(['n', 'k']),
  pending: fc.oneof({ arbitrary: fc.constantFrom('n', 'k', '1', '2'), weight: 2 }, arith(['n', 'k'])),
  op: fc.oneof({ arbitrary: fc.constant('+'), weight: 3 }, fc.constantFrom('-', '*', '%')),
  // The self-call first (`f A op P`: P read after it returns) or second.
  callFirst: fc.boolean(),
  // A second parameter z (and its argument), read by the condition, the base and the pending operand, or none.
  z: fc.option(fc.record({ init: literal, arg: arith(['n', 'k', 'z']), uses: fc.constantFrom('cond', 'base', 'pending', 'none') }), { nil: undefined }),
});
type Recursion = typeof recursion extends fc.Arbitrary<infer T> ? T : never;
const source = (r: Recursion): string => {
  const z = r.z, fz = z === undefined ? `f (${r.step})` : `f (${r.step}) ${z.arg}`;
  const pending = z?.uses === 'pending' ? `(${r.pending} + z)` : r.pending, base = z?.uses === 'base' ? `(${r.base} - z)` : r.base;
  const cond = z?.uses === 'cond' ? `z + ${r.exit.cond}` : r.exit.cond, callIn = r.exit.callIn;
  const call = r.callFirst ? `${fz} ${r.op} ${pending}` : `${pending} ${r.op} ${fz}`;
  const body = callIn === 'else' ? `if ${cond} then ${base} else ${call}` : `if ${cond} then ${call} else ${base}`;
  return z === undefined ? `let k = ${r.k} in let g = fix (\\f. \\n. ${body}) in g ${r.n}` : `let k = ${r.k} in let g = fix (\\f. \\n. \\z. ${body}) in g ${r.n} ${z.init}`;
};

const SUM = 'let sum = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in';

describe('the recursion lane (v2/lane.ts recursionLane, direct.ts recursionBlock)', () => {
  it('generated recursions: the same outcomes, missing mass and rule applications as v2\'s general machine, at any fuel and under a step budget', () => {
    let laned = 0, refused = 0;
    fc.assert(fc.property(
      recursion,
      // Fuel: plenty or little, or about what the depth takes (6 a level, 5 with two arguments: `d` more), so that the deepest levels are
      // entered with just enough or just too little, for the rules and for the lane's bound.
      fc.oneof(fc.constantFrom(120, 400, 30_000), fc.integer({ min: 60, max: 500 }), fc.record({ d: fc.integer({ min: -30, max: 120 }) }), fc.record({ d: fc.integer({ min: 120, max: 400 }) })),
      fc.option(fc.integer({ min: 200, max: 9_000 }), { nil: undefined }),
      (r, f, budget) => {
        const src = source(r), fuel = typeof f === 'number' ? f : Math.max(1, (r.z === undefined ? 6 : 5) * r.n + f.d);
        const fast = run(src, fuel, 'v2', budget), general = run(src, fuel, 'v2-general', budget);
        if (fast === 'budget' || general === 'budget') {
          expect(fast, src).toBe(general);
          return;
        }
        expect(fast.rows, src).toEqual(general.rows);
        expect(fast.steps, `${src}: rule applications`).toBe(general.steps);
        if (fast.levels > 0) laned++;
        else if (r.n > 3 && fast.rows.length === 1 && !fast.rows[0]!.startsWith('fuel')) refused++;
      },
    ), { numRuns: 1_000, seed: 12_033 });
    // Not vacuous (with this seed: 99 and 303 of the 1,000): the lane ran on a good share of the recursions, and on
    // others (a fold past 2^53, a modulo by zero, a non-number, fuel or budget) it gave up and the rules gave the answer.
    expect(laned).toBeGreaterThan(80);
    expect(refused).toBeGreaterThan(200);
  });

  it('a small recursion at every fuel from 1 (the lane\'s fuel bound and each premise\'s): the substitution evaluator\'s answer, the general machine\'s count', () => {
    let levels = 0;
    for (const src of [`${SUM} sum 12`, 'let k = 2 in let g = fix (\\f. \\n. if n < 1 then k * 3 else (n % 5) * k - f (n - 1)) in g 11', 'let g = fix (\\f. \\n. if n > 0 then f (n - 1) - n % 4 else 7) in g 12', 'let g = fix (\\f. \\n. \\z. if n == 0 then z else n * 2 + f (n - 1) (z + 1)) in g 11 3']) {
      for (let fuel = 1; fuel <= 260; fuel++) {
        const fast = run(src, fuel, 'v2'), spec = run(src, fuel, 'substitution'), general = run(src, fuel, 'v2-general');
        expect(fast, `${src} at fuel ${fuel}`).not.toBe('budget');
        if (fast === 'budget' || spec === 'budget' || general === 'budget') return;
        expect(fast.rows, `${src} at fuel ${fuel}`).toEqual(spec.rows);
        expect(fast.steps, `${src} at fuel ${fuel}: rule applications`).toBe(general.steps);
        levels += fast.levels;
      }
    }
    expect(levels).toBeGreaterThan(0);
  });

  it('at the depth\'s fuel boundary (6 a level for one argument, 5 for two), every fuel: the general machine\'s answer and count, the lane on one side of its bound', () => {
    for (const [src, perLevel] of [[`${SUM} sum 150`, 6], ['let g = fix (\\f. \\n. \\z. if n == 0 then z else n + f (n - 1) z) in g 150 0', 5]] as const) {
      let laned = 0, not = 0;
      for (let fuel = perLevel * 150 - 20; fuel <= perLevel * 150 + 160; fuel++) {
        const fast = run(src, fuel, 'v2'), general = run(src, fuel, 'v2-general');
        expect(fast, `${src} at fuel ${fuel}`).not.toBe('budget');
        if (fast === 'budget' || general === 'budget') return;
        expect(fast.rows, `${src} at fuel ${fuel}`).toEqual(general.rows);
        expect(fast.steps, `${src} at fuel ${fuel}: rule applications`).toBe(general.steps);
        if (fast.levels > 0) laned++; else not++;
      }
      // Both sides of the lane's fuel bound were met: below it the rules ran (out of fuel, or not), above it the lane.
      expect(laned, src).toBeGreaterThan(20);
      expect(not, src).toBeGreaterThan(20);
    }
  });

  it('sum 5000 and sum 10^6 run in the lane below their first call (the first call enters the fix\'s closure, not `saturated`)', () => {
    const r = run(`${SUM} sum 5000`, 1_000_000, 'v2');
    expect(r).not.toBe('budget');
    if (r === 'budget') return;
    expect(r.rows).toEqual([`[]:${(5000 * 5001) / 2} ↦ 1`]);
    expect(r.levels).toBe(4_999);
    // And 10^6 deep: no frame, no stack; the pending operands as doubles.
    const deep = run(`${SUM} sum 1000000`, 1_000_000_000, 'v2');
    expect(deep).not.toBe('budget');
    if (deep === 'budget') return;
    expect(deep.rows).toEqual(['[]:500000500000 ↦ 1']);
    expect(deep.levels).toBe(999_999);
  });

  it('a product past 2^53 gives up (all or nothing) and the rules give the exact big integer', () => {
    const fact = 'let fact = fix (\\f. \\n. if n == 0 then 1 else n * f (n - 1)) in fact 25';
    const r = run(fact, 1_000_000, 'v2'), general = run(fact, 1_000_000, 'v2-general');
    expect(r).not.toBe('budget');
    if (r === 'budget' || general === 'budget') return;
    expect(r.rows).toEqual(['[]:15511210043330985984000000 ↦ 1']);
    expect(r.levels).toBe(0);
    expect(r.steps).toBe(general.steps);
  });

  it('where code generation from strings is forbidden, v2 runs the recursion without a lane and gives the same answer and rule applications', () => {
    const prog = 'let sum = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in sum 5000';
    const allowed = childRun(prog, [], ['recursion', 'fix']), forbidden = childRun(prog, ['--disallow-code-generation-from-strings'], ['recursion', 'fix']);
    expect(allowed).toMatchObject({ value: '12502500', weight: '1', recursion: 4_999, fix: 5_000 });
    expect(forbidden).toEqual({ ...allowed, recursion: 0 });
  });
});
