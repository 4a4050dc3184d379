/**
 * The registries of property suites: what `llmbda check`, `hunt` and `replay` run, by name. Only the
 * top layer (this folder and the CLI) imports them; everything below takes suites as values.
 */
import type { PropertySuite } from '../runner/suite.ts';
import type { LlmbdaSuite } from '../llmbda/context.ts';
import type { AnyPpmfSuite } from '../ppmf/context.ts';
import type { BridgeScenario } from '../ppmf/bridge/scenario.ts';
import type { BridgeCtx } from '../ppmf/bridge/check.ts';
import { UserError } from '../util/absurd.ts';
import { confinement } from '../../properties/confinement.ts';
import { lemma2 } from '../../properties/lemma2.ts';
import { tipni } from '../../properties/tipni.ts';
import { insulatedTipni } from '../../properties/insulated-tipni.ts';
import { stripping } from '../../properties/stripping.ts';
import { highBlindness } from '../../properties/high-blindness.ts';
import { lemma13 } from '../../properties/lemma13.ts';
import { lemma3 } from '../../properties/lemma3.ts';
import { lemma4 } from '../../properties/lemma4.ts';
import { lemma5 } from '../../properties/lemma5.ts';
import { theorem3 } from '../../properties/theorem3.ts';
import { generators } from '../../properties/generators.ts';
import { leakage } from '../../properties/leakage.ts';
import { v2Equivalence } from '../../properties/v2-equivalence.ts';
import { adapterTheorem3 } from '../../properties/adapter-theorem3.ts';
import { endorseNoCascade } from '../../properties/endorse-no-cascade.ts';
import { endorseBounded } from '../../properties/endorse-bounded.ts';
import type { AnyEndorseSuite } from '../endorse/hunt.ts';
import { ppmfBenignCompleteness } from '../../properties/ppmf-benign-completeness.ts';
import { ppmfDecoyRobustness } from '../../properties/ppmf-decoy-robustness.ts';
import { ppmfFailClosed } from '../../properties/ppmf-fail-closed.ts';
import { ppmfGateSoundness } from '../../properties/ppmf-gate-soundness.ts';
import { ppmfNonAmplification } from '../../properties/ppmf-non-amplification.ts';
import { ppmfUnrelatedConfirmation } from '../../properties/ppmf-unrelated-confirmation.ts';
import { ppmfBridgeNonAmplification } from '../../properties/ppmf-bridge-nonamplification.ts';
import { ppmfBridgeTipni } from '../../properties/ppmf-bridge-tipni.ts';
import { ppmfBridgeBenignCompleteness } from '../../properties/ppmf-bridge-benign-completeness.ts';
import { ppmfBridgeUnrelatedConfirmation } from '../../properties/ppmf-bridge-unrelated-confirmation.ts';

/** The LLMbda theorem suites, in the order `llmbda check` prints them. */
export const LLMBDA_SUITES: readonly LlmbdaSuite[] = [
  confinement, lemma2, tipni, insulatedTipni, stripping, highBlindness, lemma13, lemma3, lemma4, lemma5, leakage, theorem3, generators, v2Equivalence, adapterTheorem3,
];

/** Suites that are not per-lattice theorem suites (run once, or on a user lattice). */
export const OTHER_SUITES = ['lattice-laws', 'distributions'] as const;

/** The PPMF suites, in the order a PPMF hunt runs them (the end-to-end story first). */
export const PPMF_SUITES: readonly AnyPpmfSuite[] = [
  ppmfGateSoundness, ppmfNonAmplification, ppmfUnrelatedConfirmation, ppmfDecoyRobustness, ppmfFailClosed, ppmfBenignCompleteness,
];

/** The PPMF ↔ LLMbda bridge suites (LLMbda programs on the `ppmf` lattice, in a `BridgeCtx`). */
export const PPMF_BRIDGE_SUITES: readonly PropertySuite<BridgeScenario, BridgeCtx>[] = [
  ppmfBridgeNonAmplification, ppmfBridgeTipni, ppmfBridgeBenignCompleteness, ppmfBridgeUnrelatedConfirmation,
];

/** The constrained-endorse suites (Appendix E), hunted with `--system endorse`. */
export const ENDORSE_SUITES: readonly AnyEndorseSuite[] = [endorseNoCascade, endorseBounded];

/** The LLMbda suite of that name, if any. */
export function llmbdaSuiteByName(name: string): LlmbdaSuite | undefined {
  return LLMBDA_SUITES.find((s) => s.name === name);
}

/** Every LLMbda suite name, in `llmbda check` order. */
export function allSuiteNames(): string[] {
  return LLMBDA_SUITES.map((s) => s.name);
}

/** The LLMbda suite of that name, or a `UserError` listing them. */
export function suiteNamed(name: string): LlmbdaSuite {
  const s = llmbdaSuiteByName(name);
  if (!s) throw new UserError(`unknown suite ${JSON.stringify(name)}; the LLMbda suites are ${allSuiteNames().join(', ')} (or all)`);
  return s;
}

/** Every suite name `llmbda check --suite` accepts. */
export function checkSuiteNames(): string[] {
  return [...allSuiteNames(), ...OTHER_SUITES, ...PPMF_SUITES.map((s) => s.name), ...PPMF_BRIDGE_SUITES.map((s) => s.name)];
}
