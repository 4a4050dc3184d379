/**
 * PPMF bridge, unrelated confirmations never upgrade (ppmf.md, gate step 5): adding a confirmation for a
 * different target or risk leaves the program's exact outcome distribution unchanged, and in particular
 * never allows a call whose least trusted source is below the requirement.
 */
import * as Q from '../src/distributions/rational.ts';
import { equals, show } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { prettyPrint } from '../src/syntax/printer.ts';
import type { Final } from '../src/semantics/config.ts';
import type { PpmfLabel } from '../src/lattice/instances.ts';
import { BRIDGE_LATTICE, belowRequirement, type BridgeScenario } from '../src/ppmf/bridge/scenario.ts';
import { memoryProgram } from '../src/ppmf/bridge/encode.ts';
import { bridgeScenarioArb } from '../src/ppmf/bridge/generators.ts';
import { decisions, encodingOf, evalScenario, requirePpmf, showDecisions, showScenario, type BridgeCtx } from '../src/ppmf/bridge/check.ts';

/** An unrelated confirmation changes nothing. */
export const ppmfBridgeUnrelatedConfirmation: PropertySuite<BridgeScenario, BridgeCtx> = {
  name: 'ppmf-bridge-unrelated-confirmation',
  caseKind: 'bridge-scenario',
  title: 'PPMF bridge: a confirmation for another target or risk never changes the outcome (never upgrades)',
  arbitrary: (ctx) => { requirePpmf(ctx); return bridgeScenarioArb('unrelated'); },
  check: (s, ctx) => {
    const enc = encodingOf(ctx);
    const withIt = evalScenario(ctx, s, memoryProgram(s, enc));
    const without = { ...s, confirmation: null };
    const withoutIt = evalScenario(ctx, without, memoryProgram(without, enc));
    if (equals(withIt.finals, withoutIt.finals)) return HOLDS;
    const showValue = (f: Final<PpmfLabel>): string => prettyPrint(f.value, BRIDGE_LATTICE);
    return fails([
      `the unrelated confirmation (${s.confirmation?.risk} on ${s.confirmation?.target}) changes the outcome of ${s.tool}(${s.target}):`,
      `  with it:    ${showDecisions(decisions(s, withIt))}   ${show(withIt.finals, showValue)}`,
      `  without it: ${showDecisions(decisions(s, withoutIt))}   ${show(withoutIt.finals, showValue)}`,
    ].join('\n'));
  },
  show: (s, ctx) => showScenario(ctx, s),
  stats: (s, ctx) => ({
    'some source below the requirement': belowRequirement(s),
    'other target': s.confirmation !== null && s.confirmation.target !== s.target,
    'other risk (same target)': s.confirmation !== null && s.confirmation.target === s.target && s.confirmation.risk !== s.risk,
    'positive mass': !Q.isZero(evalScenario(ctx, s, memoryProgram(s, encodingOf(ctx))).mass),
  }),
  thresholds: { 'some source below the requirement': 1 / 2, 'other risk (same target)': 1 / 10, 'positive mass': 1 / 2 },
};
