/**
 * `llmbda run prog.lam --oracle URL --model-name NAME`: one `peval` run whose `recv`s are answered by a
 * live OpenAI-compatible endpoint (src/oracle/client.ts, driven by src/oracle/live.ts), with an on-disk
 * cache, `--record FILE` (the answers as a `table:` model) and `--replay FILE` (the same run offline from
 * such a table, printing exactly what the live run printed). Registered by src/cli/cmd-run.ts.
 */
import { writeFileSync } from 'node:fs';
import * as Q from '../distributions/rational.ts';
import type { Command } from 'commander';
import type { AnyLattice } from '../lattice/lattice.ts';
import type { Expr } from '../syntax/ast.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { showConversation, type Conversation } from '../semantics/config.ts';
import type { PModel } from '../semantics/model.ts';
import { peval, type PevalResult } from '../semantics/peval.ts';
import type { Prelude } from '../semantics/prelude.ts';
import { tableModel } from '../semantics/models/index.ts';
import { UserError } from '../util/absurd.ts';
import { duration, integer } from './common.ts';
import { ChatClient, completionsUrl, showFailure, type ChatMessage } from '../oracle/client.ts';
import { ResponseCache, type RequestKey } from '../oracle/cache.ts';
import { recordingTable, runLive, type AnsweredCall } from '../oracle/live.ts';

/** The `run` flags of the live oracle. */
export interface OracleOpts {
  oracle?: string;
  modelName?: string;
  apiKeyEnv?: string;
  system?: string;
  temperature?: number;
  timeout?: number;
  retries?: number;
  retryBackoff?: number;
  cache?: string | false;
  record?: string;
  replay?: string;
  json?: boolean;
}

/** Defaults of the flags (also used when `executeRun` is called without them). */
export const DEFAULTS = { apiKeyEnv: 'OPENAI_API_KEY', timeout: 60_000, retries: 3, retryBackoff: 1000, cache: '.llmbda-cache' } as const;

/** Add the live-oracle flags to the `run` command. */
export function addOracleOptions(cmd: Command): Command {
  return cmd
    .option('--oracle <url>', 'run once with peval, answering every recv from a live OpenAI-compatible chat-completions endpoint (base URL, e.g. http://127.0.0.1:8080/v1)')
    .option('--model-name <name>', 'the model name sent to --oracle')
    .option('--api-key-env <var>', 'environment variable holding the API key for --oracle (never printed or stored)', DEFAULTS.apiKeyEnv)
    .option('--system <text>', 'a system message put before every --oracle conversation')
    .option('--temperature <t>', 'sampling temperature sent to --oracle', (v: string) => {
      const t = Number(v);
      if (!Number.isFinite(t) || t < 0) throw new UserError(`--temperature needs a non-negative number, got ${JSON.stringify(v)}`);
      return t;
    })
    .option('--timeout <duration>', 'per-call timeout for --oracle, body included (e.g. 30s)', duration('--timeout'), DEFAULTS.timeout)
    .option('--retries <n>', 'retries per call on 429, 5xx, timeouts and network errors', nonNegative('--retries'), DEFAULTS.retries)
    .option('--retry-backoff <duration>', 'wait before the first retry; doubles each time (Retry-After wins, capped at 30s)', duration('--retry-backoff'), DEFAULTS.retryBackoff)
    .option('--cache <dir>', 'on-disk cache of --oracle answers, keyed by endpoint, model and messages', DEFAULTS.cache)
    .option('--no-cache', 'do not read or write the answer cache')
    .option('--record <file>', 'write the answers of this --oracle run as a table: model (JSON), replayable offline')
    .option('--replay <file>', 'rerun a --record-ed run offline from its table, with the same output');
}

function nonNegative(flag: string): (v: string) => number {
  const asInt = integer(flag);
  return (v) => {
    const n = asInt(v);
    if (n < 0) throw new UserError(`${flag} needs a non-negative integer, got ${JSON.stringify(v)}`);
    return n;
  };
}

/** What `executeRun` already resolved. */
export interface Resolved {
  readonly file: string;
  readonly lat: AnyLattice;
  readonly model: PModel;
  readonly prelude: Prelude<unknown>;
  readonly expr: Expr<unknown>;
  readonly pc: unknown;
  readonly conv: Conversation<unknown>;
  readonly fuel: number;
}

/** The output of a live or replayed run. */
export interface LiveOutput { readonly stdout: string; readonly stderr: string; readonly exitCode: number }

/** Is this `run` a live-oracle or replay run? */
export function wantsLiveRun(opts: OracleOpts): boolean {
  return opts.oracle !== undefined || opts.replay !== undefined;
}

/** Render a finished run: identical for a live run and its replay. */
function showResult(r: Resolved, result: PevalResult<unknown>, json: boolean | undefined): string {
  const outcome = result.kind === 'ok' ? 'ok' : result.kind === 'fuel' ? 'out of fuel' : `stuck: ${result.reason}`;
  if (json) {
    return `${JSON.stringify({
      file: r.file, lattice: r.lat.name, fuel: r.fuel, result: outcome,
      ...(result.kind === 'ok' ? { value: prettyPrint(result.value, r.lat), conversation: { label: r.lat.show(result.conv.label), messages: result.conv.messages } } : {}),
      responses: result.trace,
    }, null, 2)}\n`;
  }
  const out = [`${r.file} on ${r.lat.name}, fuel ${r.fuel}`, `result        ${outcome}`];
  if (result.kind === 'ok') {
    out.push(`value         ${prettyPrint(result.value, r.lat)}`);
    out.push(`conversation  ${showConversation(r.lat, result.conv)}`);
  }
  out.push(`responses     ${result.trace.length}`);
  result.trace.forEach((t, i) => out.push(`  #${i}  ${JSON.stringify(t)}`));
  return `${out.join('\n')}\n`;
}

function showChat(chat: readonly ChatMessage[]): string[] {
  return chat.map((m) => `  ${m.role.padEnd(9)} ${JSON.stringify(m.content)}`);
}

function showCalls(calls: readonly AnsweredCall[]): string[] {
  return calls.map((c) => `  #${c.index}  ${JSON.stringify(c.response)}`);
}

/** Run against the live endpoint (or replay), as `llmbda run` prints it. */
export async function executeLiveRun(r: Resolved, opts: OracleOpts): Promise<LiveOutput> {
  if (opts.replay !== undefined) {
    if (opts.oracle !== undefined) throw new UserError('--replay runs offline: drop --oracle (or drop --replay to call the endpoint)');
    return replayRun(r, opts.replay, opts.json);
  }
  const base = opts.oracle!;
  if (!opts.modelName) throw new UserError('--oracle needs --model-name NAME (the model field of the chat request)');
  let client: ChatClient;
  const apiKey = process.env[opts.apiKeyEnv ?? DEFAULTS.apiKeyEnv] || undefined;
  const params = opts.temperature !== undefined ? { temperature: opts.temperature } : {};
  try {
    client = new ChatClient({
      baseUrl: base, model: opts.modelName, ...(apiKey ? { apiKey } : {}), timeoutMs: opts.timeout ?? DEFAULTS.timeout, retries: opts.retries ?? DEFAULTS.retries,
      backoffMs: opts.retryBackoff ?? DEFAULTS.retryBackoff, params,
    });
  } catch (e) {
    throw new UserError(`--oracle: ${(e as Error).message}`);
  }
  const endpoint = completionsUrl(base);
  const keyOf = (chat: readonly ChatMessage[]): RequestKey => ({ endpoint, model: opts.modelName!, params, messages: chat });
  const cache = opts.cache === false ? undefined : new ResponseCache(opts.cache ?? DEFAULTS.cache);
  const run = await runLive({
    model: r.model, lattice: r.lat, prelude: r.prelude, fuel: r.fuel, pc: r.pc, conv: r.conv, expr: r.expr,
    source: client, keyOf, ...(cache ? { cache } : {}), ...(opts.system !== undefined ? { system: opts.system } : {}),
  });
  if (opts.record !== undefined) writeFileSync(opts.record, `${JSON.stringify(recordingTable(run.calls), null, 2)}\n`);
  const stats = `oracle ${endpoint} model ${opts.modelName}: ${run.fetched} request(s) answered live, ${cache ? `${cache.hits} from the cache ${cache.dir}` : 'no cache'}${opts.record !== undefined ? `; recorded to ${opts.record}` : ''}\n`;
  if (run.kind === 'done') return { stdout: showResult(r, run.result, opts.json), stderr: stats, exitCode: 0 };
  if (opts.json) {
    return {
      stdout: `${JSON.stringify({
        file: r.file, lattice: r.lat.name, fuel: r.fuel, result: 'oracle failed', recv: run.index, attempts: run.attempts,
        failure: { ...run.failure, message: showFailure(run.failure) }, conversation: run.chat, answeredBefore: run.calls.map((c) => c.response),
      }, null, 2)}\n`,
      stderr: stats, exitCode: 2,
    };
  }
  const out = [
    `${r.file} on ${r.lat.name}, fuel ${r.fuel}`,
    `result        the oracle failed at recv #${run.index} after ${run.attempts} attempt(s): ${showFailure(run.failure)}`,
    'conversation of the failing recv:',
    ...showChat(run.chat),
    `recvs answered before it: ${run.calls.length}${cache ? ` (kept in the cache ${cache.dir}: rerunning resumes from there)` : ''}`,
    ...showCalls(run.calls),
  ];
  return { stdout: `${out.join('\n')}\n`, stderr: stats, exitCode: 2 };
}

/** Private signal: the replayed run asked something the recording does not answer. */
class NotRecorded {
  constructor(readonly index: number, readonly messages: readonly string[]) {}
}

function replayRun(r: Resolved, file: string, json: boolean | undefined): LiveOutput {
  const table = tableModel(file);
  const oracle = (index: number, messages: readonly string[]): string => {
    const d = table.weight(messages);
    if (d.length !== 1 || !Q.eq(d[0]![1], Q.ONE)) throw new NotRecorded(index, messages);
    return d[0]![0];
  };
  try {
    const result = peval(r.model, r.lat, oracle, 0, r.fuel, r.pc, r.conv, r.expr, r.prelude);
    return { stdout: showResult(r, result, json), stderr: '', exitCode: 0 };
  } catch (e) {
    if (!(e instanceof NotRecorded)) throw e;
    const out = [
      `${r.file} on ${r.lat.name}, fuel ${r.fuel}`,
      `result        recv #${e.index} is not in the recording ${file} (a different program, prelude or fuel?)`,
      'its conversation:',
      ...e.messages.map((m) => `  ${JSON.stringify(m)}`),
    ];
    return { stdout: `${out.join('\n')}\n`, stderr: '', exitCode: 2 };
  }
}
