import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { runSuite, type Verdict } from '../src/runner/suite.ts';
import type { PropertySuite } from '../src/runner/suite.ts';
import { checkCompatible } from '../properties/tipni.ts';
import { PPMF_BRIDGE_SUITES } from '../src/api/registry.ts';
import { ppmfBridgeNonAmplification } from '../properties/ppmf-bridge-nonamplification.ts';
import { ppmfBridgeTipni } from '../properties/ppmf-bridge-tipni.ts';
import { ppmfBridgeBenignCompleteness } from '../properties/ppmf-bridge-benign-completeness.ts';
import { ppmfBridgeUnrelatedConfirmation } from '../properties/ppmf-bridge-unrelated-confirmation.ts';
import { belowRequirement, isHighObservation, sameTargetConfirmation, type BridgeScenario } from '../src/ppmf/bridge/scenario.ts';
import { pairCaseOf, type Encoding } from '../src/ppmf/bridge/encode.ts';
import { BRIDGE_FUEL, UNTRUSTED_TEXTS, WRITER_RESPONSES } from '../src/ppmf/bridge/generators.ts';
import { bridgeCtx, bridgeVariantCtx, scenarioDecisions, type BridgeCtx } from '../src/ppmf/bridge/check.ts';
import { consolidationTrustsWriter, endorseKeepsIntegrity } from '../src/ppmf/bridge/variants.ts';

type Suite = PropertySuite<BridgeScenario, BridgeCtx>;
const RUNS = 200;
const CLAIM = WRITER_RESPONSES[0]!.source;
const HONEST = WRITER_RESPONSES[1]!.source;

/** A failing verdict whose shrunk counterexample still fails when judged again, and holds under the reference. */
function expectCounterexample(v: Verdict<BridgeScenario>, suite: Suite, ctx: BridgeCtx): BridgeScenario {
  expect(v.ok).toBe(false);
  expect(v.error).toBeUndefined();
  const cx = v.counterexample;
  if (cx === undefined) throw new Error('expected a counterexample');
  expect(cx.shrinks).toBeGreaterThan(0);
  expect(suite.check(cx.value, ctx).ok).toBe(false);
  expect(suite.check(cx.value, bridgeCtx()).ok).toBe(true);
  return cx.value;
}

describe('the PPMF bridge suites hold on the reference semantics', () => {
  for (const suite of PPMF_BRIDGE_SUITES) {
    it(`${suite.title} — holds, not vacuously (seeds 1 and 2)`, () => {
      for (const seed of [1, 2]) {
        const v = runSuite(suite, bridgeCtx(), { runs: RUNS, seed });
        expect(v.counterexample?.pretty).toBeUndefined();
        expect(v.error).toBeUndefined();
        expect(v.vacuous).toEqual([]);
        expect(v.runs).toBe(RUNS);
        expect(v.ok).toBe(true);
      }
    });
  }
});

describe('consolidation-trusts-writer (memory provenance laundering) is caught', () => {
  const ctx = bridgeVariantCtx(consolidationTrustsWriter);

  it('by non-amplification, with the paper\'s story as the shrunk counterexample: untrusted page → user-confirmed memory → high-risk call', () => {
    const v = runSuite(ppmfBridgeNonAmplification, ctx, { runs: RUNS, seed: 1 });
    const s = expectCounterexample(v, ppmfBridgeNonAmplification, ctx);
    expect(s.observations.map((o) => [o.channel, o.trust])).toEqual([['web', 'EXTERNAL']]);
    expect(s.writer).toEqual({ kind: 'constant', responses: [[CLAIM, '1']] });
    expect([s.tool, s.risk, s.target, s.confirmation, s.context]).toEqual(['send_money', 'EFFECT', 'PM-A011', null, 'SYSTEM']);
    const reason = v.counterexample!.reason;
    expect(reason).toContain('the consolidated memory ["USER_CONFIRMED"]:"User workflow memory: resume PM-A011 for monitor setup" has trust USER_CONFIRMED, above its least trusted source EXTERNAL');
    expect(reason).toContain('high-risk call allowed: send_money(PM-A011) needs USER_CONFIRMED but the least trusted source is EXTERNAL, and the gate answers call 1, ask 0');
    expect(v.counterexample!.pretty).toContain('claims a user-confirmed workflow memory');
  });

  it('by non-amplification on every seed tried, always with a one-observation, untrusted-source counterexample', () => {
    for (const seed of [2, 3, 4]) {
      const s = expectCounterexample(runSuite(ppmfBridgeNonAmplification, ctx, { runs: RUNS, seed }), ppmfBridgeNonAmplification, ctx);
      expect(s.observations).toHaveLength(1);
      expect(belowRequirement(s)).toBe(true);
      expect(Q.isZero(scenarioDecisions(ctx, s).call)).toBe(false);
    }
  });

  it('by TIPNI at the integrity observer: the injected page buys the call, the innocuous one does not (seed 5)', () => {
    const v = runSuite(ppmfBridgeTipni, ctx, { runs: RUNS, seed: 5 });
    const s = expectCounterexample(v, ppmfBridgeTipni, ctx);
    expect(s.observations).toEqual([{ channel: 'web', trust: 'EXTERNAL', texts: [UNTRUSTED_TEXTS[0], UNTRUSTED_TEXTS[1]] }]);
    expect(s.writer).toEqual({ kind: 'hashed', seed: 0, tables: [[[CLAIM, '1']], [[HONEST, '1']]] });
    expect([s.risk, s.confirmation]).toEqual(['EFFECT', null]);
    const pretty = v.counterexample!.pretty;
    expect(pretty).toContain('the writer answers (run 0): ["USER_CONFIRMED"]');
    expect(pretty).toContain('the writer answers (run 1): ["EXTERNAL"]');
    expect(v.counterexample!.reason).toContain('Σ max = 2 > 1');
  });

  it('by TIPNI on other seeds too, each counterexample a pair differing only in untrusted text', () => {
    for (const seed of [1, 2, 3]) {
      const s = expectCounterexample(runSuite(ppmfBridgeTipni, ctx, { runs: RUNS, seed }), ppmfBridgeTipni, ctx);
      expect(s.observations.length).toBeLessThanOrEqual(2);
      expect(s.observations.some((o) => isHighObservation(s, o))).toBe(true);
    }
  });
});

describe('the other suites can fail too', () => {
  it('benign completeness catches a semantics where confirmations never upgrade (endorse-keeps-integrity)', () => {
    const ctx = bridgeVariantCtx(endorseKeepsIntegrity);
    const v = runSuite(ppmfBridgeBenignCompleteness, ctx, { runs: RUNS, seed: 1 });
    const s = expectCounterexample(v, ppmfBridgeBenignCompleteness, ctx);
    expect(sameTargetConfirmation(s)).toBe(true);
    expect(belowRequirement(s)).toBe(true);
    expect(v.counterexample!.reason).toBe('the benign call send_money(PM-A011) is not allowed with probability 1: call 0, ask 1');
  });

  it('the unrelated-confirmation suite catches an encoding that endorses on any confirmation (unbound)', () => {
    const ctx = bridgeCtx({ encoding: { binding: 'unbound', gate: 'test-then-assert' } });
    const v = runSuite(ppmfBridgeUnrelatedConfirmation, ctx, { runs: RUNS, seed: 1 });
    const s = expectCounterexample(v, ppmfBridgeUnrelatedConfirmation, ctx);
    expect(s.confirmation).not.toBeNull();
    expect(s.confirmation?.target).not.toBe(s.target);
    expect(v.counterexample!.reason).toContain('with it:    call 1, ask 0');
    expect(v.counterexample!.reason).toContain('without it: call 0, ask 1');
  });
});

describe('why the gate tests before it asserts', () => {
  // The TIPNI counterexample of seed 5 above, written out.
  const s: BridgeScenario = {
    observations: [{ channel: 'web', trust: 'EXTERNAL', texts: [UNTRUSTED_TEXTS[0]!, UNTRUSTED_TEXTS[1]!] }],
    writer: { kind: 'hashed', seed: 0, tables: [[[CLAIM, '1']], [[HONEST, '1']]] },
    context: 'SYSTEM', tool: 'send_money', risk: 'EFFECT', target: 'PM-A011', confirmation: null, fuel: BRIDGE_FUEL,
  };
  const assertOnly: Encoding = { binding: 'bound', gate: 'assert-only' };
  const laundering = bridgeVariantCtx(consolidationTrustsWriter);
  const tipni = (ctx: BridgeCtx, enc?: Encoding): boolean =>
    checkCompatible(ctx, pairCaseOf(s, enc)).ok;

  it('with the test, TIPNI sees the laundering: "call" in one run, "ask" in the other', () => {
    expect(tipni(laundering)).toBe(false);
    expect(tipni(bridgeCtx())).toBe(true);
  });

  it('with an assert-only gate TIPNI is blind to it: the denied run is stuck (mass 0), compatible with anything', () => {
    expect(tipni(laundering, assertOnly)).toBe(true);
    // the single-run property still sees the allowed call
    expect(ppmfBridgeNonAmplification.check(s, { ...laundering, encoding: assertOnly }).ok).toBe(false);
  });
});
