/**
 * Live runs (src/oracle/live.ts, src/cli/oracle.ts) against a fake OpenAI-compatible server on
 * 127.0.0.1: conversations map to chat roles by provenance, a failing `recv` is reported with its
 * conversation and nothing already answered is lost (the cache resumes the run), a cached run replays
 * with the server gone, and `llmbda run --oracle … --record F` then `--replay F` print identical output.
 */
import { afterEach, describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latticeByName } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import { prettyPrint } from '../src/syntax/printer.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { constModel, tableModel } from '../src/semantics/models/index.ts';
import { ChatClient, completionsUrl, type ChatMessage } from '../src/oracle/client.ts';
import { ResponseCache, type RequestKey } from '../src/oracle/cache.ts';
import { literalPattern, recordingTable, RoleTracker, runLive, type LiveRun } from '../src/oracle/live.ts';
import { startFakeServer, type Behaviour, type FakeServer, type Recorded } from './helpers/fake-openai.ts';

const lat = latticeByName('powerset-us')!;
const model = constModel('unused');
const prelude = loadPrelude(lat, model.preludeSource);
const ASK = readFileSync('examples/oracle/ask.lam', 'utf8');

let servers: FakeServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => { const d = mkdtempSync(join(tmpdir(), 'llmbda-oracle-')); dirs.push(d); return d; };

/** The scripted "model" of these tests: answers by the last user message. */
function sensible(r: Recorded): Behaviour {
  const last = r.body.messages!.at(-1)!.content;
  return { kind: 'answer', text: last.startsWith('What') ? '42' : last.startsWith('Reply with 1') ? '1' : '"yes"' };
}

async function serve(script: (r: Recorded, i: number) => Behaviour): Promise<FakeServer> {
  const s = await startFakeServer(script);
  servers.push(s);
  return s;
}

async function live(url: string, src: string, cache?: ResponseCache, retries = 1): Promise<LiveRun<unknown>> {
  const endpoint = completionsUrl(url);
  const keyOf = (chat: readonly ChatMessage[]): RequestKey => ({ endpoint, model: 'fake', params: {}, messages: chat });
  const client = new ChatClient({ baseUrl: url, model: 'fake', timeoutMs: 2000, retries, backoffMs: 5 });
  return runLive({
    model, lattice: lat, prelude, fuel: 200, pc: lat.bottom, conv: { label: lat.bottom, messages: [] },
    expr: closeProgram(parse(src, lat), prelude), source: client, keyOf, ...(cache ? { cache } : {}),
  });
}

const valueOf = (r: LiveRun<unknown>): string => (r.kind === 'done' && r.result.kind === 'ok' ? prettyPrint(r.result.value, lat) : `not ok: ${JSON.stringify(r)}`);

describe('runLive', () => {
  it('answers every recv from the endpoint; roles follow provenance; forks and clears start afresh', async () => {
    const s = await serve(sensible);
    const r = await live(s.url, ASK);
    expect(valueOf(r)).toBe('[]:[[]:42, []:1, []:"yes"]');
    expect(r.kind === 'done' && r.fetched).toBe(3);
    expect(s.requests.map((q) => q.body.messages)).toEqual([
      [{ role: 'user', content: 'What is 6 * 7? Reply with the number only.' }],
      [
        { role: 'user', content: 'What is 6 * 7? Reply with the number only.' },
        { role: 'assistant', content: '42' },
        { role: 'user', content: 'Reply with 1 if your previous answer was right, else 0.' },
      ],
      [{ role: 'user', content: 'Reply with the word yes in double quotes.' }],
    ]);
  });
  it('a message the program sends is the user\'s even when it repeats an answer', () => {
    const t = new RoleTracker();
    t.answered(['q'], 'a');
    expect(t.toChat(['q', 'a', 'a'], 'be terse').map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });
  it('a failing recv is reported with its conversation and the answers before it, which stay in the cache', async () => {
    const dir = tmp();
    const broken = await serve((r) => (r.body.messages!.length > 1 ? { kind: 'status', status: 500, body: 'down' } : sensible(r)));
    const r1 = await live(broken.url, ASK, new ResponseCache(dir));
    expect(r1.kind).toBe('oracle-failed');
    if (r1.kind !== 'oracle-failed') return;
    expect(r1.index).toBe(1);
    expect(r1.attempts).toBe(2);
    expect(r1.failure).toEqual({ kind: 'http', status: 500, body: 'down' });
    expect(r1.chat.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(r1.calls.map((c) => c.response)).toEqual(['42']);
    expect(readdirSync(dir)).toHaveLength(1); // the answer before the failure is on disk
  });
  it('resuming: answers already cached are not asked again', async () => {
    const dir = tmp();
    let healthy = false;
    const s = await serve((r) => (healthy || r.body.messages!.length === 1 ? sensible(r) : { kind: 'status', status: 503 }));
    const r1 = await live(s.url, ASK, new ResponseCache(dir), 0);
    expect(r1.kind).toBe('oracle-failed');
    const before = s.requests.length;
    healthy = true;
    const r2 = await live(s.url, ASK, new ResponseCache(dir), 0);
    expect(valueOf(r2)).toBe('[]:[[]:42, []:1, []:"yes"]');
    expect(r2.kind === 'done' && r2.fetched).toBe(2);
    expect(s.requests.length - before).toBe(2);
  });
  it('a fully cached run replays with the server answering nothing but errors, identically', async () => {
    const dir = tmp();
    const s = await serve(sensible);
    const r1 = await live(s.url, ASK, new ResponseCache(dir));
    // Same endpoint, now failing every request: everything must come from the cache.
    const failing = new ResponseCache(dir);
    const endpoint = completionsUrl(s.url);
    const r2 = await runLive({
      model, lattice: lat, prelude, fuel: 200, pc: lat.bottom, conv: { label: lat.bottom, messages: [] },
      expr: closeProgram(parse(ASK, lat), prelude), keyOf: (chat) => ({ endpoint, model: 'fake', params: {}, messages: chat }), cache: failing,
      source: { complete: async () => ({ kind: 'failed', failure: { kind: 'network', message: 'offline' }, attempts: 1, retryable: true }) },
    });
    expect(valueOf(r2)).toBe(valueOf(r1));
    expect(r2.kind === 'done' && r2.fetched).toBe(0);
    expect(failing.hits).toBe(3);
  });
  it('the recording is a table: model answering every recorded conversation with probability 1', async () => {
    const s = await serve(sensible);
    const r = await live(s.url, ASK);
    const dir = tmp();
    const file = join(dir, 'rec.json');
    writeFileSync(file, JSON.stringify(recordingTable(r.kind === 'done' ? r.calls : [])));
    const t = tableModel(file);
    expect(t.weight(['What is 6 * 7? Reply with the number only.']).map(([x, w]) => [x, w.toString()])).toEqual([['42', '1']]);
    expect(t.weight(['never asked'])).toEqual([]);
  });
  it('messages that look like /regex/ are recorded literally', () => {
    const p = literalPattern('/a.b/');
    const dir = tmp();
    const file = join(dir, 't.json');
    writeFileSync(file, JSON.stringify({ rules: [{ suffix: [p], responses: { ok: '1' } }] }));
    const t = tableModel(file);
    expect(t.weight(['/a.b/'])).toHaveLength(1);
    expect(t.weight(['/aXb/'])).toHaveLength(0);
    expect(literalPattern('plain')).toBe('plain');
  });
});

interface Ran { readonly code: number; readonly stdout: string; readonly stderr: string }
/** `node bin/llmbda.js …`, asynchronously (the fake server lives in this process). */
function llmbda(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/llmbda.js', ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('llmbda run --oracle (end to end)', () => {
  it('a live run, recorded, replays offline with identical output; a rerun hits the cache only', async () => {
    const s = await serve(sensible);
    const dir = tmp();
    const rec = join(dir, 'rec.json');
    const cache = join(dir, 'cache');
    const a = await llmbda(['run', 'examples/oracle/ask.lam', '--oracle', s.url, '--model-name', 'fake', '--cache', cache, '--record', rec]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('value         []:[[]:42, []:1, []:"yes"]');
    expect(a.stderr).toMatch(/3 request\(s\) answered live/);
    await s.close();
    servers = [];
    const b = await llmbda(['run', 'examples/oracle/ask.lam', '--replay', rec]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    // With the server gone, the same live command is answered from the cache alone.
    const c = await llmbda(['run', 'examples/oracle/ask.lam', '--oracle', s.url, '--model-name', 'fake', '--cache', cache, '--retries', '0']);
    expect(c.code, c.stdout).toBe(0);
    expect(c.stdout).toBe(a.stdout);
    expect(c.stderr).toMatch(/0 request\(s\) answered live, 3 from the cache/);
  }, 60_000);
  // Timeouts are generous (3 s) except where the timeout is the point: the whole test suite may share the two cores.
  it.each<[string, (r: Recorded) => Behaviour, string, RegExp]>([
    ['500 every time', () => ({ kind: 'status', status: 500, body: 'boom' }), '3s', /recv #0 after 2 attempt\(s\): HTTP 500: boom/],
    ['malformed JSON', () => ({ kind: 'raw', body: '{"choices": [' }), '3s', /recv #0 after 1 attempt\(s\): the answer is not JSON/],
    ['empty choices', () => ({ kind: 'json', body: { choices: [] } }), '3s', /recv #0 after 1 attempt\(s\): the answer has no usable message \(empty "choices"\)/],
    ['too slow', () => ({ kind: 'answer', text: '42', delayMs: 30_000 }), '1s', /recv #0 after 2 attempt\(s\): no complete answer within 1000 ms \(timeout\)/],
  ])('%s: exit 2, the failing recv and its conversation reported, no stack trace', async (_name, script, timeout, want) => {
    const s = await serve(script);
    const r = await llmbda(['run', 'examples/oracle/ask.lam', '--oracle', s.url, '--model-name', 'fake', '--no-cache', '--retries', '1', '--retry-backoff', '5ms', '--timeout', timeout]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(want);
    expect(r.stdout).toContain('user      "What is 6 * 7? Reply with the number only."');
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  }, 60_000);
  it('the API key is sent but never printed or cached', async () => {
    const key = 'sk-live-do-not-leak-42';
    const s = await serve((r, i) => (i === 0 ? sensible(r) : { kind: 'status', status: 401, body: `bad key ${String(r.headers['authorization'])}` }));
    const dir = tmp();
    const r = await llmbda(['run', 'examples/oracle/ask.lam', '--oracle', s.url, '--model-name', 'fake', '--cache', dir, '--api-key-env', 'MY_KEY'], { MY_KEY: key });
    expect(s.requests[0]!.headers['authorization']).toBe(`Bearer ${key}`);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/HTTP 401: bad key Bearer \[API key\]/);
    expect(r.stdout + r.stderr).not.toContain(key);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(key);
  }, 60_000);
  it('flags are checked: --oracle needs --model-name; --replay of a missing recording is a user error', async () => {
    const a = await llmbda(['run', 'examples/oracle/ask.lam', '--oracle', 'http://127.0.0.1:1/v1']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--oracle needs --model-name/);
    const b = await llmbda(['run', 'examples/oracle/ask.lam', '--replay', '/nonexistent/rec.json']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/cannot read model table/);
  }, 60_000);
});
