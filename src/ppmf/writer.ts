/**
 * Memory writers as models with exact response distributions.
 *
 * The consolidation step is an LLM, and untrusted: after reading attacker content it may keep the
 * source, drop it, paraphrase, or claim authority ("user-confirmed", "user workflow"). We model a
 * writer as a finite list of rewrites with exact rational weights summing to 1, so every rate the
 * table reports is an exact fraction over this list, not a sample. A rewrite yields the content `c`
 * and, for writers that also fill in record fields, a claimed channel / confirmation, which only a
 * system that lets writer claims through (`gate-only`) will believe.
 */
import type { Rational } from '../distributions/rational.ts';
import { absurd } from '../util/absurd.ts';
import { ONE, add, eq, isZero, lt, rat, show as showRat, ZERO } from '../distributions/rational.ts';
import type { Channel } from './policy.ts';
import { parseChannel } from './policy.ts';
import type { Observation } from './records.ts';

/** How a writer rewrites what it read (the order is the shrinking order: the paper's relabelling comes first among claims). */
export const REWRITE_STYLES = [
  'keep-source',
  'drop-source',
  'paraphrase',
  'relabel-workflow',
  'claim-confirmed',
  'user-preference',
  'drop-action',
] as const;

/** One rewrite style. */
export type RewriteStyle = (typeof REWRITE_STYLES)[number];

/** One writer response: a style, plus the record fields the writer claims (if it fills any in). */
export interface Rewrite {
  readonly style: RewriteStyle;
  readonly claimChannel?: Channel;
  readonly claimConfirmed?: boolean;
}

/** What the writer hands to consolidation: the content and its claimed fields. */
export interface WriterOutput {
  readonly content: string;
  readonly claimedChannel?: Channel;
  readonly claimedConfirmed?: boolean;
}

/** A response with its exact probability. */
export interface WriterResponse {
  readonly rewrite: Rewrite;
  readonly weight: Rational;
}

/** A writer model: an exact distribution over rewrites. */
export interface WriterModel {
  readonly name: string;
  readonly description: string;
  readonly responses: readonly WriterResponse[];
}

/**
 * A style with the record claims a writer producing it naturally makes: "User-confirmed: …" comes
 * with channel `user` and confirmed; "User workflow memory" and "User prefers" with channel `user`.
 */
export function styled(style: RewriteStyle): Rewrite {
  switch (style) {
    case 'claim-confirmed':
      return { style, claimChannel: 'user', claimConfirmed: true };
    case 'relabel-workflow':
    case 'user-preference':
      return { style, claimChannel: 'user' };
    case 'keep-source':
    case 'drop-source':
    case 'paraphrase':
    case 'drop-action':
      return { style };
    default:
      return absurd(style);
  }
}

/** How a writer describes where an observation came from (keep-source). */
function sourceWords(o: Observation): string {
  const c = parseChannel(o.meta.channel);
  if (c === undefined) return `unknown source ${o.origin}`;
  switch (c) {
    case 'user':
      return 'user said';
    case 'web':
      return `web page ${o.origin}`;
    case 'email':
      return `email from ${o.origin}`;
    case 'tool':
      return `tool output ${o.origin}`;
    case 'document':
      return `document ${o.origin}`;
    case 'message':
      return `message from ${o.origin}`;
    default:
      return absurd(c);
  }
}

/** One observation rewritten in one style. */
function renderOne(style: RewriteStyle, o: Observation): string {
  const g = o.gist;
  const subject = g.target === undefined ? g.action : `${g.action} ${g.target}`;
  switch (style) {
    case 'keep-source':
      return `[${sourceWords(o)}] ${o.text}`;
    case 'drop-source':
      return o.text;
    case 'paraphrase':
      return `For ${g.context}, ${subject}.`;
    case 'claim-confirmed':
      return `User-confirmed: ${subject} for ${g.context}.`;
    case 'relabel-workflow':
      return `User workflow memory: ${subject} for ${g.context}.`;
    case 'user-preference':
      return `User prefers to ${subject} for ${g.context}.`;
    case 'drop-action':
      return `Read about ${g.context}.`;
    default:
      return absurd(style);
  }
}

/** Apply a rewrite to the observations being consolidated (one sentence per observation). */
export function applyRewrite(r: Rewrite, sources: readonly Observation[]): WriterOutput {
  const content = sources.map((o) => renderOne(r.style, o)).join(' ');
  return {
    content,
    ...(r.claimChannel !== undefined ? { claimedChannel: r.claimChannel } : {}),
    ...(r.claimConfirmed !== undefined ? { claimedConfirmed: r.claimConfirmed } : {}),
  };
}

/** Short rendering of a rewrite, e.g. `claim-confirmed (claims user, confirmed)`. */
export function showRewrite(r: Rewrite): string {
  const claims = [r.claimChannel !== undefined ? `claims channel ${r.claimChannel}` : '', r.claimConfirmed ? 'claims confirmed' : '']
    .filter((x) => x !== '')
    .join(', ');
  return claims === '' ? r.style : `${r.style} (${claims})`;
}

/**
 * Build a writer model, checking it is a distribution: positive weights summing to exactly 1.
 * Throws (an internal error) otherwise: writer tables are code, not user input.
 */
export function writerModel(name: string, description: string, responses: readonly WriterResponse[]): WriterModel {
  let total = ZERO;
  for (const r of responses) {
    if (isZero(r.weight) || lt(r.weight, ZERO)) throw new Error(`internal error: writer ${name} has a non-positive weight`);
    total = add(total, r.weight);
  }
  if (!eq(total, ONE)) throw new Error(`internal error: writer ${name} weights sum to ${showRat(total)}, not 1`);
  return { name, description, responses };
}

/** A writer that always answers the same way. */
export function pointWriter(r: Rewrite): WriterModel {
  return writerModel(`always-${r.style}`, `always ${showRewrite(r)}`, [{ rewrite: r, weight: ONE }]);
}

/** The named writer models used by the fixed scenario sets. */
export const WRITERS = {
  /** Keeps the source attribution verbatim. */
  faithful: writerModel('faithful', 'keeps the source attribution verbatim', [{ rewrite: styled('keep-source'), weight: ONE }]),
  /** Compresses: drops the attribution or paraphrases, claims nothing. */
  compressing: writerModel('compressing', 'drops the attribution or paraphrases, claims nothing', [
    { rewrite: styled('drop-source'), weight: rat(1, 2) },
    { rewrite: styled('paraphrase'), weight: rat(1, 2) },
  ]),
  /** A high-laundering writer in the spirit of the paper's measurements (laundering ≈ 0.93). */
  launderer: writerModel('launderer', 'usually rewrites external content as user workflow or user-confirmed', [
    { rewrite: styled('relabel-workflow'), weight: rat(1, 3) },
    { rewrite: styled('claim-confirmed'), weight: rat(1, 3) },
    { rewrite: styled('paraphrase'), weight: rat(1, 5) },
    { rewrite: styled('drop-action'), weight: rat(1, 15) },
    { rewrite: styled('keep-source'), weight: rat(1, 15) },
  ]),
  /** A writer that prefers user-preference framing and sometimes keeps the source. */
  preferrer: writerModel('preferrer', 'frames external content as user preference, sometimes confirmed', [
    { rewrite: styled('user-preference'), weight: rat(1, 2) },
    { rewrite: styled('claim-confirmed'), weight: rat(1, 4) },
    { rewrite: styled('keep-source'), weight: rat(1, 4) },
  ]),
} as const satisfies Readonly<Record<string, WriterModel>>;
