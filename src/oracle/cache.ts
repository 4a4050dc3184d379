/**
 * The on-disk response cache of the live oracle: one JSON file per request, named by the SHA-256 of the
 * request key (endpoint URL, model, extra parameters, chat messages). The entry repeats the request so a
 * hit is checked against it, and holds the answer. The API key is never part of it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatMessage } from './client.ts';

/** What identifies a request. */
export interface RequestKey {
  readonly endpoint: string;
  readonly model: string;
  readonly params: Readonly<Record<string, string | number | boolean>>;
  readonly messages: readonly ChatMessage[];
}

/** Canonical JSON of a request key (parameters sorted by name). */
export function canonicalKey(k: RequestKey): string {
  const params = Object.fromEntries(Object.entries(k.params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify({ endpoint: k.endpoint, model: k.model, params, messages: k.messages.map((m) => ({ role: m.role, content: m.content })) });
}

/** SHA-256 of the canonical key, hex. */
export function keyHash(k: RequestKey): string {
  return createHash('sha256').update(canonicalKey(k)).digest('hex');
}

/** A directory of cached answers. */
export class ResponseCache {
  hits = 0;
  writes = 0;
  constructor(readonly dir: string) {}

  /** The cached answer to a request, if any (a corrupt or mismatching entry counts as a miss). */
  get(k: RequestKey): string | undefined {
    let text: string;
    try { text = readFileSync(join(this.dir, `${keyHash(k)}.json`), 'utf8'); } catch { return undefined; }
    try {
      const e = JSON.parse(text) as { request?: unknown; response?: unknown };
      if (typeof e.response !== 'string' || JSON.stringify(e.request) !== canonicalKey(k)) return undefined;
      this.hits++;
      return e.response;
    } catch {
      return undefined;
    }
  }

  /** Store an answer (written to a temporary file, then renamed: a crash never leaves half an entry). */
  put(k: RequestKey, response: string): void {
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, `${keyHash(k)}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ request: JSON.parse(canonicalKey(k)), response }, null, 2)}\n`);
    renameSync(tmp, file);
    this.writes++;
  }
}
