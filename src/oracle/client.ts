/**
 * A client for an OpenAI-compatible chat-completions endpoint (`POST {base}/chat/completions`), written
 * on Node's built-in `fetch` (undici) so the toolkit needs no new dependency: the request is one JSON POST
 * and the answer one JSON object, which is all this needs (no streaming, no tool calls). See docs/oracle.md.
 *
 * Every call has a timeout covering the whole exchange, body included (an `AbortController`), and bounded
 * retries with exponential backoff on 429, 5xx, timeouts and network failures (a `Retry-After` header is
 * honoured up to a cap). Other 4xx, a body that is not JSON, and an answer without a message are not
 * retried. Outcomes are values (`ChatOutcome`), never exceptions. The API key is read from an environment
 * variable by the caller, sent only in the `Authorization` header and scrubbed from every error text.
 */

/** One chat message. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

/** Settings of a client. */
export interface ChatClientOptions {
  /** Base URL, e.g. `http://127.0.0.1:8080/v1` (`/chat/completions` is appended). */
  readonly baseUrl: string;
  /** The `model` field of the request. */
  readonly model: string;
  /** The API key (from an environment variable); omitted from the request when undefined. */
  readonly apiKey?: string;
  /** Timeout of one attempt, body included, in milliseconds. */
  readonly timeoutMs: number;
  /** Retries after the first attempt (so at most `retries + 1` requests). */
  readonly retries: number;
  /** Backoff before retry `k` (1-based) is `backoffMs · 2^(k−1)`. */
  readonly backoffMs: number;
  /** Cap on any single wait, `Retry-After` included. */
  readonly maxBackoffMs?: number;
  /** Extra request fields (e.g. `temperature`); part of the cache key. */
  readonly params?: Readonly<Record<string, string | number | boolean>>;
}

/** Why a call failed. */
export type ChatFailure =
  | { readonly kind: 'timeout'; readonly afterMs: number }
  | { readonly kind: 'network'; readonly message: string }
  | { readonly kind: 'http'; readonly status: number; readonly body: string }
  | { readonly kind: 'bad-json'; readonly body: string }
  | { readonly kind: 'bad-shape'; readonly why: string; readonly body: string };

/** The outcome of a call, after retries. */
export type ChatOutcome =
  | { readonly kind: 'ok'; readonly text: string; readonly attempts: number }
  | { readonly kind: 'failed'; readonly failure: ChatFailure; readonly attempts: number; readonly retryable: boolean };

/** One line describing a failure (no API key in it). */
export function showFailure(f: ChatFailure): string {
  switch (f.kind) {
    case 'timeout': return `no complete answer within ${f.afterMs} ms (timeout)`;
    case 'network': return `network error: ${f.message}`;
    case 'http': return `HTTP ${f.status}${f.body ? `: ${f.body}` : ''}`;
    case 'bad-json': return `the answer is not JSON: ${f.body}`;
    case 'bad-shape': return `the answer has no usable message (${f.why}): ${f.body}`;
    default: return absurdFailure(f);
  }
}

function absurdFailure(x: never): never {
  throw new Error(`internal error: unknown failure ${JSON.stringify(x)}`);
}

const SNIPPET = 200;
const snippet = (s: string): string => (s.length > SNIPPET ? `${s.slice(0, SNIPPET)}…` : s).replace(/\s+/g, ' ').trim();

/** Is a failure worth another attempt? 429, 5xx, timeouts and network errors are. */
export function isRetryable(f: ChatFailure): boolean {
  return f.kind === 'timeout' || f.kind === 'network' || (f.kind === 'http' && (f.status === 429 || f.status >= 500));
}

/** The endpoint URL for a base URL. */
export function completionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

/** Read `choices[0].message.content` from a parsed answer, or say why not. */
export function readAnswer(json: unknown): { ok: true; text: string } | { ok: false; why: string } {
  if (typeof json !== 'object' || json === null) return { ok: false, why: 'not a JSON object' };
  const choices = (json as Record<string, unknown>)['choices'];
  if (!Array.isArray(choices)) return { ok: false, why: 'no "choices" array' };
  if (choices.length === 0) return { ok: false, why: 'empty "choices"' };
  const first = choices[0] as Record<string, unknown> | null;
  const message = typeof first === 'object' && first !== null ? first['message'] : undefined;
  if (typeof message !== 'object' || message === null) return { ok: false, why: 'choices[0] has no "message"' };
  const content = (message as Record<string, unknown>)['content'];
  if (typeof content !== 'string') return { ok: false, why: 'choices[0].message.content is not a string' };
  return { ok: true, text: content };
}

/** A chat-completions client. */
export class ChatClient {
  readonly url: string;
  constructor(readonly opts: ChatClientOptions) {
    let u: URL;
    try { u = new URL(completionsUrl(opts.baseUrl)); } catch { throw new TypeError(`not a URL: ${opts.baseUrl}`); }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`the oracle URL must be http(s), got ${opts.baseUrl}`);
    this.url = u.href;
  }

  /** Remove the API key from a text that may echo request headers. */
  scrub(s: string): string {
    const k = this.opts.apiKey;
    return k ? s.split(k).join('[API key]') : s;
  }

  /** Ask for one completion, retrying as configured. */
  async complete(messages: readonly ChatMessage[]): Promise<ChatOutcome> {
    let attempt = 0;
    for (;;) {
      attempt++;
      const r = await this.attempt(messages);
      if (r.ok) return { kind: 'ok', text: r.text, attempts: attempt };
      const retryable = isRetryable(r.failure);
      if (!retryable || attempt > this.opts.retries) return { kind: 'failed', failure: r.failure, attempts: attempt, retryable };
      const cap = this.opts.maxBackoffMs ?? 30_000;
      const wait = Math.min(cap, r.retryAfterMs ?? this.opts.backoffMs * 2 ** (attempt - 1));
      await new Promise((go) => setTimeout(go, wait));
    }
  }

  private async attempt(messages: readonly ChatMessage[]): Promise<{ ok: true; text: string } | { ok: false; failure: ChatFailure; retryAfterMs?: number }> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), this.opts.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.opts.apiKey) headers['authorization'] = `Bearer ${this.opts.apiKey}`;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.opts.model, messages, stream: false, ...(this.opts.params ?? {}) }),
        signal: ctl.signal,
      });
      const body = await res.text();
      if (!res.ok) {
        const ra = retryAfter(res.headers.get('retry-after'));
        return { ok: false, failure: { kind: 'http', status: res.status, body: this.scrub(snippet(body)) }, ...(ra !== undefined ? { retryAfterMs: ra } : {}) };
      }
      let json: unknown;
      try { json = JSON.parse(body); } catch { return { ok: false, failure: { kind: 'bad-json', body: this.scrub(snippet(body)) } }; }
      const a = readAnswer(json);
      return a.ok ? a : { ok: false, failure: { kind: 'bad-shape', why: a.why, body: this.scrub(snippet(body)) } };
    } catch (e) {
      if (ctl.signal.aborted) return { ok: false, failure: { kind: 'timeout', afterMs: this.opts.timeoutMs } };
      return { ok: false, failure: { kind: 'network', message: this.scrub(networkMessage(e)) } };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), when present and sensible. */
function retryAfter(h: string | null): number | undefined {
  if (h === null) return undefined;
  const s = Number(h);
  if (Number.isFinite(s) && s >= 0) return s * 1000;
  const t = Date.parse(h);
  return Number.isNaN(t) ? undefined : Math.max(0, t - Date.now());
}

/** undici wraps the real cause (`ECONNRESET`, `other side closed`, …) in `TypeError: fetch failed`. */
function networkMessage(e: unknown): string {
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const cause = err?.cause;
  const detail = cause ? [cause.code, cause.message].filter(Boolean).join(' ') : '';
  return [err?.message ?? String(e), detail].filter(Boolean).join(': ');
}
