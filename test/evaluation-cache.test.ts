/**
 * The evaluations shared by the suites of a process (src/llmbda/evaluation-cache.ts): an equal configuration
 * gets the evaluation done before, every part of a configuration is part of its key (a configuration differing in
 * any one part is evaluated afresh, and gets what a plain `evaluate` gives), a configuration over the step budget is
 * discarded again without running (and is kept without the machine its error's stack held), the table stays within its bounds, and the suites `check` groups as drawing the
 * same cases do (their later members evaluate nothing new).
 */
import { describe, it, expect, beforeEach } from 'vitest';
import { equals } from '../src/distributions/subdist.ts';
import { chain, powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { REFERENCE } from '../src/semantics/rules.ts';
import { SKIPPING } from '../src/skipping/skipping.ts';
import { BudgetExceeded } from '../src/semantics/errors.ts';
import * as Q from '../src/distributions/rational.ts';
import {
  clearSharedEvaluations, evaluateShared, sharedEvaluationStats, SHARED_EVALUATIONS, SHARED_OUTCOMES, type CaseRun,
} from '../src/llmbda/evaluation-cache.ts';
import { CASE_FAMILIES, familyOrder, type Job } from '../src/api/jobs.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { llmbdaSuiteByName } from '../src/api/registry.ts';
import { runSuite } from '../src/runner/suite.ts';

const lat = powersetUS;
const { S, U } = US;

function program<L>(src: string, l: Lattice<L> = lat as unknown as Lattice<L>) {
  return closeProgram(parse(src, l, { file: 'test' }), loadPrelude(l, coinModel(Q.rat(1n, 2n)).preludeSource));
}

const SRC = 'let r = (fork @"flip").[1] in let _ = send r in r';
/** A configuration with a random choice, a send (so the conversation is in the result) and a label from pc. */
const base = (): CaseRun<USLabel> => ({
  model: coinModel(Q.rat(1n, 2n)), pc: US.bottom, conv: { label: US.bottom, messages: [] }, expr: program(SRC),
  fuel: 50, semantics: REFERENCE, maxSteps: 10_000,
});

/** What a plain `evaluate` gives for the configuration (or the error it throws). */
function plain<L>(l: Lattice<L>, r: CaseRun<L>): Evaluation<L> | Error {
  try {
    return evaluate(r.model, l, r.pc, r.conv, r.expr, r.fuel, { semantics: r.semantics, maxSteps: r.maxSteps, ...(r.observer !== undefined ? { observer: r.observer } : {}) });
  } catch (e) {
    return e as Error;
  }
}
function shared<L>(l: Lattice<L>, r: CaseRun<L>): Evaluation<L> | Error {
  try {
    return evaluateShared(l, r);
  } catch (e) {
    return e as Error;
  }
}
/** The same result: equal finals and missing mass, or errors of the same kind and message. */
function same<L>(a: Evaluation<L> | Error, b: Evaluation<L> | Error): boolean {
  if (a instanceof Error || b instanceof Error) return a instanceof Error && b instanceof Error && a.name === b.name && a.message === b.message;
  return equals(a.finals, b.finals) && a.missing.length === b.missing.length && a.missing.every((m, i) => Q.eq(m.weight, b.missing[i]!.weight)) && Q.eq(a.mass, b.mass);
}

beforeEach(() => clearSharedEvaluations());

describe('a configuration is evaluated once', () => {
  it('an equal configuration built afresh gets the same evaluation object', () => {
    const first = evaluateShared(lat, base());
    const again = evaluateShared(lat, base()); // new objects throughout: program parsed again, new conversation
    expect(again).toBe(first);
    expect(sharedEvaluationStats()).toMatchObject({ hits: 1, misses: 1, configurations: 1 });
    expect(same(first, plain(lat, base()))).toBe(true);
  });

  // Each variant differs from the base in one part and evaluates to something else, so a key without that part
  // would hand it the base's evaluation: the test fails for any part left out of `runKey`.
  const variants: [string, (r: CaseRun<USLabel>) => CaseRun<USLabel>][] = [
    ['fuel', (r) => ({ ...r, fuel: 3 })],
    ['step budget', (r) => ({ ...r, maxSteps: 5 })],
    ['pc', (r) => ({ ...r, pc: U })],
    ["the conversation's label", (r) => ({ ...r, conv: { ...r.conv, label: S } })],
    ["the conversation's messages", (r) => ({ ...r, conv: { ...r.conv, messages: ['hello'] } })],
    ['model', (r) => ({ ...r, model: coinModel(Q.rat(1n, 3n)) })],
    ['program', (r) => ({ ...r, expr: program('let r = (fork @"flip").[1] in let _ = send r in [r]') })],
    ['semantics (skipping, observer ⊥)', (r) => ({ ...r, semantics: SKIPPING, observer: US.bottom, pc: U })],
  ];
  it.each(variants)('a configuration differing in its %s is evaluated afresh, as plain evaluate does', (_, change) => {
    const b = shared(lat, base());
    const v = change(base());
    const want = plain(lat, v);
    expect(same(want, b)).toBe(false); // the variant really evaluates to something else
    const got = shared(lat, v);
    expect(same(got, want)).toBe(true);
    expect(sharedEvaluationStats().misses).toBe(2);
  });

  it('the observer is part of the key (skipping, pc U: observer ⊥ skips, observer U does not)', () => {
    const at = (observer: USLabel): CaseRun<USLabel> => ({ ...base(), pc: U, semantics: SKIPPING, observer });
    const low = shared(lat, at(US.bottom));
    const high = shared(lat, at(U));
    expect(same(low, high)).toBe(false);
    expect(same(high, plain(lat, at(U)))).toBe(true);
  });

  it('the lattice object is the table: an equal-looking lattice built apart shares nothing', () => {
    const a = chain(3), b = chain(3);
    const run = (l: Lattice<number>): CaseRun<number> => ({ model: coinModel(Q.rat(1n, 2n)), pc: l.bottom, conv: { label: l.bottom, messages: [] }, expr: program('(fork @"flip").[1]', l), fuel: 20, semantics: REFERENCE, maxSteps: 1000 });
    evaluateShared(a, run(a));
    evaluateShared(b, run(b));
    expect(sharedEvaluationStats()).toMatchObject({ hits: 0, misses: 2 });
    // The registry gives one object per name, so jobs on chain(3) share.
    expect(latticeByName('chain(3)')).toBe(latticeByName(' chain( 3 ) '));
    expect(latticeByName('product(two-point,chain(2))')).toBe(latticeByName('two-point×chain(2)'));
  });
});

describe('over the step budget', () => {
  it('is discarded again without running: a BudgetExceeded saying the same, and a larger budget evaluates afresh', () => {
    const loop: CaseRun<USLabel> = { ...base(), expr: program('let f = fix (\\f. \\n. if n == 0 then 0 else f (n - 1)) in f 1000'), fuel: 5000, maxSteps: 200 };
    const first = shared(lat, loop);
    expect(BudgetExceeded.is(first)).toBe(true);
    const again = shared(lat, { ...loop, expr: program('let f = fix (\\f. \\n. if n == 0 then 0 else f (n - 1)) in f 1000') });
    expect(BudgetExceeded.is(again)).toBe(true);
    const said = (e: unknown) => { const b = e as BudgetExceeded; return [b.message, b.limit, b.value]; };
    expect(said(again)).toEqual(said(first));
    expect(sharedEvaluationStats()).toMatchObject({ hits: 1, misses: 1 });
    const roomy = shared(lat, { ...loop, maxSteps: 1_000_000 });
    expect(BudgetExceeded.is(roomy)).toBe(false);
    expect(same(roomy, plain(lat, { ...loop, maxSteps: 1_000_000 }))).toBe(true);
  });

  it('an error that is not the budget is not remembered; the semantics object is the table', () => {
    const broken = { ...REFERENCE, name: 'throws-on-send', rules: { ...REFERENCE.rules, Send: () => { throw new Error('rule failed'); } } } as typeof REFERENCE;
    evaluateShared(lat, base()); // the same configuration under the reference: not what the variant gets
    const r: CaseRun<USLabel> = { ...base(), semantics: broken };
    expect(() => evaluateShared(lat, r)).toThrow('rule failed');
    expect(() => evaluateShared(lat, r)).toThrow('rule failed');
    expect(sharedEvaluationStats()).toMatchObject({ configurations: 1, misses: 3 });
  });
});

describe('bounds', () => {
  it(`keeps at most ${SHARED_EVALUATIONS} configurations, dropping the oldest first`, () => {
    const lit = (n: number): CaseRun<USLabel> => ({ ...base(), expr: program(String(n)) });
    for (let n = 0; n < SHARED_EVALUATIONS + 10; n++) evaluateShared(lat, lit(n));
    expect(sharedEvaluationStats().configurations).toBe(SHARED_EVALUATIONS);
    const { misses } = sharedEvaluationStats();
    evaluateShared(lat, lit(SHARED_EVALUATIONS + 9)); // the newest: kept
    evaluateShared(lat, lit(0)); // the oldest: dropped
    expect(sharedEvaluationStats().misses).toBe(misses + 1);
  });

  const flips = (n: number, fuel: number): CaseRun<USLabel> => ({
    ...base(), fuel, maxSteps: 1_000_000,
    expr: program(`let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str((fork @"flip").[1]))) in go ${n} ""`),
  });

  it(`does not keep a result of more than ${SHARED_OUTCOMES / 8} outcomes`, () => {
    const big = evaluateShared(lat, flips(13, 400));
    expect(big.finals.size).toBe(2 ** 13);
    expect(sharedEvaluationStats().configurations).toBe(0);
  });

  it(`keeps at most ${SHARED_OUTCOMES} outcomes in all`, () => {
    // 1,024 outcomes each, distinct by fuel (never reached): 33 of them hold more than the bound.
    for (let k = 0; k < 33; k++) evaluateShared(lat, flips(10, 300 + k));
    const st = sharedEvaluationStats();
    expect(st.outcomes).toBeLessThanOrEqual(SHARED_OUTCOMES);
    expect(st.configurations).toBe(Math.floor(SHARED_OUTCOMES / 1025));
  });
});

describe("check's families of suites drawing the same cases", () => {
  const RUNS = 150;
  /**
   * Run a family's members in order on one lattice with the shared table on: the misses of each member after the
   * first, and how many cases the members before it discarded (a case discarded over the budget at its first
   * evaluation leaves the configurations after it unevaluated, and a later member may meet those).
   */
  function membersAfterFirst(family: readonly string[], latName: string): { name: string; misses: number; discardedBefore: number }[] {
    clearSharedEvaluations();
    const ctx = referenceCtx(latticeByName(latName)!, { shared: true });
    const out: { name: string; misses: number; discardedBefore: number }[] = [];
    let discarded = 0;
    family.forEach((name, i) => {
      const before = sharedEvaluationStats().misses;
      const v = runSuite(llmbdaSuiteByName(name)!, ctx, { runs: RUNS, seed: 7 });
      expect(v.status).toBe('holds');
      if (i > 0) out.push({ name, misses: sharedEvaluationStats().misses - before, discardedBefore: discarded });
      discarded += v.discarded;
    });
    return out;
  }

  it.each(SHIPPED_LATTICES)('on %s the later members evaluate nothing new', (latName) => {
    const lat = latticeByName(latName)!;
    let fresh = 0;
    for (const [family, members] of Object.entries(CASE_FAMILIES)) {
      for (const m of membersAfterFirst(members, latName)) {
        // Insulated TIPNI draws TIPNI's cases only where every observer is I-maximal and no label factors.
        if (m.name === 'insulated-tipni' && (lat.factoring || latName.startsWith('powerset'))) { fresh += m.misses; continue; }
        // Otherwise only the sides of cases discarded before (two per pair, one per single case) can be new.
        expect({ family, ...m, ok: m.misses <= 2 * m.discardedBefore }).toEqual({ family, ...m, ok: true });
      }
    }
    if (latName === 'powerset-us') expect(fresh).toBeGreaterThan(0); // the exception is real: drop it when it is not
  });

  it('familyOrder puts a group together, in its family order, tags only groups of two or more, and costs a group as a whole', () => {
    const job = (suite: string, lattice: string): Job => ({ suite, lattice, runs: 100, seed: 1 });
    const jobs = [job('stripping', 'a'), job('stripping', 'b'), job('tipni', 'a'), job('lemma4', 'a'), job('leakage', 'a'), job('high-blindness', 'a'), job('lemma5', 'a'), job('lemma13', 'b')];
    const { jobs: ordered, cost } = familyOrder(jobs);
    expect(ordered.map((j) => `${j.suite}/${j.lattice}`)).toEqual([
      'stripping/a', 'high-blindness/a', 'stripping/b', 'lemma13/b', 'tipni/a', 'lemma5/a', 'leakage/a', 'lemma4/a',
    ]);
    expect(ordered.filter((j) => j.group === undefined).map((j) => j.suite)).toEqual(['lemma4']);
    expect(new Set(ordered.slice(0, 2).map(cost)).size).toBe(1);
    expect(cost(ordered[0]!)).toBeGreaterThan(cost(ordered[7]!));
    // check --no-shared: the same order, no job shares.
    const alone = familyOrder(jobs, { share: false });
    expect(alone.jobs.map((j) => `${j.suite}/${j.lattice}`)).toEqual(ordered.map((j) => `${j.suite}/${j.lattice}`));
    expect(alone.jobs.every((j) => j.group === undefined)).toBe(true);
  });
});
