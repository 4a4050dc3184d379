/**
 * PPMF bridge, benign completeness in LLMbda: a benign call — every source meets the requirement, or the
 * platform holds a confirmation for exactly this target and risk — is allowed with probability exactly 1,
 * for writers with `IsDist` whose answers terminate with a value and do not label themselves less trusted
 * (src/ppmf/bridge/generators.ts, `WriterResponse.benign`).
 */
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { isDistSpec } from '../src/generators/models.ts';
import { belowRequirement, sameTargetConfirmation, type BridgeScenario } from '../src/ppmf/bridge/scenario.ts';
import { memoryProgram } from '../src/ppmf/bridge/encode.ts';
import { bridgeScenarioArb } from '../src/ppmf/bridge/generators.ts';
import { decisions, encodingOf, evalScenario, requirePpmf, showDecisions, showScenario, type BridgeCtx } from '../src/ppmf/bridge/check.ts';

/** Benign completeness in LLMbda: trusted or confirmed calls go through with probability 1. */
export const ppmfBridgeBenignCompleteness: PropertySuite<BridgeScenario, BridgeCtx> = {
  name: 'ppmf-bridge-benign-completeness',
  caseKind: 'bridge-scenario',
  title: 'PPMF bridge: a confirmed or fully trusted benign call is allowed with probability 1',
  arbitrary: (ctx) => { requirePpmf(ctx); return bridgeScenarioArb('benign'); },
  check: (s, ctx) => {
    if (!isDistSpec(s.writer)) return fails('internal error: a benign scenario with a sub-distribution writer');
    if (belowRequirement(s) && !sameTargetConfirmation(s)) return fails('internal error: a benign scenario with an unconfirmed untrusted source');
    const ev = evalScenario(ctx, s, memoryProgram(s, encodingOf(ctx)));
    const d = decisions(s, ev);
    if (Q.eq(d.call, Q.ONE)) return HOLDS;
    return fails(`the benign call ${s.tool}(${s.target}) is not allowed with probability 1: ${showDecisions(d, ev)}`);
  },
  show: (s, ctx) => showScenario(ctx, s),
  stats: (s) => ({
    'confirmed below the requirement': belowRequirement(s) && sameTargetConfirmation(s),
    'every source meets the requirement': !belowRequirement(s),
    'high-risk call': s.risk !== 'READ',
  }),
  thresholds: { 'confirmed below the requirement': 1 / 5, 'every source meets the requirement': 1 / 5 },
};
