/**
 * Built-in models, selectable by name from the CLI (`--model coin:3/10`, `table:FILE.json`, `echo`,
 * `random:SEED`). Every model uses the standard `serialise`, primitive table and prelude unless it says otherwise.
 */
import { readFileSync } from 'node:fs';
import * as Q from '../../distributions/rational.ts';
import { UserError } from '../../util/absurd.ts';
import { catastrophicReason } from '../../util/safe-regex.ts';
import { clip, displayText } from '../../syntax/errors.ts';
import type { PModel, PrimTable, ResponseDist } from '../model.ts';
import { STANDARD_PRIMS } from '../prims.ts';
import { serialise } from '../serialise.ts';
import { STANDARD_PRELUDE_SOURCE } from '../prelude.ts';

/** A model from a weight function, with the standard serialise, primitives and prelude. */
export function standardModel(
  name: string,
  weight: (messages: readonly string[]) => ResponseDist,
  extra: { deterministic?: boolean; prims?: PrimTable; preludeSource?: string } = {},
): PModel {
  return {
    name,
    weight,
    serialise,
    prims: extra.prims ?? STANDARD_PRIMS,
    preludeSource: extra.preludeSource ?? STANDARD_PRELUDE_SOURCE,
    ...(extra.deterministic !== undefined ? { deterministic: extra.deterministic } : {}),
  };
}

/** `coin:P`: every conversation answers "1" with probability P, "0" otherwise. */
export function coinModel(p: Q.Rational): PModel {
  if (Q.lt(p, Q.ZERO) || Q.lt(Q.ONE, p)) throw new UserError(`coin:P needs 0 ≤ P ≤ 1, got ${Q.show(p)}`);
  const dist: ResponseDist = [['1', p], ['0', Q.sub(Q.ONE, p)]];
  const deterministic = Q.isZero(p) || Q.eq(p, Q.ONE);
  return standardModel(`coin:${Q.show(p)}`, () => dist, { deterministic });
}

/** `echo`: answers with the last message (the prompt-injection channel); no messages → empty string. */
export function echoModel(): PModel {
  return standardModel('echo', (c) => [[c.length === 0 ? '' : c[c.length - 1]!, Q.ONE]], { deterministic: true });
}

/** `const:R`: always answers R. */
export function constModel(r: string): PModel {
  return standardModel(`const:${r}`, () => [[r, Q.ONE]], { deterministic: true });
}

/** A pattern over one message: exact text, or `/regex/`. */
type Pattern = (m: string) => boolean;

interface TableRule {
  readonly suffix: readonly Pattern[];
  readonly responses: ResponseDist;
}

function compilePattern(file: string, where: string, p: unknown): Pattern {
  if (typeof p !== 'string') throw new UserError(`${file}: ${where} must be a string (exact message or /regex/)`);
  const m = /^\/(.*)\/([a-z]*)$/s.exec(p);
  if (m) {
    let re: RegExp;
    try { re = new RegExp(m[1]!, m[2]); } catch (e) { throw new UserError(`${file}: ${where}: bad regex ${p}: ${(e as Error).message}`); }
    // Patterns are matched against every message of every run: one that can backtrack exponentially would hang it.
    const unsafe = catastrophicReason(m[1]!, m[2]);
    if (unsafe !== undefined) throw new UserError(`${file}: ${where}: regex ${displayText(clip(p, 60))} is refused: ${unsafe}`);
    return (s) => re.test(s);
  }
  return (s) => s === p;
}

function compileResponses(file: string, where: string, r: unknown): ResponseDist {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) {
    throw new UserError(`${file}: ${where} must be an object mapping response strings to probabilities like "3/10"`);
  }
  const out: [string, Q.Rational][] = [];
  let total = Q.ZERO;
  for (const [resp, w] of Object.entries(r)) {
    const q = typeof w === 'string' ? Q.parseRational(w) : typeof w === 'number' && Number.isInteger(w) ? Q.rat(w) : undefined;
    if (q === undefined || Q.lt(q, Q.ZERO)) {
      throw new UserError(`${file}: ${where}: weight of ${JSON.stringify(resp)} must be an exact non-negative rational string like "3/10" or "0.25", got ${JSON.stringify(w)}`);
    }
    out.push([resp, q]);
    total = Q.add(total, q);
  }
  if (Q.lt(Q.ONE, total)) throw new UserError(`${file}: ${where}: weights sum to ${Q.show(total)} > 1`);
  return out;
}

/**
 * `table:FILE.json`: conversation-suffix patterns → response distributions, with a default.
 * Format: `{ "rules": [{ "suffix": ["msg" | "/regex/", …], "responses": { "resp": "p/q", … } }, …],
 *            "default": { "resp": "p/q", … } }`. The first rule whose patterns match the last messages wins.
 */
export function tableModel(file: string, text?: string): PModel {
  let json: unknown;
  try {
    json = JSON.parse(text ?? readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UserError(`${file}: cannot read model table: ${(e as Error).message}`);
  }
  if (typeof json !== 'object' || json === null) throw new UserError(`${file}: a model table is a JSON object with "rules" and "default"`);
  const o = json as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => k !== 'rules' && k !== 'default');
  if (unknown.length) throw new UserError(`${file}: unknown key(s) ${unknown.join(', ')} (expected "rules" and "default")`);
  const rulesRaw = o['rules'] ?? [];
  if (!Array.isArray(rulesRaw)) throw new UserError(`${file}: "rules" must be an array`);
  const rules: TableRule[] = rulesRaw.map((r, i) => {
    if (typeof r !== 'object' || r === null) throw new UserError(`${file}: rules[${i}] must be an object`);
    const rr = r as Record<string, unknown>;
    const suffix = rr['suffix'];
    if (!Array.isArray(suffix)) throw new UserError(`${file}: rules[${i}].suffix must be an array of message patterns`);
    return {
      suffix: suffix.map((p, j) => compilePattern(file, `rules[${i}].suffix[${j}]`, p)),
      responses: compileResponses(file, `rules[${i}].responses`, rr['responses']),
    };
  });
  const dflt = o['default'] === undefined ? [] : compileResponses(file, 'default', o['default']);
  const weight = (c: readonly string[]): ResponseDist => {
    for (const r of rules) {
      if (r.suffix.length > c.length) continue;
      const off = c.length - r.suffix.length;
      if (r.suffix.every((p, j) => p(c[off + j]!))) return r.responses;
    }
    return dflt;
  };
  return standardModel(`table:${file}`, weight);
}

/** FNV-1a hash of a string (deterministic model families). */
export function hashString(s: string, seed = 0): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Responses the `random:SEED` family draws from: data and code. */
export const RANDOM_RESPONSES: readonly string[] = ['0', '1', '"yes"', '"no"', '[1, 2]', '{a: 1}', '\\x. x', 'send "hi"', 'clear', '["U"]:1', 'endorse [] 7', '@"again"'];

/**
 * `random:SEED`: a deterministic-per-conversation family for tests: hashes the conversation with the seed
 * and picks one to three responses with exact weights summing to 1.
 */
export function randomModel(seed: number): PModel {
  return standardModel(`random:${seed}`, (c) => {
    const h = hashString(JSON.stringify(c), seed);
    const k = 1 + (h % 3);
    const picks = [...new Set(Array.from({ length: k }, (_, i) => RANDOM_RESPONSES[(h >>> (4 * i + 2)) % RANDOM_RESPONSES.length]!))];
    return picks.map((r, i) => [r, i === picks.length - 1 ? Q.sub(Q.ONE, Q.rat(picks.length - 1, picks.length + 1)) : Q.rat(1, picks.length + 1)] as const);
  });
}

/** Resolve a model from its command-line name. */
export function resolveModel(spec: string): PModel {
  const colon = spec.indexOf(':');
  const kind = colon < 0 ? spec : spec.slice(0, colon);
  const arg = colon < 0 ? undefined : spec.slice(colon + 1);
  switch (kind) {
    case 'coin': {
      const p = arg === undefined ? Q.rat(1, 2) : Q.parseRational(arg);
      if (p === undefined) throw new UserError(`--model coin:P needs an exact probability like 3/10 or 0.3, got ${JSON.stringify(arg)}`);
      return coinModel(p);
    }
    case 'echo': return echoModel();
    case 'const': return constModel(arg ?? '');
    case 'table':
      if (!arg) throw new UserError('--model table:FILE.json needs a file');
      return tableModel(arg);
    case 'random': {
      const s = Number(arg ?? '0');
      if (!Number.isInteger(s)) throw new UserError(`--model random:SEED needs an integer seed, got ${JSON.stringify(arg)}`);
      return randomModel(s);
    }
    default:
      throw new UserError(`unknown model ${JSON.stringify(spec)}; expected coin:P, echo, const:TEXT, table:FILE.json or random:SEED`);
  }
}
