/**
 * Observations and memory records `m = (c, s, τ, h, r, e)` (spec ppmf.md "Records").
 *
 * Authority fields are stored as `unknown`: they come back from a store, may be missing or garbage,
 * and are only ever read through `readAuthority`, which fails closed (missing or malformed ⇒
 * `UNKNOWN`, unconfirmed, no risk supported). The content `c` is a plain string the writer chose.
 */
import type { Channel, Risk, Trust } from './policy.ts';
import {
  CHANNEL_TRUST,
  isExternalChannel,
  leastTrust,
  parseChannel,
  parseRisk,
  parseTrust,
  risksSupportedBy,
  trustMin,
} from './policy.ts';

/**
 * What a memory writer understands an observation to say: an action phrase, the surface form of
 * its target (as written, not canonical), and the situation it applies to.
 */
export interface Gist {
  readonly action: string;
  readonly target?: string;
  readonly context: string;
}

/** Platform-owned observation fields, as stored (possibly missing or corrupted). */
export interface ObservationMeta {
  /** The channel it arrived on. */
  readonly channel?: unknown;
  /** `true` when the user confirmed it in the platform UI (meaningful on the user channel only). */
  readonly confirmed?: unknown;
  /** Ids of the observations this one was computed from (tool inputs); `[]` for none. */
  readonly inputs?: unknown;
}

/** One observation of task A: raw text plus platform metadata. */
export interface Observation {
  readonly id: string;
  /** Raw content; attacker-controlled on external channels. */
  readonly text: string;
  /** Where it came from (URL, sender, tool name), recorded by the platform for the history `h`. */
  readonly origin: string;
  readonly gist: Gist;
  readonly meta: ObservationMeta;
}

/** Observations by id (to resolve tool inputs). */
export type ObservationPool = ReadonlyMap<string, Observation>;

/** Build an observation with intact platform metadata. */
export function observation(
  id: string,
  channel: Channel,
  origin: string,
  text: string,
  gist: Gist,
  opts: { readonly confirmed?: boolean; readonly inputs?: readonly string[] } = {},
): Observation {
  return { id, text, origin, gist, meta: { channel, confirmed: opts.confirmed ?? false, inputs: opts.inputs ?? [] } };
}

/** A pool from a list of observations. */
export function poolOf(obs: Iterable<Observation>): ObservationPool {
  return new Map([...obs].map((o) => [o.id, o] as const));
}

function parseInputs(x: unknown): readonly string[] | undefined {
  return Array.isArray(x) && x.every((i) => typeof i === 'string') ? (x as readonly string[]) : undefined;
}

/** The decoded fields of an observation; `undefined` when any is missing or malformed. */
function readObservationMeta(
  o: Observation,
): { readonly channel: Channel; readonly confirmed: boolean; readonly inputs: readonly string[] } | undefined {
  const channel = parseChannel(o.meta.channel);
  const confirmed = typeof o.meta.confirmed === 'boolean' ? o.meta.confirmed : undefined;
  const inputs = parseInputs(o.meta.inputs);
  return channel === undefined || confirmed === undefined || inputs === undefined ? undefined : { channel, confirmed, inputs };
}

/**
 * Platform trust of an observation: its channel's trust (`USER_CONFIRMED` for a UI-confirmed user
 * observation), lowered by tool taint to the least trust of its inputs (gate step 4). Any missing
 * field, unresolvable input or input cycle gives `UNKNOWN`.
 */
export function platformObservationTrust(o: Observation, pool: ObservationPool, seen: ReadonlySet<string> = new Set()): Trust {
  const m = readObservationMeta(o);
  if (m === undefined || seen.has(o.id)) return 'UNKNOWN';
  const base = m.channel === 'user' && m.confirmed ? 'USER_CONFIRMED' : CHANNEL_TRUST[m.channel];
  const inner = new Set(seen).add(o.id);
  const inputs = m.inputs.map((id) => {
    const i = pool.get(id);
    return i === undefined ? 'UNKNOWN' : platformObservationTrust(i, pool, inner);
  });
  return leastTrust([base, ...inputs]);
}

/** External-derived flag `e`: an external channel, an external-derived input, or unreadable metadata. */
export function platformExternalDerived(o: Observation, pool: ObservationPool, seen: ReadonlySet<string> = new Set()): boolean {
  const m = readObservationMeta(o);
  if (m === undefined || seen.has(o.id)) return true;
  if (isExternalChannel(m.channel)) return true;
  const inner = new Set(seen).add(o.id);
  return m.inputs.some((id) => {
    const i = pool.get(id);
    return i === undefined || platformExternalDerived(i, pool, inner);
  });
}

/** The stored authority fields `(s, τ, h, r, e)` of a memory, as they come back from the store. */
export interface StoredMeta {
  readonly source?: unknown;
  readonly trust?: unknown;
  readonly history?: unknown;
  readonly risk?: unknown;
  readonly external?: unknown;
}

/** Names of the authority fields (corruption and fail-closed tests iterate over them). */
export const AUTHORITY_FIELDS = ['source', 'trust', 'history', 'risk', 'external'] as const;

/** One authority field name. */
export type AuthorityField = (typeof AUTHORITY_FIELDS)[number];

/** A stored memory: writer content `c` plus stored authority fields. */
export interface StoredMemory {
  readonly id: string;
  readonly content: string;
  readonly meta: StoredMeta;
}

/** The authority of a memory as PPMF reads it. */
export interface EffectiveAuthority {
  readonly trust: Trust;
  readonly risks: readonly Risk[];
  readonly external: boolean;
  /** False when some field was missing or malformed (then the above are the fail-closed values). */
  readonly intact: boolean;
  /** What was wrong, for reports. */
  readonly problems: readonly string[];
}

/** Fail-closed authority: UNKNOWN, supports nothing, external. */
export function failClosed(problems: readonly string[]): EffectiveAuthority {
  return { trust: 'UNKNOWN', risks: [], external: true, intact: false, problems };
}

/**
 * Read stored authority fields, failing closed. [ours] An external-derived record is capped at
 * `EXTERNAL` whatever its stored trust says: the two fields must agree, and the cap is the safe reading.
 */
export function readAuthority(meta: StoredMeta): EffectiveAuthority {
  const problems: string[] = [];
  const source = parseChannel(meta.source);
  if (source === undefined) problems.push('source');
  const trust = parseTrust(meta.trust);
  if (trust === undefined) problems.push('trust');
  const history = meta.history;
  if (!Array.isArray(history) || history.length === 0 || !history.every((h) => typeof h === 'string')) problems.push('history');
  const risk = meta.risk;
  const risks = Array.isArray(risk) ? risk.map(parseRisk) : undefined;
  if (risks === undefined || risks.some((r) => r === undefined)) problems.push('risk');
  const external = typeof meta.external === 'boolean' ? meta.external : undefined;
  if (external === undefined) problems.push('external');
  if (problems.length > 0 || trust === undefined || external === undefined || risks === undefined) return failClosed(problems);
  const t = external ? trustMin(trust, 'EXTERNAL') : trust;
  return { trust: t, risks: (risks as Risk[]).filter((r) => risksSupportedBy(t).includes(r)), external, intact: true, problems: [] };
}

/** A record's authority fields exactly as the platform writes them for a given trust and sources. */
export function platformMeta(source: Channel | undefined, trust: Trust, history: readonly string[], external: boolean): StoredMeta {
  return { source, trust, history, risk: risksSupportedBy(trust), external };
}
