/**
 * The chat-completions client (src/oracle/client.ts) against a fake server on 127.0.0.1: the failure
 * matrix, each case with its expected outcome and the number of requests the server saw (so retries are
 * counted, not assumed). Backoffs are a few milliseconds; a timeout that should fire is at most 1 s against a
 * delay of 5 s or more, and one that should not is 3 s against an immediate answer (margins for a loaded machine).
 */
import { afterEach, describe, it, expect } from 'vitest';
import { ChatClient, readAnswer, showFailure, type ChatClientOptions, type ChatOutcome } from '../src/oracle/client.ts';
import { completion, startFakeServer, type Behaviour, type FakeServer } from './helpers/fake-openai.ts';

let server: FakeServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

const USER = [{ role: 'user', content: 'What is 6 * 7?' }] as const;

async function ask(script: (i: number) => Behaviour, opts: Partial<ChatClientOptions> = {}): Promise<{ out: ChatOutcome; seen: number }> {
  server = await startFakeServer((_r, i) => script(i));
  const client = new ChatClient({ baseUrl: server.url, model: 'fake-model', timeoutMs: 3000, retries: 3, backoffMs: 5, ...opts });
  const out = await client.complete(USER);
  return { out, seen: server.requests.length };
}

describe('the failure matrix', () => {
  it('a plain answer: ok after one request; the request is a chat completion for the model', async () => {
    const { out, seen } = await ask(() => ({ kind: 'answer', text: '42' }));
    expect(out).toEqual({ kind: 'ok', text: '42', attempts: 1 });
    expect(seen).toBe(1);
    expect(server!.requests[0]!.path).toBe('/v1/chat/completions');
    expect(server!.requests[0]!.body).toMatchObject({ model: 'fake-model', messages: USER, stream: false });
  });
  it('429 then success: retried, ok on the second attempt', async () => {
    const { out, seen } = await ask((i) => (i === 0 ? { kind: 'status', status: 429, body: '{"error":"slow down"}', headers: { 'retry-after': '0' } } : { kind: 'answer', text: '42' }));
    expect(out).toEqual({ kind: 'ok', text: '42', attempts: 2 });
    expect(seen).toBe(2);
  });
  it('500 twice then success: ok on the third attempt', async () => {
    const { out, seen } = await ask((i) => (i < 2 ? { kind: 'status', status: 500 } : { kind: 'answer', text: 'x' }));
    expect(out).toMatchObject({ kind: 'ok', text: 'x', attempts: 3 });
    expect(seen).toBe(3);
  });
  it('500 every time: fails after retries + 1 requests, reported as HTTP 500', async () => {
    const { out, seen } = await ask(() => ({ kind: 'status', status: 500, body: 'internal' }), { retries: 2 });
    expect(out).toMatchObject({ kind: 'failed', attempts: 3, retryable: true, failure: { kind: 'http', status: 500, body: 'internal' } });
    expect(seen).toBe(3);
  });
  it('503 with retries 0: a single request', async () => {
    const { out, seen } = await ask(() => ({ kind: 'status', status: 503 }), { retries: 0 });
    expect(out).toMatchObject({ kind: 'failed', attempts: 1 });
    expect(seen).toBe(1);
  });
  it.each([400, 401, 404, 422])('%i: a client error, not retried', async (status) => {
    const { out, seen } = await ask(() => ({ kind: 'status', status, body: '{"error":{"message":"bad request"}}' }));
    expect(out).toMatchObject({ kind: 'failed', attempts: 1, retryable: false, failure: { kind: 'http', status } });
    expect(seen).toBe(1);
  });
  it('a body that is not JSON: bad-json, not retried', async () => {
    const { out, seen } = await ask(() => ({ kind: 'raw', body: '<html>gateway</html>' }));
    expect(out).toMatchObject({ kind: 'failed', attempts: 1, failure: { kind: 'bad-json', body: '<html>gateway</html>' } });
    expect(seen).toBe(1);
  });
  it('truncated JSON: bad-json', async () => {
    const { out } = await ask(() => ({ kind: 'raw', body: JSON.stringify(completion('42')).slice(0, 40) }));
    expect(out).toMatchObject({ kind: 'failed', failure: { kind: 'bad-json' } });
  });
  it('empty choices: bad-shape naming it, not retried', async () => {
    const { out, seen } = await ask(() => ({ kind: 'json', body: { choices: [] } }));
    expect(out).toMatchObject({ kind: 'failed', attempts: 1, failure: { kind: 'bad-shape', why: 'empty "choices"' } });
    expect(seen).toBe(1);
  });
  it('null content (a tool-call answer): bad-shape', async () => {
    const { out } = await ask(() => ({ kind: 'json', body: { choices: [{ message: { role: 'assistant', content: null } }] } }));
    expect(out).toMatchObject({ kind: 'failed', failure: { kind: 'bad-shape', why: 'choices[0].message.content is not a string' } });
  });
  it('an answer slower than the timeout, then a fast one: ok on the second attempt', async () => {
    const { out, seen } = await ask((i) => (i === 0 ? { kind: 'answer', text: 'late', delayMs: 30_000 } : { kind: 'answer', text: 'on time' }), { timeoutMs: 1000 });
    expect(out).toEqual({ kind: 'ok', text: 'on time', attempts: 2 });
    expect(seen).toBe(2);
  });
  it('never answering: a timeout after retries + 1 attempts', async () => {
    const { out, seen } = await ask(() => ({ kind: 'hang' }), { timeoutMs: 100, retries: 1 });
    expect(out).toMatchObject({ kind: 'failed', attempts: 2, failure: { kind: 'timeout', afterMs: 100 } });
    expect(seen).toBe(2);
  });
  it('a slow stream (headers at once, body trickling past the timeout): the timeout covers the body', async () => {
    const body = JSON.stringify(completion('42'));
    const chunks = [body.slice(0, 10), body.slice(10, 20), body.slice(20)];
    const { out } = await ask(() => ({ kind: 'slow', chunks, intervalMs: 5000 }), { timeoutMs: 500, retries: 0 });
    expect(out).toMatchObject({ kind: 'failed', failure: { kind: 'timeout' } });
  });
  it('a slow stream within the timeout is fine', async () => {
    const body = JSON.stringify(completion('42'));
    const { out } = await ask(() => ({ kind: 'slow', chunks: [body.slice(0, 10), body.slice(10)], intervalMs: 20 }), { timeoutMs: 2000 });
    expect(out).toEqual({ kind: 'ok', text: '42', attempts: 1 });
  });
  it('a connection reset, then an answer: retried, ok', async () => {
    const { out, seen } = await ask((i) => (i === 0 ? { kind: 'reset' } : { kind: 'answer', text: '42' }));
    expect(out).toEqual({ kind: 'ok', text: '42', attempts: 2 });
    expect(seen).toBe(2);
  });
  it('resets every time: a network error after retries + 1 attempts', async () => {
    const { out, seen } = await ask(() => ({ kind: 'reset' }), { retries: 2 });
    expect(out).toMatchObject({ kind: 'failed', attempts: 3, failure: { kind: 'network' } });
    expect(seen).toBe(3);
  });
  it('nobody listening: a network error', async () => {
    const s = await startFakeServer(() => ({ kind: 'answer', text: '' }));
    const url = s.url;
    await s.close();
    const out = await new ChatClient({ baseUrl: url, model: 'm', timeoutMs: 500, retries: 1, backoffMs: 1 }).complete(USER);
    expect(out).toMatchObject({ kind: 'failed', attempts: 2, failure: { kind: 'network' } });
    expect(showFailure((out as Extract<ChatOutcome, { kind: 'failed' }>).failure)).toMatch(/ECONNREFUSED/);
  });
});

describe('the API key', () => {
  it('is sent as a bearer token and scrubbed from error texts that echo it', async () => {
    const key = 'sk-test-0123456789abcdef';
    const { out } = await ask(() => ({ kind: 'status', status: 401, body: `invalid key ${key}` }), { apiKey: key });
    expect(server!.requests[0]!.headers['authorization']).toBe(`Bearer ${key}`);
    expect(out.kind).toBe('failed');
    expect(JSON.stringify(out)).not.toContain(key);
    expect(showFailure((out as Extract<ChatOutcome, { kind: 'failed' }>).failure)).toContain('[API key]');
  });
  it('is not sent when absent', async () => {
    await ask(() => ({ kind: 'answer', text: '1' }));
    expect(server!.requests[0]!.headers['authorization']).toBeUndefined();
  });
});

describe('readAnswer', () => {
  it('reads choices[0].message.content and names what is missing', () => {
    expect(readAnswer(completion('hi'))).toEqual({ ok: true, text: 'hi' });
    expect(readAnswer([])).toEqual({ ok: false, why: 'no "choices" array' });
    expect(readAnswer({ choices: [{}] })).toEqual({ ok: false, why: 'choices[0] has no "message"' });
    expect(readAnswer(null)).toEqual({ ok: false, why: 'not a JSON object' });
  });
  it('the client refuses non-http URLs', () => {
    expect(() => new ChatClient({ baseUrl: 'file:///etc', model: 'm', timeoutMs: 1, retries: 0, backoffMs: 0 })).toThrow(/http/);
  });
});
