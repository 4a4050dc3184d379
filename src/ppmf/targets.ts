/**
 * Action targets and their canonical forms (gate step 1.2): URLs, accounts (IBAN-like), handles
 * (e-mail addresses and @names), files, endpoints, workflow ids, and [ours] quoted literal values
 * (new passwords, street addresses). Two spellings of one target canonicalise to one key, so a writer
 * that reformats an IBAN or a URL cannot split a target away from its provenance.
 */
import type { TargetKind } from './policy.ts';
import { TARGET_KINDS } from './policy.ts';

/** A canonical action target. Compare with `sameTarget` or by `targetKey`, never `===`. */
export interface Target {
  readonly kind: TargetKind;
  readonly value: string;
}

/** Canonical key `kind:value` (also the stored form in confirmation events). */
export function targetKey(t: Target): string {
  return `${t.kind}:${t.value}`;
}

/** Equality of canonical targets. */
export function sameTarget(a: Target, b: Target): boolean {
  return a.kind === b.kind && a.value === b.value;
}

/** Decode a stored `kind:value` key; `undefined` when malformed (fail closed). */
export function parseTargetKey(x: unknown): Target | undefined {
  if (typeof x !== 'string') return undefined;
  const i = x.indexOf(':');
  if (i <= 0 || i === x.length - 1) return undefined;
  const kind = x.slice(0, i);
  if (!(TARGET_KINDS as readonly string[]).includes(kind)) return undefined;
  const t = canonicalise(kind as TargetKind, x.slice(i + 1));
  // A stored key must already be canonical: a non-canonical spelling is treated as corrupted.
  return t !== undefined && t.value === x.slice(i + 1) ? t : undefined;
}

/** Human rendering, e.g. `account DE89370400440532013000`. */
export function showTarget(t: Target): string {
  return `${t.kind} ${t.value}`;
}

/**
 * Platform alias map: an alias word (lower case) to the canonical target(s) the platform's own
 * records (contacts, saved payees) say it names. An alias with several targets is ambiguous.
 */
export type AliasMap = ReadonlyMap<string, readonly Target[]>;

/** The empty alias map. */
export const NO_ALIASES: AliasMap = new Map();

interface Extractor {
  readonly kind: TargetKind;
  readonly pattern: RegExp;
  /** Canonical value of one match, or undefined when the match is not a valid target. */
  canon(match: RegExpExecArray): string | undefined;
}

function canonUrl(raw: string): string | undefined {
  const trimmed = raw.replace(/[.,;:!?]+$/, '');
  let u: URL;
  try {
    u = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : '';
  return `${u.protocol}//${u.host}${path}${u.search}`;
}

function canonPath(raw: string): string {
  // Sentence punctuation after a path is not part of it ("delete /tmp/a.txt.").
  const p = raw.replace(/[.,;:!?]+$/, '').replace(/\/{2,}/g, '/').replace(/\/\.(?=\/|$)/g, '').replace(/^\.\//, '/');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

function canonAccount(raw: string): string | undefined {
  const v = raw.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(v) ? v : undefined;
}

function canonValue(raw: string): string | undefined {
  const v = raw.trim().replace(/^["“']|["”']$/g, '').trim().replace(/\s+/g, ' ').toLowerCase();
  return v.length > 0 ? v : undefined;
}

/**
 * Extractors in masking order: a span claimed by an earlier kind is blanked before later kinds
 * look, so the path inside a URL is not also read as a file and an e-mail is not also an @handle.
 */
const EXTRACTORS: readonly Extractor[] = [
  { kind: 'url', pattern: /\bhttps?:\/\/[^\s"'<>()[\]{}]+/gi, canon: (m) => canonUrl(m[0]) },
  {
    kind: 'endpoint',
    pattern: /\b(GET|POST|PUT|PATCH|DELETE)\s+(\/[A-Za-z0-9._~\-/{}]*)/g,
    canon: (m) => `${m[1]} ${canonPath(m[2] ?? '/')}`,
  },
  {
    kind: 'handle',
    pattern: /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g,
    canon: (m) => m[0].toLowerCase(),
  },
  { kind: 'handle', pattern: /(?<![\w@.])@[A-Za-z0-9_]{2,30}\b/g, canon: (m) => m[0].toLowerCase() },
  {
    kind: 'account',
    pattern: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g,
    canon: (m) => canonAccount(m[0]),
  },
  {
    kind: 'file',
    pattern: /(?<![\w./])(?:~|\.{1,2})?\/+[A-Za-z0-9._-]+(?:\/+[A-Za-z0-9._-]+)*\/?/g,
    canon: (m) => canonPath(m[0]),
  },
  { kind: 'workflow', pattern: /\b[A-Za-z]{2,4}-[A-Za-z]?\d{2,6}\b/g, canon: (m) => m[0].toUpperCase() },
  { kind: 'value', pattern: /"([^"\n]{1,80})"|“([^”\n]{1,80})”/g, canon: (m) => canonValue(m[1] ?? m[2] ?? '') },
];

/** Scan a text: the targets found (with positions) and the text with every matched span blanked. */
function scan(text: string): { readonly found: readonly { at: number; t: Target }[]; readonly rest: string } {
  let rest = text;
  const found: { at: number; t: Target }[] = [];
  for (const ex of EXTRACTORS) {
    const re = new RegExp(ex.pattern.source, ex.pattern.flags);
    let blanked = rest;
    for (let m = re.exec(rest); m !== null; m = re.exec(rest)) {
      const v = ex.canon(m);
      if (v !== undefined) found.push({ at: m.index, t: { kind: ex.kind, value: v } });
      blanked = blanked.slice(0, m.index) + ' '.repeat(m[0].length) + blanked.slice(m.index + m[0].length);
    }
    rest = blanked;
  }
  found.sort((a, b) => a.at - b.at);
  return { found, rest };
}

/** Memo of `extractTargets` (texts repeat across writer branches and systems); cleared when large. */
const extracted = new Map<string, readonly Target[]>();

/** Every canonical target written in a text, in order of first appearance, without duplicates. */
export function extractTargets(text: string): readonly Target[] {
  const hit = extracted.get(text);
  if (hit !== undefined) return hit;
  const out: Target[] = [];
  for (const { t } of scan(text).found) if (!out.some((o) => sameTarget(o, t))) out.push(t);
  if (extracted.size > 50_000) extracted.clear();
  extracted.set(text, Object.freeze(out));
  return out;
}

/**
 * Canonicalise one tool argument of a known kind (gate step 1.2). `undefined` when the text is not
 * exactly one well-formed target of that kind (then the gate tries the platform alias map).
 */
export function canonicalise(kind: TargetKind, raw: string): Target | undefined {
  const key = `${kind}\u0000${raw}`;
  if (canonMemo.has(key)) return canonMemo.get(key);
  const t = canonicaliseUncached(kind, raw);
  if (canonMemo.size > 50_000) canonMemo.clear();
  canonMemo.set(key, t);
  return t;
}

/** Memo of `canonicalise` (tool arguments repeat across branches). */
const canonMemo = new Map<string, Target | undefined>();

function canonicaliseUncached(kind: TargetKind, raw: string): Target | undefined {
  if (kind === 'value') {
    const v = canonValue(raw);
    return v === undefined ? undefined : { kind, value: v };
  }
  const { found, rest } = scan(raw.trim());
  const only = found[0];
  // The whole argument must be one target: "DE89… or the other one" is not canonical.
  return found.length === 1 && only !== undefined && only.t.kind === kind && rest.trim() === '' ? only.t : undefined;
}

/** Alias words of the platform map that a text mentions, with the targets they resolve to. */
export function aliasMentions(text: string, aliases: AliasMap): readonly { alias: string; targets: readonly Target[] }[] {
  const lower = text.toLowerCase();
  const out: { alias: string; targets: readonly Target[] }[] = [];
  for (const [alias, targets] of aliases) {
    const re = new RegExp(`(?<![a-z0-9_-])${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9_-])`);
    if (re.test(lower)) out.push({ alias, targets });
  }
  return out;
}

/** How a text refers to a target: `exact` (canonical identifier), `alias` (unique platform alias), or not at all. */
export type Mention = 'exact' | 'alias' | 'none';

/** Does `text` name `t` exactly, through a unique platform alias, or not at all? */
export function mentionOf(text: string, t: Target, aliases: AliasMap): Mention {
  if (extractTargets(text).some((x) => sameTarget(x, t))) return 'exact';
  // An ambiguous alias (several targets) never counts as a match: binding falls back instead.
  const viaAlias = aliasMentions(text, aliases).some((a) => a.targets.length === 1 && a.targets[0] !== undefined && sameTarget(a.targets[0], t));
  return viaAlias ? 'alias' : 'none';
}
