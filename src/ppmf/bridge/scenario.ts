/**
 * The PPMF ↔ LLMbda bridge, part 1: a memory scenario as plain, serialisable data (ppmf.md, "The
 * bridge to LLMbda"). Task A consolidates some observations into a memory with an (untrusted, possibly
 * adversarial) writer model; task B proposes one tool call of a risk class on one target and asks the
 * gate; a platform-recorded confirmation may exist. `encode.ts` turns a scenario into an LLMbda program;
 * `generators.ts` generates scenarios. Keeping the scenario as data (not as a program) makes shrinking
 * structural: counterexamples lose observations and writer responses, and read like the paper's story.
 */
import type { Lattice } from '../../lattice/lattice.ts';
import { joinAll } from '../../lattice/lattice.ts';
import { ppmfLabel, ppmfTrustSecrecy, trustAtLeast, trustOf, type PpmfLabel, type TrustLevel } from '../../lattice/instances.ts';
import type { ModelSpec } from '../../generators/models.ts';
import { REQUIRED_TRUST, type Risk } from '../policy.ts';

/** The lattice the bridge lives on: PPMF trust (ordered by distrust) × secrecy. */
export const BRIDGE_LATTICE: Lattice<PpmfLabel> = ppmfTrustSecrecy;

/** Where an observation came from (the platform sets this from the channel, never the writer). */
export type Channel = 'user' | 'web' | 'email' | 'tool' | 'document' | 'message';

/**
 * One observation of task A: a value labelled by its source's trust. `texts` are its contents in the two
 * runs of a TIPNI pair; the runs differ only where the observation is high for the observer (its trust is
 * below the gate's requirement), so `texts[1]` is read only there. Single-run properties read `texts[0]`.
 */
export interface Observation {
  readonly channel: Channel;
  readonly trust: TrustLevel;
  readonly texts: readonly [string, string];
}

/** A platform-recorded confirmation event (append-only; the writer cannot create one), bound to a target and a risk. */
export interface Confirmation {
  readonly target: string;
  readonly risk: Risk;
}

/** One bridge scenario: consolidation in task A, one proposed tool call in task B. */
export interface BridgeScenario {
  /** Task A's observations, in the order they are sent to the writer (1–4). */
  readonly observations: readonly Observation[];
  /** The writer: a model whose responses are LLMbda source (text, claimed labels, code, garbage). */
  readonly writer: ModelSpec;
  /**
   * The trust of the agent's context in task B (its pc and its conversation's label): `SYSTEM` (⊥) for a
   * clean context; lower when the agent has already read untrusted content.
   */
  readonly context: TrustLevel;
  /** The proposed call: tool, risk class and canonical target (platform data, from the tool schema). */
  readonly tool: string;
  readonly risk: Risk;
  readonly target: string;
  /** A confirmation event, if the platform has one (same or unrelated target/risk), else null. */
  readonly confirmation: Confirmation | null;
  readonly fuel: number;
}

/** The tool each risk class proposes in generated scenarios (banking-tool derived, ppmf.md). */
export const TOOL_OF_RISK: Readonly<Record<Risk, string>> = {
  EFFECT: 'send_money',
  CREDENTIAL: 'update_password',
  PURCHASE: 'checkout',
  NAV: 'open_workflow',
  READ: 'read_statement',
};

/** The label of an observation of trust `t`: its trust on the integrity axis, public. */
export function trustLabel(t: TrustLevel): PpmfLabel {
  return ppmfLabel(t);
}

/**
 * The gate's policy label for a risk: the required trust on the integrity axis and secrecy ⊤ [ours]. The
 * gate checks authority only; with a public policy label a writer could flip a confirmed call to "ask" by
 * claiming secrecy for its summary, which would make the gate's answer depend on untrusted content.
 */
export function requiredLabel(r: Risk): PpmfLabel {
  return ppmfLabel(REQUIRED_TRUST[r], 'secret');
}

/**
 * The integrity observer of a scenario: the gate's requirement, secrecy ⊤ (so secrecy is not what is
 * tested). Anything less trusted than the requirement is high for it.
 */
export function observerOf(s: BridgeScenario): PpmfLabel {
  return requiredLabel(s.risk);
}

/** The pc (and starting conversation label) of task B's agent. */
export function contextLabel(s: BridgeScenario): PpmfLabel {
  return trustLabel(s.context);
}

/** Is the observation high for the scenario's observer (less trusted than the gate requires)? */
export function isHighObservation(s: BridgeScenario, o: Observation): boolean {
  return !BRIDGE_LATTICE.leq(trustLabel(o.trust), observerOf(s));
}

/** The join of the sources' labels and the context's: the least authority the memory may carry. */
export function sourcesLabel(s: BridgeScenario): PpmfLabel {
  return joinAll(BRIDGE_LATTICE, [contextLabel(s), ...s.observations.map((o) => trustLabel(o.trust))]);
}

/** The least trust among the sources and the context (PPMF's "least trust" authorisation). */
export function leastTrust(s: BridgeScenario): TrustLevel {
  return trustOf(sourcesLabel(s));
}

/** Does the least trusted source (or the context) fall below the call's requirement? */
export function belowRequirement(s: BridgeScenario): boolean {
  return !trustAtLeast(leastTrust(s), REQUIRED_TRUST[s.risk]);
}

/** Is the confirmation bound to exactly this call (same target and risk)? */
export function sameTargetConfirmation(s: BridgeScenario): boolean {
  return s.confirmation !== null && s.confirmation.target === s.target && s.confirmation.risk === s.risk;
}

/** The decision strings the gate returns. */
export function callText(s: Pick<BridgeScenario, 'tool' | 'target'>): string {
  return `call ${s.tool}(${s.target})`;
}
/** The gate's "ask for one same-target confirmation" answer. */
export function askText(s: Pick<BridgeScenario, 'tool' | 'target'>): string {
  return `ask: confirm ${s.tool}(${s.target})`;
}
