/**
 * The PPMF ↔ LLMbda bridge suites, in reading order. They run in a `BridgeCtx` (an `LlmbdaCtx` on the
 * `ppmf` lattice); see src/bridge/check.ts.
 */
import type { PropertySuite } from '../src/check/suite.ts';
import type { BridgeScenario } from '../src/bridge/scenario.ts';
import type { BridgeCtx } from '../src/bridge/check.ts';
import { ppmfBridgeNonAmplification } from './ppmf-bridge-nonamplification.ts';
import { ppmfBridgeTipni } from './ppmf-bridge-tipni.ts';
import { ppmfBridgeBenignCompleteness } from './ppmf-bridge-benign-completeness.ts';
import { ppmfBridgeUnrelatedConfirmation } from './ppmf-bridge-unrelated-confirmation.ts';

/** Every bridge suite. */
export const PPMF_BRIDGE_SUITES: readonly PropertySuite<BridgeScenario, BridgeCtx>[] = [
  ppmfBridgeNonAmplification, ppmfBridgeTipni, ppmfBridgeBenignCompleteness, ppmfBridgeUnrelatedConfirmation,
];
