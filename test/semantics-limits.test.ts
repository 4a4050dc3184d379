/**
 * Evaluation limits and literal evaluation (issue 16 part 4): RecordCons/ArrayCons evaluate their
 * elements left to right as a loop (any length, constant stack) with the same distribution as nested
 * premises; `maxOutcomes` and `maxSteps` stop an evaluation with a `BudgetExceeded` that names the limit.
 */
import { DiscardCase } from '../src/util/discard.ts';
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type EvalOptions } from '../src/semantics/evaluate.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, constModel } from '../src/semantics/models/index.ts';
import { showConversation } from '../src/semantics/config.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));

function run(src: string, model: PModel, opts: EvalOptions<number> = {}, fuel = 200) {
  const expr = closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
  return evaluate(model, lat, US.bottom, { label: US.bottom, messages: [] }, expr, fuel, opts);
}

/** `value @ conversation ↦ weight`, in a canonical order. */
function outcomes(src: string, model: PModel, opts: EvalOptions<number> = {}): string[] {
  return entries(run(src, model, opts).finals)
    .map(([f, w]) => `${render(lat, f.value)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`)
    .sort();
}

describe('RecordCons / ArrayCons: elements left to right at pc, threading the conversation', () => {
  it('a 40,000-element array literal evaluates (no stack overflow) to exactly its elements', () => {
    const n = 40000;
    const res = run(`[${Array.from({ length: n }, (_, i) => i).join(', ')}]`, constModel('0'));
    const [only, ...rest] = entries(res.finals);
    expect(rest).toHaveLength(0);
    const body = only![0].value.body;
    expect(body.kind).toBe('array');
    if (body.kind !== 'array') return;
    expect(body.elems).toHaveLength(n);
    expect(body.elems.every((x, i) => x.body.kind === 'num' && Q.eq(x.body.value, Q.rat(i)))).toBe(true);
  });

  it('a 40,000-field record literal keeps every field in order, duplicates included', () => {
    const n = 40000;
    const res = run(`{${Array.from({ length: n }, (_, i) => `f${i % 100}: ${i}`).join(', ')}}`, constModel('0'));
    const body = entries(res.finals)[0]![0].value.body;
    expect(body.kind).toBe('record');
    if (body.kind !== 'record') return;
    expect(body.fields).toHaveLength(n);
    expect(body.fields.every((f, i) => f.name === `f${i % 100}` && f.expr.body.kind === 'num' && Q.eq(f.expr.body.value, Q.rat(i)))).toBe(true);
  });

  it('branching elements: each run keeps its own values and conversation (four runs of 1/4)', () => {
    // Expected by hand: two fair flips, the second sees the first message and answer.
    expect(outcomes('[(@"a").[1], 7, (@"b").[1]]', coin)).toEqual([
      '[]:[[]:0, []:7, []:0] @ []:["a", "0", "b", "0"] ↦ 1/4',
      '[]:[[]:0, []:7, []:1] @ []:["a", "0", "b", "1"] ↦ 1/4',
      '[]:[[]:1, []:7, []:0] @ []:["a", "1", "b", "0"] ↦ 1/4',
      '[]:[[]:1, []:7, []:1] @ []:["a", "1", "b", "1"] ↦ 1/4',
    ]);
    expect(outcomes('{x: (fork @"a").[1], y: (fork @"b").[1]}', coin)).toEqual([
      '[]:{x: []:0, y: []:0} @ []:[] ↦ 1/4',
      '[]:{x: []:0, y: []:1} @ []:[] ↦ 1/4',
      '[]:{x: []:1, y: []:0} @ []:[] ↦ 1/4',
      '[]:{x: []:1, y: []:1} @ []:[] ↦ 1/4',
    ]);
  });

  it("a stuck element loses its run's mass, and later elements do not run in it", () => {
    // Half the runs divide by zero (stuck at the second element); the third element's send never happens there.
    const res = run('let x = (fork @"a").[1] in [x, 1 / x, send "after"]', coin);
    const fs = entries(res.finals);
    expect(fs).toHaveLength(1);
    expect(Q.show(res.mass)).toBe('1/2');
    expect(showConversation(lat, fs[0]![0].conv)).toBe('[]:["after"]');
    expect(res.missing.map((m) => [m.failure.kind === 'stuck' ? m.failure.rule : 'fuel', Q.show(m.weight)])).toEqual([['Prim', '1/2']]);
  });
});

describe('evaluation limits: maxOutcomes and maxSteps stop with a clear BudgetExceeded', () => {
  /** k sequential flips without fork: 2^k distinct conversations. */
  const flips = (k: number): string => Array.from({ length: k }, (_, i) => `let x${i} = @"q${i}" in `).join('') + '0';

  it('below the limit the distribution is exact', () => {
    const res = run(flips(6), coin, { maxOutcomes: 64 });
    expect(entries(res.finals)).toHaveLength(64);
    expect(Q.show(res.mass)).toBe('1');
  });

  it('2^40 branches stop at maxOutcomes = 1000, naming the limit', () => {
    let err: unknown;
    try {
      run(flips(40), coin, { maxOutcomes: 1000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BudgetExceeded);
    const b = err as BudgetExceeded;
    expect(b.limit).toBe('outcomes');
    expect(b.value).toBe(1000);
    expect(DiscardCase.isDiscard(b)).toBe(true);
    expect(b.message).toMatch(/outcome limit reached .*1000 .*--max-outcomes/);
    expect(b.message).not.toContain('\n');
  });

  it('a wide literal of branching elements stops at maxOutcomes too', () => {
    expect(() => run(`[${Array.from({ length: 30 }, (_, i) => `@"e${i}"`).join(', ')}]`, coin, { maxOutcomes: 500 })).toThrow(/outcome limit reached/);
  });

  it('maxSteps stops a long computation, naming the limit', () => {
    let err: unknown;
    try {
      run('fix (\\f. \\n. f (n + 1)) 0', constModel('0'), { maxSteps: 5000 }, 1e6);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BudgetExceeded);
    expect((err as BudgetExceeded).limit).toBe('steps');
    expect((err as BudgetExceeded).message).toMatch(/step limit reached .*5000 .*--max-steps/);
  });
});
