/**
 * A loop block's numeric lane, compiled (src/semantics/v2/lane.ts): the iterations of a fix-defined loop on small
 * integers run as one generated function. The generator is a small compiler, so it is held to v2's general machine
 * (which does not use it) on generated loops: random conditions and arguments over `+ − * %` and the comparisons,
 * constants near 2^53 (results that stop being small integers part-way), modulo by zero, low fuel and a step budget;
 * the same outcomes, missing mass and rule applications, and the lane must have run. And where the host forbids code
 * generation from strings, v2 gives the same answers without a lane.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
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

/** Outcomes, missing mass, rule applications and lane iterations of `src` on v2 (with or without the fast path), or 'budget'. */
function run(src: string, fuel: number, direct: boolean, maxSteps?: number): { rows: string[]; steps: number; lane: number; block: number } | 'budget' {
  try {
    const r = evaluateV2(coin, lat, US.bottom, start, closeProgram(parse(src, lat), prelude), fuel, { direct, ...(maxSteps === undefined ? {} : { maxSteps }) });
    return {
      rows: [
        ...entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`),
        ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`),
      ],
      steps: r.steps,
      lane: r.fused.lane,
      block: r.fused.block,
    };
  } catch (e) {
    if (e instanceof BudgetExceeded) return 'budget';
    throw e;
  }
}


/**
 * A loop `g n a b`: mostly counting n down to its exit (the self-call on the side the condition picks while n > 0),
 * sometimes with a random condition (a comparison or a bare number) on a random side; its arguments arithmetic.
 */
const anyCondition = fc.record({
  cond: fc.oneof(
    fc.tuple(arith(['n', 'a', 'b']), fc.constantFrom(...CMP), arith(['n', 'a', 'b'])).map(([x, c, y]) => `${x} ${c} ${y}`),
    arith(['n', 'a', 'b']),
  ),
  callIn: fc.constantFrom('else', 'then'),
});
const loop = fc.record({
  n: fc.integer({ min: 0, max: 40 }),
  a: literal, b: literal, k: fc.integer({ min: -3, max: 3 }),
  step: fc.oneof({ arbitrary: fc.constantFrom('n - 1', 'n - 2', '(n - 1) % 1000'), weight: 4 }, fc.constant('n + 1')),
  exit: fc.oneof({ arbitrary: countdown, weight: 3 }, anyCondition),
  argA: fc.oneof(
    { arbitrary: arith(['n', 'a', 'b', 'k']), weight: 2 },
    // An accumulator that leaves the small integers after a few iterations: the lane stops there and values go on.
    fc.tuple(fc.constantFrom('+', '-', '*'), fc.constantFrom('1000000000000000', '(0 - 3000000000000000)', '7', '9')).map(([o, y]) => `(a ${o} ${y})`),
  ),
  argB: arith(['n', 'a', 'b', 'k']),
});
type Loop = typeof loop extends fc.Arbitrary<infer T> ? T : never;
const source = (l: Loop): string => {
  const call = `f (${l.step}) ${l.argA} ${l.argB}`, exit = '[n, a, b]', { cond, callIn } = l.exit;
  const body = callIn === 'else' ? `if ${cond} then ${exit} else ${call}` : `if ${cond} then ${call} else ${exit}`;
  return `let k = ${l.k} in let g = fix (\\f. \\n. \\a. \\b. ${body}) in g ${l.n} ${l.a} ${l.b}`;
};

describe('the compiled numeric lane (v2/lane.ts)', () => {
  it('generated loops: the same outcomes, missing mass and rule applications as v2\'s general machine, at any fuel and under a step budget', () => {
    let laned = 0, partial = 0;
    fc.assert(fc.property(loop, fc.constantFrom(150, 400, 3_000, 3_000), fc.option(fc.integer({ min: 200, max: 4_000 }), { nil: undefined }), (l, fuel, budget) => {
      const src = source(l);
      const fast = run(src, fuel, true, budget), general = run(src, fuel, false, budget);
      if (fast === 'budget' || general === 'budget') {
        expect(fast, src).toBe(general);
        return;
      }
      expect(fast.rows, src).toEqual(general.rows);
      expect(fast.steps, `${src}: rule applications`).toBe(general.steps);
      if (fast.lane > 0) laned++;
      // The lane stopped (a result no longer a small integer, modulo by zero, low fuel, the budget) and values went on.
      if (fast.lane > 0 && fast.block > fast.lane) partial++;
    }), { numRuns: 400, seed: 12_032 });
    // Not vacuous (with this seed: 120 and 15 of the 400): the lane ran on a good share of the generated loops, and on
    // some it stopped part-way and the values went on.
    expect(laned).toBeGreaterThan(80);
    expect(partial).toBeGreaterThan(8);
  });

  it('the counter runs in its lane (every iteration but the first, which `saturated` enters)', () => {
    const r = run('let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count 5000 0', 1_000_000, true);
    expect(r).not.toBe('budget');
    if (r === 'budget') return;
    expect(r.rows).toEqual(['[]:5000 ↦ 1']);
    expect(r.lane).toBe(4_999);
  });

  it('where code generation from strings is forbidden, v2 runs the loop without a lane and gives the same answer and rule applications', () => {
    const prog = 'let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count 5000 0';
    const allowed = childRun(prog, [], ['lane', 'block']), forbidden = childRun(prog, ['--disallow-code-generation-from-strings'], ['lane', 'block']);
    expect(allowed).toMatchObject({ value: '5000', weight: '1', lane: 4_999, block: 4_999 });
    expect(forbidden).toEqual({ ...allowed, lane: 0 });
  });
});
