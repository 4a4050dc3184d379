/**
 * Support binding (gate step 1): which retrieved memories back a proposed tool call.
 *
 *   1. pointer first: the call cites memory ids ⇒ S(a) is exactly those memories;
 *   2. otherwise canonicalise the call's targets;
 *   3. match them against the memories: exact identifiers win over aliases, an alias counts only
 *      through the platform alias map;
 *   4. several matches for one target: keep them all;
 *   5. partial, ambiguous or missing match ⇒ S(a) = R.
 *
 * [ours] A pointer is honoured only when every cited memory was retrieved and the cited memories
 * name every target of the call; otherwise it is a partial match (step 5). Without this, citing an
 * unrelated confirmed memory would upgrade an external-derived target, which rule 5 of the gate
 * forbids (variant `blind-pointer` shows it).
 */
import type { TargetKind } from './policy.ts';
import { TOOLS } from './policy.ts';
import type { StoredMemory } from './records.ts';
import type { AliasMap, Target } from './targets.ts';
import { canonicalise, mentionOf, sameTarget, targetKey } from './targets.ts';

/** A proposed tool call: tool name, raw arguments, and optionally the memory ids it cites. */
export interface ToolCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, string>>;
  readonly cites?: readonly string[];
}

/** One target argument of a call after canonicalisation. */
export interface CallTarget {
  readonly arg: string;
  readonly kind: TargetKind;
  readonly raw: string;
  /** The canonical target; absent when the argument could not be resolved. */
  readonly target?: Target;
  /** `canonical` identifier, resolved through a unique platform `alias`, `ambiguous` alias, or `unresolved`. */
  readonly via: 'canonical' | 'alias' | 'ambiguous' | 'unresolved';
}

/** Canonicalise a call's target arguments by its tool schema (unknown tools have none). */
export function callTargets(call: ToolCall, aliases: AliasMap): readonly CallTarget[] {
  const schema = TOOLS[call.tool];
  if (schema === undefined) return [];
  return Object.entries(schema.targets).map(([arg, kind]): CallTarget => {
    const raw = call.args[arg] ?? '';
    const t = canonicalise(kind, raw);
    if (t !== undefined) return { arg, kind, raw, target: t, via: 'canonical' };
    const mapped = (aliases.get(raw.trim().toLowerCase()) ?? []).filter((x) => x.kind === kind);
    const only = mapped[0];
    if (mapped.length === 1 && only !== undefined) return { arg, kind, raw, target: only, via: 'alias' };
    return { arg, kind, raw, via: mapped.length > 1 ? 'ambiguous' : 'unresolved' };
  });
}

/** The result of binding: the support set and how it was found. */
export interface Binding {
  /** `pointer` (step 1), `matched` (steps 2–4) or `fallback` (step 5: S(a) = R). */
  readonly mode: 'pointer' | 'matched' | 'fallback';
  readonly support: readonly StoredMemory[];
  /** Why, in words (reports). */
  readonly reason: string;
}

/** Memories naming `t`: the exact matches if any, else the alias matches (step 3). */
export function matchesFor(t: Target, retrieved: readonly StoredMemory[], aliases: AliasMap): readonly StoredMemory[] {
  const exact = retrieved.filter((m) => mentionOf(m.content, t, aliases) === 'exact');
  return exact.length > 0 ? exact : retrieved.filter((m) => mentionOf(m.content, t, aliases) === 'alias');
}

/** Reference support binding (the five steps above). */
export function bindSupport(
  call: ToolCall,
  targets: readonly CallTarget[],
  retrieved: readonly StoredMemory[],
  aliases: AliasMap,
): Binding {
  const fallback = (reason: string): Binding => ({ mode: 'fallback', support: retrieved, reason });
  const unresolved = targets.find((t) => t.target === undefined);
  if (unresolved !== undefined) return fallback(`argument ${unresolved.arg}=${JSON.stringify(unresolved.raw)} is ${unresolved.via}`);
  const resolved = targets.map((t) => t.target).filter((t): t is Target => t !== undefined);
  if (call.cites !== undefined && call.cites.length > 0) {
    const cited = retrieved.filter((m) => call.cites?.includes(m.id));
    if (cited.length !== new Set(call.cites).size) return fallback('the call cites a memory that was not retrieved');
    const uncovered = resolved.find((t) => matchesFor(t, cited, aliases).length === 0);
    if (uncovered !== undefined) return fallback(`the cited memories do not name ${targetKey(uncovered)}`);
    return { mode: 'pointer', support: cited, reason: `cited ${cited.map((m) => m.id).join(', ')}` };
  }
  if (resolved.length === 0) return fallback('the call has no target to match');
  const support: StoredMemory[] = [];
  for (const t of resolved) {
    const ms = matchesFor(t, retrieved, aliases);
    if (ms.length === 0) return fallback(`no retrieved memory names ${targetKey(t)}`);
    for (const m of ms) if (!support.includes(m)) support.push(m);
  }
  const names = resolved.map(targetKey).join(', ');
  return { mode: 'matched', support, reason: `${support.map((m) => m.id).join(', ')} name ${names}` };
}

/** Does some memory in the list name `t` (exactly or through a unique platform alias)? */
export function someMention(t: Target, ms: readonly StoredMemory[], aliases: AliasMap): boolean {
  return ms.some((m) => mentionOf(m.content, t, aliases) !== 'none');
}

/** Targets of a call that resolved, deduplicated. */
export function resolvedTargets(targets: readonly CallTarget[]): readonly Target[] {
  const out: Target[] = [];
  for (const ct of targets) if (ct.target !== undefined && !out.some((o) => sameTarget(o, ct.target as Target))) out.push(ct.target);
  return out;
}
