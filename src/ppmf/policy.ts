/**
 * PPMF policy as data (spec ppmf.md "Records", "Risk classes"): the trust chain, the risk table,
 * the channel table and the tool schemas. Mechanisms (consolidation, binding, the gate) live in
 * other modules and read these tables; a variant changes a rule, never these facts.
 */

/** The trust chain, least trusted first: `UNKNOWN < EXTERNAL < TRUSTED_TOOL < USER_HISTORY < USER_CONFIRMED < SYSTEM`. */
export const TRUST_LEVELS = ['UNKNOWN', 'EXTERNAL', 'TRUSTED_TOOL', 'USER_HISTORY', 'USER_CONFIRMED', 'SYSTEM'] as const;

/** A trust level `τ`. */
export type Trust = (typeof TRUST_LEVELS)[number];

/** Position in the chain (0 = UNKNOWN). */
export function trustRank(t: Trust): number {
  return TRUST_LEVELS.indexOf(t);
}

/** `a ⪯ b` in the trust chain. */
export function trustLeq(a: Trust, b: Trust): boolean {
  return trustRank(a) <= trustRank(b);
}

/** The less trusted of two levels. */
export function trustMin(a: Trust, b: Trust): Trust {
  return trustLeq(a, b) ? a : b;
}

/** The more trusted of two levels. */
export function trustMax(a: Trust, b: Trust): Trust {
  return trustLeq(a, b) ? b : a;
}

/**
 * Least trust of a collection. [ours] The empty collection gives `UNKNOWN`, not the chain's top:
 * "nothing supports this" must fail closed.
 */
export function leastTrust(ts: Iterable<Trust>): Trust {
  let acc: Trust | undefined;
  for (const t of ts) acc = acc === undefined ? t : trustMin(acc, t);
  return acc ?? 'UNKNOWN';
}

/** Decode a stored trust field; `undefined` for anything that is not exactly a level name. */
export function parseTrust(x: unknown): Trust | undefined {
  return typeof x === 'string' && (TRUST_LEVELS as readonly string[]).includes(x) ? (x as Trust) : undefined;
}

/** Risk classes of tool calls. */
export const RISKS = ['READ', 'NAV', 'EFFECT', 'PURCHASE', 'CREDENTIAL'] as const;

/** A risk class `ρ`. */
export type Risk = (typeof RISKS)[number];

/** Minimum trust each risk class requires (spec table). */
export const REQUIRED_TRUST: Readonly<Record<Risk, Trust>> = {
  READ: 'EXTERNAL',
  NAV: 'USER_HISTORY',
  EFFECT: 'USER_CONFIRMED',
  PURCHASE: 'USER_CONFIRMED',
  CREDENTIAL: 'USER_CONFIRMED',
};

/** Decode a stored risk field. */
export function parseRisk(x: unknown): Risk | undefined {
  return typeof x === 'string' && (RISKS as readonly string[]).includes(x) ? (x as Risk) : undefined;
}

/** A call is high-risk when untrusted (EXTERNAL) authority is not enough for it: NAV and above. */
export function isHighRisk(r: Risk): boolean {
  return !trustLeq(REQUIRED_TRUST[r], 'EXTERNAL');
}

/** The risk tags `r` a memory of trust `t` may support: every class whose requirement `t` meets. */
export function risksSupportedBy(t: Trust): readonly Risk[] {
  return RISKS.filter((r) => trustLeq(REQUIRED_TRUST[r], t));
}

/** Source channels `s` of observations. */
export const CHANNELS = ['user', 'web', 'email', 'tool', 'document', 'message'] as const;

/** A source channel. */
export type Channel = (typeof CHANNELS)[number];

/** Decode a stored channel field. */
export function parseChannel(x: unknown): Channel | undefined {
  return typeof x === 'string' && (CHANNELS as readonly string[]).includes(x) ? (x as Channel) : undefined;
}

/**
 * [ours] Platform trust of each channel. The user channel gives `USER_HISTORY`; a user observation
 * the platform saw confirmed in its UI gives `USER_CONFIRMED` (see records.ts). `TRUSTED_TOOL`
 * means an authenticated tool envelope, which tool taint lowers to its inputs' trust.
 */
export const CHANNEL_TRUST: Readonly<Record<Channel, Trust>> = {
  user: 'USER_HISTORY',
  web: 'EXTERNAL',
  email: 'EXTERNAL',
  tool: 'TRUSTED_TOOL',
  document: 'EXTERNAL',
  message: 'EXTERNAL',
};

/** Channels whose content comes from outside the user and platform (the `e` flag). */
export function isExternalChannel(c: Channel): boolean {
  return c === 'web' || c === 'email' || c === 'document' || c === 'message';
}

/** Kinds of action targets the gate canonicalises (see targets.ts). */
export const TARGET_KINDS = ['url', 'account', 'handle', 'file', 'endpoint', 'workflow', 'value'] as const;

/** A kind of action target. */
export type TargetKind = (typeof TARGET_KINDS)[number];

/** A tool's schema: its risk class and which arguments are action targets, of which kind. */
export interface ToolSchema {
  readonly risk: Risk;
  readonly targets: Readonly<Record<string, TargetKind>>;
}

/**
 * Tool schemas. Banking tools follow AgentDojo's banking suite; the others cover the synthetic
 * families. [ours] `update_user_info` is EFFECT (it changes account data but no secret).
 */
export const TOOLS: Readonly<Record<string, ToolSchema>> = {
  fetch_page: { risk: 'READ', targets: { url: 'url' } },
  read_file: { risk: 'READ', targets: { path: 'file' } },
  open_url: { risk: 'NAV', targets: { url: 'url' } },
  open_workflow: { risk: 'NAV', targets: { workflow: 'workflow' } },
  run_workflow: { risk: 'EFFECT', targets: { workflow: 'workflow' } },
  send_email: { risk: 'EFFECT', targets: { to: 'handle' } },
  send_message: { risk: 'EFFECT', targets: { to: 'handle' } },
  upload_file: { risk: 'EFFECT', targets: { destination: 'url' } },
  delete_file: { risk: 'EFFECT', targets: { path: 'file' } },
  call_endpoint: { risk: 'EFFECT', targets: { endpoint: 'endpoint' } },
  checkout: { risk: 'PURCHASE', targets: { store: 'url' } },
  send_money: { risk: 'PURCHASE', targets: { recipient: 'account' } },
  schedule_transaction: { risk: 'PURCHASE', targets: { recipient: 'account' } },
  update_scheduled_transaction: { risk: 'PURCHASE', targets: { id: 'workflow', recipient: 'account' } },
  update_password: { risk: 'CREDENTIAL', targets: { password: 'value' } },
  update_user_info: { risk: 'EFFECT', targets: { street: 'value' } },
};
