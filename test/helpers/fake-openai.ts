/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 (node:http), for the live-oracle tests.
 * Each request is answered by a scripted behaviour: an answer (optionally delayed), an HTTP status, a
 * raw (malformed) body, arbitrary JSON, a body trickled slowly, a connection reset, or no answer at all.
 * Every request (headers and parsed body) is recorded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  | { readonly kind: 'answer'; readonly text: string; readonly delayMs?: number }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'raw'; readonly body: string }
  | { readonly kind: 'json'; readonly body: unknown }
  | { readonly kind: 'slow'; readonly chunks: readonly string[]; readonly intervalMs: number }
  | { readonly kind: 'reset' }
  | { readonly kind: 'hang' };

export interface Recorded {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: { model?: string; messages?: { role: string; content: string }[] } & Record<string, unknown>;
}

export interface FakeServer {
  /** Base URL, e.g. `http://127.0.0.1:PORT/v1`. */
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

/** A well-formed chat-completions answer. */
export function completion(text: string): unknown {
  return { id: 'x', object: 'chat.completion', model: 'fake', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] };
}

/** Start a server answering request `i` (0-based) with `script(request, i)`. */
export async function startFakeServer(script: (req: Recorded, i: number) => Behaviour): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, f: () => void): void => {
    const t = setTimeout(() => { timers.delete(t); f(); }, ms);
    timers.add(t);
  };
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => { data += c.toString('utf8'); });
    req.on('end', () => {
      let body: Recorded['body'] = {};
      try { body = JSON.parse(data) as Recorded['body']; } catch { /* recorded as empty */ }
      const rec: Recorded = { path: req.url ?? '', headers: req.headers, body };
      const i = requests.length;
      requests.push(rec);
      const b = script(rec, i);
      switch (b.kind) {
        case 'answer': {
          const send = (): void => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(completion(b.text))); };
          if (b.delayMs) later(b.delayMs, send); else send();
          return;
        }
        case 'status':
          res.writeHead(b.status, { 'content-type': 'application/json', ...(b.headers ?? {}) });
          res.end(b.body ?? '');
          return;
        case 'raw':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(b.body);
          return;
        case 'json':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(b.body));
          return;
        case 'slow': {
          res.writeHead(200, { 'content-type': 'application/json' });
          const step = (k: number): void => {
            if (k === b.chunks.length) { res.end(); return; }
            res.write(b.chunks[k]!);
            later(b.intervalMs, () => step(k + 1));
          };
          step(0);
          return;
        }
        case 'reset':
          req.socket.destroy();
          return;
        case 'hang':
          return;
      }
    });
  });
  await new Promise<void>((go) => server.listen(0, '127.0.0.1', go));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((go) => server.close(() => go()));
    },
  };
}
