/**
 * PPMF bridge, TIPNI at integrity observers (ppmf.md, "The bridge to LLMbda"): for generated memory
 * pairs whose untrusted observations' texts differ (attacker-controlled content), the observer
 * `m = ⟨required trust, secret⟩` — which sees exactly what is at least as trusted as the gate requires —
 * gets compatible distributions of the gate's decision: untrusted content cannot buy authority.
 * The judgement is the theorem suite's own (`checkCompatible` of properties/tipni.ts).
 *
 * With a same-target confirmation the program contains `endorse` and `m` is not I-maximal, so neither
 * Theorem 1 nor Theorem 2 covers it; it holds because the decision reads only the memory's label, and
 * after the endorse that label no longer depends on the content (docs/ppmf.md, "The LLMbda bridge").
 */
import * as Q from '../src/distributions/rational.ts';
import { equals } from '../src/distributions/subdist.ts';
import type { PropertySuite } from '../src/runner/suite.ts';
import { modelOf } from '../src/generators/models.ts';
import { checkCompatible } from './tipni.ts';
import { sameTargetConfirmation, type BridgeScenario } from '../src/ppmf/bridge/scenario.ts';
import { consolidationProgram, memoryProgram, pairCaseOf, writerMessages } from '../src/ppmf/bridge/encode.ts';
import { bridgeScenarioArb } from '../src/ppmf/bridge/generators.ts';
import { decisions, encodingOf, evalScenario, requirePpmf, showScenarioPair, type BridgeCtx } from '../src/ppmf/bridge/check.ts';

/** Do the writer's first answers differ between the two runs? */
function writerAnswersDiffer(s: BridgeScenario): boolean {
  const m = modelOf(s.writer);
  const key = (side: 0 | 1): string => JSON.stringify(m.weight(writerMessages(s, side)).map(([r, w]) => [r, Q.show(w)]));
  return key(0) !== key(1);
}

/** TIPNI at the integrity observer on memory pairs (untrusted texts differ). */
export const ppmfBridgeTipni: PropertySuite<BridgeScenario, BridgeCtx> = {
  name: 'ppmf-bridge-tipni',
  caseKind: 'bridge-scenario',
  title: 'PPMF bridge: TIPNI at the integrity observer ⟨required trust, secret⟩ on memory pairs whose untrusted texts differ',
  arbitrary: (ctx) => { requirePpmf(ctx); return bridgeScenarioArb('pairs'); },
  check: (s, ctx) => checkCompatible(ctx, pairCaseOf(s, encodingOf(ctx))),
  show: (s, ctx) => showScenarioPair(ctx, s),
  stats: (s, ctx) => {
    const m0 = evalScenario(ctx, s, consolidationProgram(s, 0));
    const m1 = evalScenario(ctx, s, consolidationProgram(s, 1));
    const d0 = decisions(s, evalScenario(ctx, s, memoryProgram(s, encodingOf(ctx), 0)));
    return {
      'writer answers differ': writerAnswersDiffer(s),
      'memories differ': !equals(m0.finals, m1.finals),
      'same-target confirmation': sameTargetConfirmation(s),
      'call reached': !Q.isZero(d0.call),
      'positive mass': !Q.isZero(m0.mass) && !Q.isZero(m1.mass),
    };
  },
  thresholds: { 'memories differ': 1 / 3, 'positive mass': 1 / 2 },
};
