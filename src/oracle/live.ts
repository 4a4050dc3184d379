/**
 * Driving the synchronous `peval` (src/semantics/peval.ts) with an asynchronous oracle (docs/oracle.md).
 *
 * `peval` asks its oracle synchronously. The driver runs `peval` with an oracle that answers from the
 * answers already known (this run's, then the on-disk cache); on the first unknown question it aborts the
 * pass (a private exception `peval` does not catch), fetches that one answer over HTTP, and runs `peval`
 * again from the start. `peval` is deterministic given its answers, so each pass replays the previous one
 * exactly and gets one `recv` further: a run with k `recv`s takes k + 1 passes and k requests, and the
 * interpreter itself stays the pure, separately tested function Theorem 3 is about.
 *
 * Messages to chat: the calculus's conversation is a list of strings, `c ++ [v]` on `send` and `c ++ [r]`
 * on `recv`. A message is the assistant's when it is an answer this run received at exactly that
 * position (`c ++ [r]` with `r` the oracle's answer to `c`), otherwise the user's; an optional system
 * message goes first.
 */
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import type { Conversation } from '../semantics/config.ts';
import type { PModel } from '../semantics/model.ts';
import { peval, type PevalResult } from '../semantics/peval.ts';
import type { Prelude } from '../semantics/prelude.ts';
import type { ChatFailure, ChatMessage, ChatOutcome } from './client.ts';
import type { RequestKey } from './cache.ts';

/** Where answers come from: a chat client (live) or anything with the same shape (tests). */
export interface AnswerSource {
  complete(messages: readonly ChatMessage[]): Promise<ChatOutcome>;
}

/** A cache of answers by request (src/oracle/cache.ts). */
export interface AnswerCache {
  get(k: RequestKey): string | undefined;
  put(k: RequestKey, response: string): void;
}

/** One answered `recv`: its index, the calculus conversation, the chat messages sent, the answer. */
export interface AnsweredCall {
  readonly index: number;
  readonly messages: readonly string[];
  readonly chat: readonly ChatMessage[];
  readonly response: string;
}

/** The outcome of a live run. */
export type LiveRun<L> =
  | { readonly kind: 'done'; readonly result: PevalResult<L>; readonly calls: readonly AnsweredCall[]; readonly fetched: number }
  | {
      readonly kind: 'oracle-failed';
      /** The failing `recv`: its index and conversation. */
      readonly index: number;
      readonly messages: readonly string[];
      readonly chat: readonly ChatMessage[];
      readonly failure: ChatFailure;
      readonly attempts: number;
      /** The `recv`s answered before it (all kept in the cache). */
      readonly calls: readonly AnsweredCall[];
      readonly fetched: number;
    };

/** Tracks which messages were the assistant's. */
export class RoleTracker {
  readonly #answered = new Set<string>();
  /** Record that `response` answered conversation `messages`. */
  answered(messages: readonly string[], response: string): void {
    this.#answered.add(JSON.stringify([...messages, response]));
  }
  /** The chat messages for a conversation (system message first when given). */
  toChat(messages: readonly string[], system?: string): ChatMessage[] {
    const out: ChatMessage[] = system === undefined ? [] : [{ role: 'system', content: system }];
    messages.forEach((m, i) => {
      out.push({ role: this.#answered.has(JSON.stringify(messages.slice(0, i + 1))) ? 'assistant' : 'user', content: m });
    });
    return out;
  }
}

/** What a live run needs. */
export interface LiveSetup<L> {
  readonly model: PModel;
  readonly lattice: Lattice<L>;
  readonly prelude: Prelude<L>;
  readonly fuel: number;
  readonly pc: L;
  readonly conv: Conversation<L>;
  readonly expr: Expr<L>;
  readonly source: AnswerSource;
  /** Request key of a chat (endpoint, model, parameters are fixed by the caller). */
  readonly keyOf: (chat: readonly ChatMessage[]) => RequestKey;
  readonly cache?: AnswerCache;
  readonly system?: string;
}

/** Private signal: the oracle met a question it has no answer to yet. */
class Miss {
  constructor(readonly index: number, readonly messages: readonly string[], readonly chat: readonly ChatMessage[], readonly key: RequestKey) {}
}

/** Run `peval` to the end against an asynchronous answer source (see the module comment). */
export async function runLive<L>(s: LiveSetup<L>): Promise<LiveRun<L>> {
  const known = new Map<string, string>();
  const roles = new RoleTracker();
  let fetched = 0;
  for (;;) {
    const calls: AnsweredCall[] = [];
    const oracle = (index: number, messages: readonly string[]): string => {
      const chat = roles.toChat(messages, s.system);
      const key = s.keyOf(chat);
      const k = JSON.stringify(key);
      const r = known.get(k) ?? s.cache?.get(key);
      if (r === undefined) throw new Miss(index, [...messages], chat, key);
      known.set(k, r);
      roles.answered(messages, r);
      calls.push({ index, messages: [...messages], chat, response: r });
      return r;
    };
    let miss: Miss;
    try {
      const result = peval(s.model, s.lattice, oracle, 0, s.fuel, s.pc, s.conv, s.expr, s.prelude);
      return { kind: 'done', result, calls, fetched };
    } catch (e) {
      if (!(e instanceof Miss)) throw e;
      miss = e;
    }
    const out = await s.source.complete(miss.chat);
    if (out.kind === 'failed') {
      return { kind: 'oracle-failed', index: miss.index, messages: miss.messages, chat: miss.chat, failure: out.failure, attempts: out.attempts, calls, fetched };
    }
    fetched++;
    known.set(JSON.stringify(miss.key), out.text);
    s.cache?.put(miss.key, out.text);
  }
}

/** Escape a message so the `table:` model matches it literally (it reads `/…/` as a regex). */
export function literalPattern(m: string): string {
  if (!/^\/.*\/[a-z]*$/s.test(m)) return m;
  return `/^${m.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}$/`;
}

/**
 * A `table:` model (src/semantics/models/index.ts) that answers every recorded conversation with its
 * recorded answer, probability 1: the whole conversation is the rule's suffix, longest first, so no
 * recorded conversation is shadowed by a shorter one; there is no default (anything else is missing mass).
 */
export function recordingTable(calls: readonly AnsweredCall[]): { rules: { suffix: string[]; responses: Record<string, string> }[] } {
  const seen = new Map<string, AnsweredCall>();
  for (const c of calls) seen.set(JSON.stringify(c.messages), c);
  const rules = [...seen.values()]
    .sort((a, b) => b.messages.length - a.messages.length)
    .map((c) => ({ suffix: c.messages.map(literalPattern), responses: { [c.response]: '1' } }));
  return { rules };
}
