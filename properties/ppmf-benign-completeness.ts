/**
 * Benign completeness: a confirmed benign action whose support was retrieved is allowed. "Confirmed":
 * every target of the call has a readable event for (principal, target, risk, scope); "support
 * retrieved": the agent proposed the call (a retrieved memory names each target).
 */
import type { PropertySuite } from '../src/runner/suite.ts';
import { HOLDS, fails } from '../src/runner/suite.ts';
import { arbBenignScenario } from '../src/ppmf/generators.ts';
import { callTargets } from '../src/ppmf/binding.ts';
import { showDecision } from '../src/ppmf/gate.ts';
import type { Branch, Scenario } from '../src/ppmf/scenario.ts';
import { callRisk, runScenario } from '../src/ppmf/scenario.ts';
import type { PpmfCtx } from './ppmf-truth.ts';
import { confirmedRaw, story } from './ppmf-truth.ts';

/** Every target of the call carries a same-target confirmation. */
function confirmedCall(sc: Scenario): boolean {
  const ts = callTargets(sc.call, sc.aliases);
  return ts.length > 0 && ts.every((t) => t.target !== undefined && confirmedRaw(sc.log, sc.principal, t.target, callRisk(sc), sc.scope));
}

function firstMiss(sc: Scenario, ctx: PpmfCtx): Branch | undefined {
  if (!confirmedCall(sc)) return undefined;
  return runScenario(ctx.system, sc).find((b) => b.proposed && b.decision.decision !== 'allow');
}

/** The benign-completeness suite. */
export const ppmfBenignCompleteness: PropertySuite<Scenario, PpmfCtx> = {
  name: 'ppmf-benign-completeness',
  caseKind: 'scenario',
  title: 'PPMF benign completeness: a confirmed benign action with retrieved support is allowed',
  arbitrary: () => arbBenignScenario,
  check: (sc, ctx) => {
    const b = firstMiss(sc, ctx);
    return b === undefined ? HOLDS : fails(`confirmed benign call not allowed: ${showDecision(b.decision)}`);
  },
  show: (sc, ctx) => story(ctx, sc, firstMiss(sc, ctx), ['A confirmed benign call with retrieved support was not allowed.']),
  stats: (sc, ctx) => ({
    'confirmed call': confirmedCall(sc),
    'confirmed and proposed': confirmedCall(sc) && runScenario(ctx.system, sc).some((b) => b.proposed),
  }),
  thresholds: { 'confirmed call': 0.5, 'confirmed and proposed': 0.4 },
};
