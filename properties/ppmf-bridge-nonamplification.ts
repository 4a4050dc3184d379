/**
 * PPMF bridge, non-amplification in LLMbda (ppmf.md, "The bridge to LLMbda"): on generated memory programs
 * without a same-target confirmation, for any writer model,
 *   (a) Confinement (Lemma 1) holds for the consolidation and for the whole program;
 *   (b) every consolidated memory's integrity is at least the join of its sources' (and the context's):
 *       `auth(memory) ⪯ min auth(oi)`;
 *   (c) when some source is below the call's requirement, the gate never answers "call" (probability 0).
 */
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { integrityOf } from '../src/lattice/lattice.ts';
import { trustOf } from '../src/lattice/instances.ts';
import { prettyPrint } from '../src/syntax/printer.ts';
import { confinement } from './confinement.ts';
import type { SingleCase } from '../src/generators/pairs.ts';
import type { LlmbdaCtx } from '../src/llmbda/context.ts';
import { BRIDGE_LATTICE, belowRequirement, leastTrust, sourcesLabel, type BridgeScenario } from '../src/ppmf/bridge/scenario.ts';
import { consolidationProgram, memoryProgram, singleCaseOf } from '../src/ppmf/bridge/encode.ts';
import { bridgeScenarioArb } from '../src/ppmf/bridge/generators.ts';
import { decisions, encodingOf, evalScenario, requirePpmf, showDecisions, showScenario, type BridgeCtx } from '../src/ppmf/bridge/check.ts';
import { REQUIRED_TRUST } from '../src/ppmf/policy.ts';

/** Non-amplification in LLMbda: Confinement, memory integrity ⊒ its sources, no call below the requirement. */
export const ppmfBridgeNonAmplification: PropertySuite<BridgeScenario, BridgeCtx> = {
  name: 'ppmf-bridge-nonamplification',
  caseKind: 'bridge-scenario',
  title: 'PPMF bridge: consolidation never raises authority (Confinement; memory integrity ⊒ least trusted source; no call below the requirement without a same-target confirmation)',
  arbitrary: (ctx) => { requirePpmf(ctx); return bridgeScenarioArb('adversarial'); },
  check: (s, ctx) => {
    const lat = BRIDGE_LATTICE;
    const memory = consolidationProgram(s);
    const whole = memoryProgram(s, encodingOf(ctx));
    // (a) the Confinement suite's own judgement, on both programs
    for (const [what, expr] of [['consolidation', memory], ['whole program', whole]] as const) {
      const out = confinement.check(singleCaseOf(s, expr) as SingleCase<unknown>, ctx as LlmbdaCtx<unknown>);
      if (!out.ok) return fails(`Confinement fails on the ${what}: ${out.reason}`);
    }
    const problems: string[] = [];
    // (b) the memory's authority
    const floor = integrityOf(lat, sourcesLabel(s));
    for (const [f, w] of entries(evalScenario(ctx, s, memory).finals)) {
      if (!lat.leq(floor, integrityOf(lat, f.value.label))) {
        problems.push(`the consolidated memory ${prettyPrint(f.value, lat)} has trust ${trustOf(f.value.label)}, above its least trusted source ${leastTrust(s)} (probability ${Q.show(w)})`);
        break;
      }
    }
    // (c) the gate
    if (belowRequirement(s)) {
      const ev = evalScenario(ctx, s, whole);
      const d = decisions(s, ev);
      if (!Q.isZero(d.call)) {
        problems.push(`high-risk call allowed: ${s.tool}(${s.target}) needs ${REQUIRED_TRUST[s.risk]} but the least trusted source is ${leastTrust(s)}, and the gate answers ${showDecisions(d, ev)}`);
      }
    }
    if (problems.length > 0) return fails(problems.join('; '));
    return HOLDS;
  },
  show: (s, ctx) => showScenario(ctx, s),
  stats: (s, ctx) => {
    const d = decisions(s, evalScenario(ctx, s, memoryProgram(s, encodingOf(ctx))));
    return {
      'some source below the requirement': belowRequirement(s),
      'unrelated confirmation present': s.confirmation !== null,
      'tainted context': s.context !== 'SYSTEM',
      'positive mass': !Q.isZero(Q.sub(Q.ONE, d.missing)),
      'call reached': !Q.isZero(d.call),
    };
  },
  thresholds: { 'some source below the requirement': 1 / 2, 'positive mass': 1 / 2, 'unrelated confirmation present': 1 / 5 },
};
