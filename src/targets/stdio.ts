/**
 * The out-of-process transport: a target in any language, spoken to in JSON lines over its stdin/stdout
 * (protocol in docs/targets.md, schema in docs/targets.schema.json).
 *
 *   toolkit → target  {"type":"run","id":N,"lattice":"powerset-us","pc":…,"conv":…,"program":…,"source":"…","fuel":K}
 *   target → toolkit  {"type":"recv","id":N,"messages":[…]}
 *   toolkit → target  {"type":"answer","id":N,"response":"…","code":…}   or   {"type":"abort","id":N}
 *   target → toolkit  {"type":"result","id":N,"outcome":"ok","value":…,"conv":…}
 *                     {"type":"result","id":N,"outcome":"stuck","reason":"…"}  |  {…,"outcome":"fuel"}
 *
 * One child process serves many runs. A run that exceeds its time, a child that exits, and a line that
 * is not a protocol message each become that run's outcome (`timeout`, `crash`, `garbage`); the child is
 * killed and a fresh one starts with the next run. Children are always killed on `close()` and when the
 * toolkit's process exits.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Lattice } from '../lattice/lattice.ts';
import { conversationFromJson, conversationToJson, defaultLabelCodec, exprToJson, valueFromJson, WireError, type LabelCodec } from './wire.ts';
import { OracleAbort, type FeatureMask, type RunOutcome, type RunRequest, type Target, type TargetOracle } from './target.ts';

export interface StdioOptions<L> {
  /** The command and its arguments, e.g. `['python3', 'target.py']`. */
  readonly command: readonly [string, ...string[]];
  readonly cwd?: string;
  /** Wall-clock limit per run (default 5,000 ms). */
  readonly timeoutMs?: number;
  /** How the target writes labels (default: the toolkit's encoding, `defaultLabelCodec`). */
  readonly labels?: LabelCodec<L>;
  readonly features?: FeatureMask;
  readonly name?: string;
}

const live = new Set<ChildProcessWithoutNullStreams>();
let exitHook = false;
let spawned: ((pid: number) => void) | undefined;

/**
 * Be told the pid of every child process a stdio target starts in this thread. A supervisor that may
 * terminate this thread (a worker stopped by the watchdog) kills them itself: a terminated worker runs
 * no `close()` and no exit hook, and its children would outlive it.
 */
export function onChildSpawned(f: ((pid: number) => void) | undefined): void {
  spawned = f;
}

/** A target behind a child process speaking JSON lines. */
export function stdioTarget<L>(lattice: Lattice<L>, opts: StdioOptions<L>): Target<L> {
  const codec = opts.labels ?? defaultLabelCodec(lattice);
  const timeoutMs = opts.timeoutMs ?? 5000;
  let child: ChildProcessWithoutNullStreams | undefined;
  let stderrTail = '';
  let nextId = 1;
  /** The line handler of the run in progress (lines for finished runs are ignored). */
  let onLine: ((line: string) => void) | undefined;
  let onExit: ((why: string) => void) | undefined;

  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => { for (const c of live) c.kill('SIGKILL'); });
  }

  const kill = (): void => {
    if (!child) return;
    child.kill('SIGKILL');
    live.delete(child);
    child = undefined;
  };

  const start = (): ChildProcessWithoutNullStreams => {
    const [cmd, ...args] = opts.command;
    const c = spawn(cmd, args, { cwd: opts.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    live.add(c);
    if (c.pid !== undefined) spawned?.(c.pid);
    stderrTail = '';
    let buf = '';
    c.stdout.setEncoding('utf8');
    c.stdout.on('data', (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line !== '' && child === c) onLine?.(line); // a killed child's last words are not the new run's
      }
    });
    c.stderr.setEncoding('utf8');
    c.stderr.on('data', (s: string) => { stderrTail = (stderrTail + s).slice(-400); });
    c.stdin.on('error', () => { /* a dead child: reported through 'exit' */ });
    c.on('error', (e) => {
      live.delete(c);
      if (child !== c) return;
      child = undefined;
      onExit?.(`could not start ${JSON.stringify(opts.command.join(' '))}: ${e.message}`);
    });
    c.on('exit', (code, signal) => {
      live.delete(c);
      if (child !== c) return; // a child we killed ourselves: its run is already reported
      child = undefined;
      onExit?.(`the target process exited (${signal ?? `code ${code}`})${stderrTail ? `; stderr: ${stderrTail.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
    });
    return c;
  };

  const run = (req: RunRequest<L>, oracle: TargetOracle<L>): Promise<RunOutcome<L>> => {
    const id = nextId++;
    const c = child ?? (child = start());
    return new Promise<RunOutcome<L>>((resolve) => {
      let done = false;
      const finish = (out: RunOutcome<L>, restart: boolean): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        onLine = undefined;
        onExit = undefined;
        if (restart) kill();
        resolve(out);
      };
      const timer = setTimeout(() => finish({ kind: 'timeout', ms: timeoutMs }, true), timeoutMs);
      const send = (msg: unknown): void => { c.stdin.write(`${JSON.stringify(msg)}\n`); };
      onExit = (why) => finish({ kind: 'crash', reason: why }, false);
      onLine = (line) => {
        let msg: Record<string, unknown>;
        try {
          const j: unknown = JSON.parse(line);
          if (j === null || typeof j !== 'object' || Array.isArray(j)) throw new WireError('not a JSON object');
          msg = j as Record<string, unknown>;
        } catch (e) {
          return finish({ kind: 'garbage', reason: `not a protocol message: ${JSON.stringify(line.slice(0, 80))} (${e instanceof Error ? e.message : String(e)})` }, true);
        }
        if (msg['id'] !== id) return; // a late line of an earlier, abandoned run
        try {
          if (msg['type'] === 'recv') {
            const ms = msg['messages'];
            if (!Array.isArray(ms) || !ms.every((m) => typeof m === 'string')) throw new WireError('recv needs "messages": an array of strings');
            let a;
            try { a = oracle(ms); } catch (e) {
              if (!(e instanceof OracleAbort)) throw e;
              send({ type: 'abort', id });
              return finish({ kind: 'crash', reason: 'aborted by the oracle' }, false);
            }
            return send({ type: 'answer', id, response: a.response, code: exprToJson(codec, a.code) });
          }
          if (msg['type'] === 'result') {
            switch (msg['outcome']) {
              case 'ok': return finish({ kind: 'ok', value: valueFromJson(codec, msg['value']), conv: conversationFromJson(codec, msg['conv']) }, false);
              case 'stuck': return finish({ kind: 'stuck', reason: typeof msg['reason'] === 'string' ? msg['reason'] : 'stuck' }, false);
              case 'fuel': return finish({ kind: 'fuel' }, false);
              default: throw new WireError(`unknown outcome ${JSON.stringify(msg['outcome'])}`);
            }
          }
          throw new WireError(`unknown message type ${JSON.stringify(msg['type'])}`);
        } catch (e) {
          if (!(e instanceof WireError)) throw e;
          return finish({ kind: 'garbage', reason: e.message }, true);
        }
      };
      send({ type: 'run', id, lattice: lattice.name, pc: codec.encode(req.pc), conv: conversationToJson(codec, req.conv), program: exprToJson(codec, req.program), source: req.source, fuel: req.fuel });
    });
  };

  return {
    name: opts.name ?? opts.command.join(' '),
    lattice,
    ...(opts.features ? { features: opts.features } : {}),
    run,
    close: () => { onExit = undefined; kill(); },
  };
}

/** Child processes of stdio targets still running (0 once every target is closed or its runs have ended). */
export function liveChildren(): number {
  return live.size;
}
