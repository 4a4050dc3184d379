/**
 * Evaluator v2 under the evaluation limits (issue 12): the two programs of test/semantics-limits.test.ts
 * that exhausted the heap when `evaluate` first ran them on v2, run here on BOTH engines explicitly.
 *
 * (a) v2 checked `maxOutcomes` on a task's result and round but not on the frontier of partial runs of a
 *     record/array literal, so a literal of 30 branching elements built 2^30 partial runs. The substitution
 *     evaluator (rules.ts `evalAll`) checks that frontier after every element; so does v2 now. The literal
 *     below makes the difference observable without a heap death: its partial runs are 2^10 distinct
 *     conversations, but its final `clear` merges them into ONE outcome, so only the frontier check stops it.
 * (b) `[(@"a").[1], 7, (@"b").[1]]` rendered by test/helpers/render.ts: expected values written by hand.
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type EvalOptions } from '../src/semantics/evaluate.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { showConversation } from '../src/semantics/config.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const ENGINES = ['substitution', 'v2'] as const;

function run(src: string, opts: EvalOptions<number>, fuel = 200) {
  const expr = closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource));
  return evaluate(coin, lat, US.bottom, { label: US.bottom, messages: [] }, expr, fuel, opts);
}

/** k elements that each answer 0 after a fresh question (2^k conversations), then `clear`: one final outcome. */
const mergingLiteral = (k: number): string =>
  `[${Array.from({ length: k }, (_, i) => `(\\_. 0) (@"e${i}")`).join(', ')}, clear]`;

describe.each(ENGINES)('engine %s: maxOutcomes bounds the partial runs of a literal', (engine) => {
  it('below the limit: 2^10 partial runs merge into one outcome of weight 1', () => {
    const res = run(mergingLiteral(10), { engine, maxOutcomes: 1024 });
    const out = entries(res.finals).map(([f, w]) => `${render(lat, f.value)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`);
    expect(out).toEqual([`[]:[${Array.from({ length: 10 }, () => '[]:0').join(', ')}, []:{}] @ []:[] ↦ 1`]);
  });

  it('above it: the frontier of 2^10 partial runs exceeds maxOutcomes = 500 although the result has one outcome', () => {
    let err: unknown;
    try {
      run(mergingLiteral(10), { engine, maxOutcomes: 500 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BudgetExceeded);
    expect((err as BudgetExceeded).limit).toBe('outcomes');
    expect((err as BudgetExceeded).message).toMatch(/outcome limit reached .*500/);
  });

  // Found by mutation testing (machine.ts 400–502, docs/mutation.md run 8): the limit on a task's result was only met
  // where a round or a literal's frontier reached it first. Here every round holds at most two configurations while
  // the result collects eight outcomes (0 … 6 and 99), one per iteration.
  it('a result of exactly maxOutcomes distinct outcomes is allowed; one more than the limit stops', () => {
    const src = 'let go = fix (\\go. \\n. if (fork @"flip").[1] == 1 then n else if n == 6 then 99 else go (n + 1)) in go 0';
    expect(entries(run(src, { engine, maxOutcomes: 8 }).finals)).toHaveLength(8);
    expect(() => run(src, { engine, maxOutcomes: 7 })).toThrow(/outcome limit reached .*7/);
  });

  it('the literal of 30 branching elements that exhausted the heap on v2 stops at maxOutcomes = 500', () => {
    expect(() => run(`[${Array.from({ length: 30 }, (_, i) => `@"e${i}"`).join(', ')}]`, { engine, maxOutcomes: 500 })).toThrow(/outcome limit reached/);
  });

  it('branching elements rendered by the test helper: four runs of 1/4 (expected by hand)', () => {
    const res = run('[(@"a").[1], 7, (@"b").[1]]', { engine });
    expect(entries(res.finals).map(([f, w]) => `${render(lat, f.value)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`).sort()).toEqual([
      '[]:[[]:0, []:7, []:0] @ []:["a", "0", "b", "0"] ↦ 1/4',
      '[]:[[]:0, []:7, []:1] @ []:["a", "0", "b", "1"] ↦ 1/4',
      '[]:[[]:1, []:7, []:0] @ []:["a", "1", "b", "0"] ↦ 1/4',
      '[]:[[]:1, []:7, []:1] @ []:["a", "1", "b", "1"] ↦ 1/4',
    ]);
  });
});

// Found by mutation testing (machine.ts 1–420, docs/mutation.md run 11): the limit on a ROUND (the tail premises
// waiting for the next round, `addNextKeyed`) was only ever met by rounds far past it, so `>` → `≥` survived. Here
// the loop's last round holds the six configurations `go 0 acc` (acc = 0 … 5) while every distribution built on the
// way holds at most two outcomes (a flip's) and the result one (0): only the round can reach the limit.
describe('v2: a round of exactly maxOutcomes distinct configurations', () => {
  const src = 'let go = fix (\\loop. \\n. \\acc. if n == 0 then 0 else loop (n - 1) (acc + (fork @"flip").[1])) in go 5 0';
  const v2 = (maxOutcomes: number) => {
    const expr = closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource));
    return evaluateV2(coin, lat, US.bottom, { label: US.bottom, messages: [] }, expr, 200, { maxOutcomes });
  };

  it('is allowed (the peak round is the limit, the result is 0 with weight 1); one configuration fewer stops', () => {
    const ok = v2(6);
    expect(ok.peakRound).toBe(6);
    expect(entries(ok.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`)).toEqual(['[]:0 ↦ 1']);
    expect(() => v2(5)).toThrow(/outcome limit reached .*5/);
  });
});
