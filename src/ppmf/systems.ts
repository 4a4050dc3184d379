/**
 * The memory systems compared, behind one interface.
 *
 * - `no-defence`: keeps no provenance; the agent reads authority from what the memory's TEXT claims
 *   ("user workflow", "user-confirmed" ⇒ high trust) and takes any earlier confirmation of the same
 *   risk class as consent.
 * - `content-filter`: no-defence plus keyword rules that refuse to store memories, and refuse calls,
 *   whose text looks like an injection. Paraphrase evades it; benign text with trigger words trips it.
 * - `gate-only`: PPMF's risk gate and binding, but the consolidation lets the writer's claimed
 *   channel into the record (the paper's vulnerable pipeline: the writer fills in the metadata).
 * - `ppmf`: the firewall.
 */
import type { Trust } from './policy.ts';
import { REQUIRED_TRUST, TOOLS, trustLeq, trustMax } from './policy.ts';
import type { ToolCall } from './binding.ts';
import { callTargets, resolvedTargets } from './binding.ts';
import { readableEvents } from './confirmations.ts';
import type { ConsolidationInput, ConsolidationResult } from './consolidate.ts';
import { ruleConsolidateWriterLabels } from './consolidate.ts';
import type { Decision, GateInput, PpmfRules } from './gate.ts';
import { PPMF_RULES, ruleGate } from './gate.ts';
import type { StoredMemory } from './records.ts';
import { mentionOf } from './targets.ts';

/** A memory system: how it consolidates, what authority it believes a memory has, how it authorises calls. */
export interface MemorySystem {
  /** Name on the command line and in tables. */
  readonly name: string;
  /** One sentence: what it does (for a variant: what it breaks). */
  readonly summary: string;
  /** Store a consolidated memory (or refuse). */
  consolidate(input: ConsolidationInput): ConsolidationResult;
  /** The authority this system believes a stored memory carries (laundering is judged on this). */
  authorityOf(m: StoredMemory): Trust;
  /** Decide a proposed tool call. */
  authorise(call: ToolCall, input: GateInput): Decision;
}

/** PPMF (or a variant of it) from a rule table. */
export function ppmfSystem(name: string, summary: string, rules: PpmfRules): MemorySystem {
  return {
    name,
    summary,
    consolidate: (input) => ({ kind: 'stored', memory: rules.consolidate(input, rules) }),
    authorityOf: (m) => rules.readAuthority(m.meta).trust,
    authorise: (call, input) => ruleGate(rules, call, input),
  };
}

/** The firewall. */
export const PPMF: MemorySystem = ppmfSystem('ppmf', 'provenance-preserving memory firewall: platform-set authority, support binding, least-trust risk gate', PPMF_RULES);

/** Gate-only: PPMF's gate over records whose authority fields the writer may fill in. */
export const GATE_ONLY: MemorySystem = ppmfSystem(
  'gate-only',
  "risk gate and binding, but consolidation lets the writer's claimed channel and confirmation into the record",
  { ...PPMF_RULES, consolidate: ruleConsolidateWriterLabels },
);

/** Phrases by which a memory's text claims user confirmation (the agent reads them as the user's instruction). */
const CLAIMS_CONFIRMED =
  /user[- ]confirmed|confirmed by (the )?user|user (has )?(already )?(approved|authori[sz]ed|confirmed)|owner (has )?(already )?(approved|confirmed)|user workflow|user'?s? (standing )?instruction|pre-?approved/i;
/** Phrases by which a memory's text claims user history. */
const CLAIMS_HISTORY = /user (prefers|preference|history|usually|said|asked|mentioned)|note to self|my (usual|preferred)|saved by (the )?user|\bfrom you\b/i;
/** Phrases that attribute a memory to an outside source. */
const CLAIMS_EXTERNAL = /web page|website|email from|message from|\bdocument\b|tool output|unknown source|external|untrusted/i;

/**
 * What a credulous agent believes a memory's authority is, from its text alone. [ours] The strongest
 * user claim wins over any outside attribution; an unattributed memory is taken as user history.
 */
export function textAuthority(content: string): Trust {
  if (CLAIMS_CONFIRMED.test(content)) return 'USER_CONFIRMED';
  if (CLAIMS_HISTORY.test(content)) return 'USER_HISTORY';
  if (CLAIMS_EXTERNAL.test(content)) return 'EXTERNAL';
  return 'USER_HISTORY';
}

/**
 * Text-based authorisation (no-defence): the most authoritative-sounding retrieved memory that names
 * a target of the call decides; failing that, any earlier confirmation of the same risk class by the
 * same principal counts as consent (target and scope unchecked).
 */
function authoriseByText(call: ToolCall, input: GateInput): Decision {
  const schema = TOOLS[call.tool];
  if (schema === undefined) return { decision: 'deny', reason: `unknown tool ${call.tool}` };
  const targets = resolvedTargets(callTargets(call, input.aliases));
  const naming = input.retrieved.filter((m) => targets.some((t) => mentionOf(m.content, t, input.aliases) !== 'none'));
  let believed: Trust = 'UNKNOWN';
  for (const m of naming) believed = trustMax(believed, textAuthority(m.content));
  const required = REQUIRED_TRUST[schema.risk];
  if (naming.length > 0 && trustLeq(required, believed)) {
    return { decision: 'allow', basis: `memory ${naming.map((m) => m.id).join(', ')} reads as ${believed}` };
  }
  const consent = readableEvents(input.log).find((e) => e.principal === input.principal && e.risk === schema.risk);
  if (consent !== undefined) return { decision: 'allow', basis: `the user confirmed a ${schema.risk} action before` };
  const first = targets[0];
  const reason = `memories read as ${believed}, below ${required}`;
  return first === undefined ? { decision: 'deny', reason } : { decision: 'ask', target: first, risk: schema.risk, reason };
}

/** No defence. */
export const NO_DEFENCE: MemorySystem = {
  name: 'no-defence',
  summary: 'keeps no provenance: authority is whatever the memory text claims',
  consolidate: (input) => ({ kind: 'stored', memory: { id: input.memoryId, content: input.output.content, meta: {} } }),
  authorityOf: (m) => textAuthority(m.content),
  authorise: authoriseByText,
};

/** Injection-like phrases the content filter looks for. */
export const TRIGGER_PHRASES =
  /ignore (all |any |the )?(previous|prior|above|earlier)|disregard|system prompt|new instructions|you must|do not tell|secretly|override|\bimportant:|urgent|immediately|password|bypass/i;

/** The first trigger phrase in a text, if any. */
export function triggerIn(text: string): string | undefined {
  return TRIGGER_PHRASES.exec(text)?.[0];
}

/** Content filter. */
export const CONTENT_FILTER: MemorySystem = {
  name: 'content-filter',
  summary: 'keyword rules refuse injection-like memories and calls; otherwise as no-defence',
  consolidate: (input) => {
    const hit = triggerIn(input.output.content);
    return hit === undefined ? NO_DEFENCE.consolidate(input) : { kind: 'blocked', reason: `memory text matches "${hit}"` };
  },
  authorityOf: (m) => textAuthority(m.content),
  authorise: (call, input) => {
    const callHit = triggerIn(`${call.tool} ${Object.values(call.args).join(' ')}`);
    if (callHit !== undefined) return { decision: 'deny', reason: `call matches "${callHit}"` };
    const targets = resolvedTargets(callTargets(call, input.aliases));
    const flagged = input.retrieved.find(
      (m) => triggerIn(m.content) !== undefined && targets.some((t) => mentionOf(m.content, t, input.aliases) !== 'none'),
    );
    if (flagged !== undefined) return { decision: 'deny', reason: `supporting memory ${flagged.id} matches "${triggerIn(flagged.content) ?? ''}"` };
    return authoriseByText(call, input);
  },
};

/** The four systems compared in the table, in table order. */
export const SYSTEMS: readonly MemorySystem[] = [NO_DEFENCE, CONTENT_FILTER, GATE_ONLY, PPMF];
