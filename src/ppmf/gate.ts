/**
 * The PPMF gate (spec ppmf.md "The gate") and PPMF itself as a table of named rules.
 *
 * A variant (a deliberately broken or weakened PPMF) is this table with some entries replaced
 * (variants.ts); `gate-only` is one of them. The gate's steps:
 *   1. support binding (binding.ts);
 *   2. least trust over the support;
 *   3. risk–authority check: allow if the authority meets the call's risk; otherwise allow if every
 *      target has a same-principal, same-target, same-risk, same-scope confirmation; otherwise ask
 *      for one same-target confirmation (then re-run the gate);
 *   4. tool taint, in the observation-trust rule (records.ts);
 *   5. an unrelated confirmation or memory never upgrades an external-derived target — a
 *      consequence of 1–3, checked by the `unrelated-confirmation` property.
 */
import { absurd } from '../util/absurd.ts';
import type { Risk, Trust } from './policy.ts';
import { REQUIRED_TRUST, TOOLS, leastTrust, trustLeq } from './policy.ts';
import type { Binding, CallTarget, ToolCall } from './binding.ts';
import { bindSupport, callTargets } from './binding.ts';
import type { ConfirmationLog } from './confirmations.ts';
import { hasConfirmation } from './confirmations.ts';
import type { ConsolidationInput, SourceRules } from './consolidate.ts';
import { ruleConsolidate } from './consolidate.ts';
import type { EffectiveAuthority, StoredMemory, StoredMeta } from './records.ts';
import { platformExternalDerived, platformObservationTrust, readAuthority } from './records.ts';
import type { AliasMap, Target } from './targets.ts';
import { targetKey } from './targets.ts';

/** The gate's answer: a value, never an exception. */
export type Decision =
  | { readonly decision: 'allow'; readonly basis: string }
  | { readonly decision: 'deny'; readonly reason: string }
  | { readonly decision: 'ask'; readonly target: Target; readonly risk: Risk; readonly reason: string };

/** What the gate sees besides the call. */
export interface GateInput {
  /** `R`: the memories retrieved for this task. */
  readonly retrieved: readonly StoredMemory[];
  readonly log: ConfirmationLog;
  readonly principal: string;
  readonly scope: string;
  readonly aliases: AliasMap;
}

/** PPMF's rules, by name. Replace entries to make a variant. */
export interface PpmfRules extends SourceRules {
  /** Consolidate: authority fields of a new memory. */
  consolidate(input: ConsolidationInput, rules: SourceRules): StoredMemory;
  /** ReadAuthority: decode stored fields, failing closed. */
  readAuthority(meta: StoredMeta): EffectiveAuthority;
  /** Bind: gate step 1. */
  bind(call: ToolCall, targets: readonly CallTarget[], retrieved: readonly StoredMemory[], aliases: AliasMap): Binding;
  /** LeastTrust: gate step 2, the call's authority from its supports' (trust and risk tags). */
  combine(auths: readonly EffectiveAuthority[]): CallAuthority;
  /** Confirmed: gate step 3's event lookup. */
  confirmed(log: ConfirmationLog, principal: string, target: Target, risk: Risk, scope: string): boolean;
}

/** The authority a call gets from its support: a trust level and the risk classes it may back. */
export interface CallAuthority {
  readonly trust: Trust;
  readonly risks: readonly Risk[];
}

/** LeastTrust: the least trust of the supports, and only the risks every support may back (none for no support). */
export function ruleLeastTrust(auths: readonly EffectiveAuthority[]): CallAuthority {
  const first = auths[0];
  return {
    trust: leastTrust(auths.map((a) => a.trust)),
    risks: first === undefined ? [] : first.risks.filter((r) => auths.every((a) => a.risks.includes(r))),
  };
}

/** The reference rules. */
export const PPMF_RULES: PpmfRules = {
  observationTrust: platformObservationTrust,
  externalDerived: platformExternalDerived,
  consolidate: ruleConsolidate,
  readAuthority,
  bind: bindSupport,
  combine: ruleLeastTrust,
  confirmed: hasConfirmation,
};

/** The gate under a rule table. */
export function ruleGate(rules: PpmfRules, call: ToolCall, input: GateInput): Decision {
  const schema = TOOLS[call.tool];
  if (schema === undefined) return { decision: 'deny', reason: `unknown tool ${call.tool}: no schema, no risk class` };
  const risk = schema.risk;
  const targets = callTargets(call, input.aliases);
  const binding = rules.bind(call, targets, input.retrieved, input.aliases);
  const { trust: authority, risks } = rules.combine(binding.support.map((m) => rules.readAuthority(m.meta)));
  const required = REQUIRED_TRUST[risk];
  if (binding.support.length > 0 && trustLeq(required, authority) && risks.includes(risk)) {
    return { decision: 'allow', basis: `support ${binding.reason} has authority ${authority} ⪰ ${required} (${binding.mode})` };
  }
  const missing = targets.filter((ct) => ct.target === undefined || !rules.confirmed(input.log, input.principal, ct.target, risk, input.scope));
  if (targets.length > 0 && missing.length === 0) {
    return { decision: 'allow', basis: `same-target ${risk} confirmation for ${targets.map((t) => (t.target ? targetKey(t.target) : t.raw)).join(', ')}` };
  }
  const short = `authority ${authority} (support: ${binding.reason}) is below ${required} for ${risk}`;
  const first = missing[0];
  if (first?.target !== undefined) return { decision: 'ask', target: first.target, risk, reason: short };
  return { decision: 'deny', reason: first === undefined ? short : `${short}; argument ${first.arg} cannot be bound to a confirmation (${first.via})` };
}

/** Render a decision in one line. */
export function showDecision(d: Decision): string {
  switch (d.decision) {
    case 'allow':
      return `ALLOW (${d.basis})`;
    case 'deny':
      return `DENY (${d.reason})`;
    case 'ask':
      return `ASK the user to confirm ${d.risk} on ${targetKey(d.target)} (${d.reason})`;
    default:
      return absurd(d);
  }
}
