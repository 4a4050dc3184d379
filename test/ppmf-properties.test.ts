import { describe, expect, it } from 'vitest';
import type { Verdict } from '../src/runner/suite.ts';
import { runSuite } from '../src/runner/suite.ts';
import type { MemorySystem } from '../src/ppmf/systems.ts';
import { CONTENT_FILTER, NO_DEFENCE, PPMF } from '../src/ppmf/systems.ts';
import { systemByName } from '../src/ppmf/variants.ts';
import type { Scenario } from '../src/ppmf/scenario.ts';
import { PPMF_SUITES } from '../src/api/registry.ts';
import type { AnyPpmfSuite } from '../src/ppmf/context.ts';
import { ppmfNonAmplification } from '../properties/ppmf-non-amplification.ts';
import { ppmfGateSoundness } from '../properties/ppmf-gate-soundness.ts';
import { ppmfBenignCompleteness } from '../properties/ppmf-benign-completeness.ts';
import { ppmfDecoyRobustness } from '../properties/ppmf-decoy-robustness.ts';
import { ppmfFailClosed } from '../properties/ppmf-fail-closed.ts';
import { ppmfUnrelatedConfirmation } from '../properties/ppmf-unrelated-confirmation.ts';

const RUNS = 300;

function run(suite: AnyPpmfSuite, system: MemorySystem, seed = 1, runs = RUNS): Verdict<unknown> {
  return runSuite(suite, { system }, { runs, seed });
}

/** A failing verdict whose (shrunk) counterexample still fails when re-checked, and tells a story. */
function expectShrunkCounterexample(v: Verdict<unknown>, suite: AnyPpmfSuite, system: MemorySystem): void {
  expect(v.ok).toBe(false);
  expect(v.error).toBeUndefined();
  const cx = v.counterexample;
  expect(cx).toBeDefined();
  if (cx === undefined) return;
  expect(cx.reason.length).toBeGreaterThan(0);
  expect(suite.check(cx.value, { system }).ok).toBe(false);
  expect(cx.pretty).toContain('Task A');
  expect(cx.pretty).toContain('Task B');
}

function scenarioOf(value: unknown): Scenario {
  const v = value as { scenario?: Scenario };
  return v.scenario ?? (value as Scenario);
}

describe('every PPMF property holds on ppmf', () => {
  for (const suite of PPMF_SUITES) {
    it(`${suite.title} — holds on ppmf, not vacuously (seeds 1 and 2)`, () => {
      for (const seed of [1, 2]) {
        const v = run(suite, PPMF, seed);
        expect(v.counterexample?.pretty).toBeUndefined();
        expect(v.vacuous).toEqual([]);
        expect(v.ok).toBe(true);
        expect(v.runs).toBe(RUNS);
      }
    });
  }
});

describe('every PPMF property can fail: a broken system yields a shrunk counterexample', () => {
  it('non-amplification FAILS on no-defence: one untrusted source, one memory claiming user authority', () => {
    const v = run(ppmfNonAmplification, NO_DEFENCE);
    expectShrunkCounterexample(v, ppmfNonAmplification, NO_DEFENCE);
    const sc = scenarioOf(v.counterexample?.value);
    expect(sc.sources).toHaveLength(1);
    expect(sc.sources[0]?.meta.channel).not.toBe('user');
    expect(sc.writer.responses).toHaveLength(1);
    expect(v.counterexample?.reason).toMatch(/believed USER_(CONFIRMED|HISTORY), above its least trusted support EXTERNAL/);
  });
  it('non-amplification FAILS on the no-taint variant (a tool envelope hides an external input)', () => {
    const sys = systemByName('no-taint');
    const v = run(ppmfNonAmplification, sys);
    expectShrunkCounterexample(v, ppmfNonAmplification, sys);
    // The tool envelope's trust (capped at EXTERNAL when the input is external-derived) exceeds its input's.
    expect(v.counterexample?.reason).toMatch(/believed (TRUSTED_TOOL|EXTERNAL), above its least trusted support (EXTERNAL|UNKNOWN)/);
    expect(scenarioOf(v.counterexample?.value).sources.some((o) => o.meta.channel === 'tool')).toBe(true);
  });
  it('gate soundness FAILS on no-defence with the paper story: untrusted page → user workflow memory → call allowed', () => {
    const v = run(ppmfGateSoundness, NO_DEFENCE);
    expectShrunkCounterexample(v, ppmfGateSoundness, NO_DEFENCE);
    const sc = scenarioOf(v.counterexample?.value);
    expect(sc.sources).toHaveLength(1);
    expect(sc.priors).toHaveLength(0);
    expect(sc.decoys).toHaveLength(0);
    expect(v.counterexample?.pretty).toContain('User workflow memory: resume workflow PM-A011');
    expect(v.counterexample?.pretty).toContain('ATTACK SUCCEEDS');
  });
  it('gate soundness FAILS on gate-only (writer-claimed channel) and on loose-confirmation', () => {
    for (const name of ['gate-only', 'loose-confirmation']) {
      const sys = systemByName(name);
      expectShrunkCounterexample(run(ppmfGateSoundness, sys), ppmfGateSoundness, sys);
    }
  });
  it('unrelated confirmation FAILS on loose-confirmation and on blind-pointer', () => {
    for (const name of ['loose-confirmation', 'blind-pointer']) {
      const sys = systemByName(name);
      expectShrunkCounterexample(run(ppmfUnrelatedConfirmation, sys), ppmfUnrelatedConfirmation, sys);
    }
  });
  it('decoy robustness FAILS on max-retrieved (authority of the most trusted retrieved memory)', () => {
    const sys = systemByName('max-retrieved');
    const v = run(ppmfDecoyRobustness, sys);
    expectShrunkCounterexample(v, ppmfDecoyRobustness, sys);
    expect(v.counterexample?.reason).toMatch(/with \d+ decoys: ALLOW/);
  });
  it('decoy robustness judges a case under the system it is given, one system after another on the same case object', () => {
    // The suite keeps a case's branches with decoys for its stats, check and show (ppmf-decoy-robustness.ts): they
    // depend on the system, so the same case object checked under PPMF, then max-retrieved, then PPMF again must get
    // each system's own verdict. (Shown able to fail: the cache without its system check passes max-retrieved's
    // counterexample under PPMF's branches.)
    const sys = systemByName('max-retrieved');
    const cx = run(ppmfDecoyRobustness, sys).counterexample;
    expect(cx).toBeDefined();
    if (cx === undefined) return;
    const c = cx.value as Parameters<typeof ppmfDecoyRobustness.check>[0];
    expect(ppmfDecoyRobustness.check(c, { system: PPMF }).ok).toBe(true);
    expect(ppmfDecoyRobustness.check(c, { system: sys }).ok).toBe(false);
    expect(ppmfDecoyRobustness.check(c, { system: PPMF }).ok).toBe(true);
  });
  it('fail-closed monotonicity FAILS on legacy-default (a missing channel read as the user)', () => {
    const sys = systemByName('legacy-default');
    const v = run(ppmfFailClosed, sys, 1, 1000);
    expectShrunkCounterexample(v, ppmfFailClosed, sys);
    expect(v.counterexample?.pretty).toContain('Corrupted fields');
  });
  it('benign completeness FAILS on ignore-log and on content-filter (over-blocking)', () => {
    for (const sys of [systemByName('ignore-log'), CONTENT_FILTER]) {
      const v = run(ppmfBenignCompleteness, sys);
      expectShrunkCounterexample(v, ppmfBenignCompleteness, sys);
      expect(v.counterexample?.pretty).toContain('FALSE BLOCK');
    }
  });
  it('a failure replays exactly from its seed and path', () => {
    const v = run(ppmfGateSoundness, NO_DEFENCE, 9);
    const cx = v.counterexample;
    expect(cx).toBeDefined();
    if (cx === undefined) return;
    const again = runSuite(ppmfGateSoundness, { system: NO_DEFENCE }, { runs: RUNS, seed: cx.seed, path: cx.path });
    expect(again.counterexample?.pretty).toBe(cx.pretty);
  });
});
