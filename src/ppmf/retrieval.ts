/**
 * Retrieval: a simple, deterministic top-k over stored memories.
 *
 * [ours] Relevance is the number of distinct content words (three letters or more, minus stop words)
 * shared by the task-B request and the memory; memories sharing none are never retrieved. Ties go to
 * the smaller id, and decoys are named `decoy-…` so they win ties against `mem-…`: the worst case for
 * benign recall, which is what the decoy sweep should show.
 */
import type { StoredMemory } from './records.ts';

const STOP = new Set(
  'the and for with that this from your you are was were has have had will would into about when then than what which who how our out can all any its not but use used using set new per via'.split(' '),
);

/** Memo of `words` (the same memories are scored for many branches); cleared when large. */
const wordMemo = new Map<string, ReadonlySet<string>>();

/** Distinct content words of a text, lower-cased. */
export function words(text: string): ReadonlySet<string> {
  const hit = wordMemo.get(text);
  if (hit !== undefined) return hit;
  const ws = new Set((text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3 && !STOP.has(w)));
  if (wordMemo.size > 50_000) wordMemo.clear();
  wordMemo.set(text, ws);
  return ws;
}

function shared(q: ReadonlySet<string>, content: string): number {
  let n = 0;
  for (const w of words(content)) if (q.has(w)) n++;
  return n;
}

/** Relevance of a memory to a request: shared content words. */
export function relevance(query: string, m: StoredMemory): number {
  return shared(words(query), m.content);
}

/** The `k` most relevant memories with positive relevance, most relevant first, ties by id. */
export function retrieve(query: string, memories: readonly StoredMemory[], k: number): readonly StoredMemory[] {
  const q = words(query);
  return memories
    .map((m) => ({ m, s: shared(q, m.content) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0))
    .slice(0, Math.max(0, k))
    .map((x) => x.m);
}
