/**
 * Consolidation `m = C(o1, …, ok)`: the writer chose the content; who chooses the authority fields?
 *
 * Rule `Consolidate` (PPMF, non-amplification): the platform sets every authority field from the
 * sources — least trust of the supports, history appended, `e` if any source is external-derived —
 * and ignores whatever the writer claims. Rule `ConsolidateWriterLabels` is the paper's vulnerable
 * pipeline: the writer's claimed channel and confirmation flow into the record.
 */
import type { Channel, Trust } from './policy.ts';
import { CHANNEL_TRUST, isExternalChannel, leastTrust, parseChannel, trustRank } from './policy.ts';
import type { Observation, ObservationPool, StoredMemory } from './records.ts';
import { platformMeta } from './records.ts';
import type { WriterOutput } from './writer.ts';

/** What consolidation receives: the sources, the pool for tool inputs, and the writer's output. */
export interface ConsolidationInput {
  readonly memoryId: string;
  readonly sources: readonly Observation[];
  readonly pool: ObservationPool;
  readonly output: WriterOutput;
}

/** A stored memory, or a refusal to store one (content filters). */
export type ConsolidationResult =
  | { readonly kind: 'stored'; readonly memory: StoredMemory }
  | { readonly kind: 'blocked'; readonly reason: string };

/** The per-observation judgements consolidation needs (replaceable rules, see gate.ts). */
export interface SourceRules {
  observationTrust(o: Observation, pool: ObservationPool): Trust;
  externalDerived(o: Observation, pool: ObservationPool): boolean;
}

/** History entries `channel:origin` for each source, then the consolidation step itself. */
function historyOf(sources: readonly Observation[], memoryId: string): readonly string[] {
  return [...sources.map((o) => `${parseChannel(o.meta.channel) ?? 'unknown'}:${o.origin}`), `consolidate:${memoryId}`];
}

/**
 * Consolidate (non-amplification): τ = least trust of the sources, s = the channel of the least
 * trusted source [ours: one channel per record], h = sources' history plus this step, e = any source
 * external-derived, r = the risks τ supports. The writer's claims are ignored.
 */
export function ruleConsolidate(input: ConsolidationInput, rules: SourceRules): StoredMemory {
  const { sources, pool, output } = input;
  const trusts = sources.map((o) => rules.observationTrust(o, pool));
  const trust = leastTrust(trusts);
  const weakest = sources[trusts.findIndex((t) => t === trust)];
  const source: Channel | undefined = weakest === undefined ? undefined : parseChannel(weakest.meta.channel);
  const external = sources.length === 0 || sources.some((o) => rules.externalDerived(o, pool));
  return { id: input.memoryId, content: output.content, meta: platformMeta(source, trust, historyOf(sources, input.memoryId), external) };
}

/**
 * ConsolidateWriterLabels (the vulnerable pipeline): as `Consolidate`, except that a channel the
 * writer claims replaces the platform's source, trust and external flag ("user" + confirmed ⇒
 * USER_CONFIRMED). This is how "User workflow memory: …" becomes a user-history record.
 */
export function ruleConsolidateWriterLabels(input: ConsolidationInput, rules: SourceRules): StoredMemory {
  const platform = ruleConsolidate(input, rules);
  const claimed = input.output.claimedChannel;
  if (claimed === undefined) return platform;
  const trust: Trust = claimed === 'user' && input.output.claimedConfirmed === true ? 'USER_CONFIRMED' : CHANNEL_TRUST[claimed];
  const history = Array.isArray(platform.meta.history) ? (platform.meta.history as readonly string[]) : [];
  return { ...platform, meta: platformMeta(claimed, trust, history, isExternalChannel(claimed)) };
}

/** Did consolidation raise authority above the least trusted source? (for reports) */
export function amplifies(believed: Trust, leastSource: Trust): boolean {
  return trustRank(believed) > trustRank(leastSource);
}
