/**
 * The quarantined LLM (Q-LLM) as models of the semantics (spec §4). The planner asks it one question at a
 * time through `ask_qllm` (tools.lam), which sends `"QUERY <key>\n<untrusted text>"` into a forked,
 * cleared conversation. Every model reads only that last message:
 * - the *legitimate* answer is the value of the first `<key>: <value>` line outside any
 *   `<INFORMATION> … </INFORMATION>` block (the injection), `null` when there is none;
 *   the key `TEXT` asks for the whole text outside the block, trimmed;
 * - the *injected* answer is the value of a directive `[[<key>=<value>]]` inside the block, when the
 *   injection has one for this key (an injection only moves the answers it names).
 * `benign` always answers legitimately, `adversarial` always follows a directive, `confused:p` follows it
 * with probability p (an exact rational). Answers are LLMbda literals (numbers, strings, null): the
 * response is parsed as code (spec §4) and runs at the conversation's label, so it comes back `["U"]`.
 */
import * as Q from '../distributions/rational.ts';
import type { PModel, ResponseDist } from '../semantics/model.ts';
import { standardModel } from '../semantics/models/index.ts';
import { UserError } from '../util/absurd.ts';

export type QllmSpec =
  | { readonly kind: 'benign' }
  | { readonly kind: 'confused'; readonly p: Q.Rational }
  | { readonly kind: 'adversarial' };

const OPEN = '<INFORMATION>';
const CLOSE = '</INFORMATION>';

/** The text split into the part outside injection blocks and the concatenated inside. */
export function splitInjection(text: string): { readonly legit: string; readonly injected: string } {
  let legit = '';
  let injected = '';
  let rest = text;
  for (;;) {
    const a = rest.indexOf(OPEN);
    if (a < 0) { legit += rest; break; }
    legit += rest.slice(0, a);
    const b = rest.indexOf(CLOSE, a + OPEN.length);
    if (b < 0) { injected += rest.slice(a + OPEN.length); break; }
    injected += rest.slice(a + OPEN.length, b);
    rest = rest.slice(b + CLOSE.length);
  }
  return { legit, injected };
}

/** The legitimate answer to `key` (`undefined`: not found, the model says `null`). */
export function legitAnswer(key: string, text: string): string | undefined {
  const { legit } = splitInjection(text);
  if (key === 'TEXT') return legit.trim();
  for (const line of legit.split('\n')) {
    const m = /^([^:\n]+):[ \t]*(.*)$/.exec(line);
    if (m && m[1]!.trim() === key) return m[2]!.trim();
  }
  return undefined;
}

/** The injected answer to `key`: the first directive `[[key=value]]` inside an injection block. */
export function injectedAnswer(key: string, text: string): string | undefined {
  const { injected } = splitInjection(text);
  const re = /\[\[([^=\]]*)=([^\]]*)\]\]/g;
  for (let m = re.exec(injected); m; m = re.exec(injected)) if (m[1]!.trim() === key) return m[2]!.trim();
  return undefined;
}

/** An LLMbda string literal (double quotes, the §2 escapes). */
export function stringLiteral(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\' || ch === '{' || ch === '}') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

/** The response that answers with `value`: a number literal when it reads as one, else a string. */
export function answerLiteral(value: string | undefined): string {
  if (value === undefined) return 'null';
  return /^-?\d+(\.\d+)?$/.test(value) ? value : stringLiteral(value);
}

/** The question in a Q-LLM prompt, or undefined when the message is not one. */
export function parseQuery(message: string): { readonly key: string; readonly text: string } | undefined {
  const m = /^QUERY ([^\n]*)\n([\s\S]*)$/.exec(message);
  return m ? { key: m[1]!, text: m[2]! } : undefined;
}

/** The response distribution of a Q-LLM to one message. */
export function qllmWeight(spec: QllmSpec, message: string | undefined): ResponseDist {
  const q = message === undefined ? undefined : parseQuery(message);
  if (!q) return [['null', Q.ONE]];
  const legit = answerLiteral(legitAnswer(q.key, q.text));
  const hijack = injectedAnswer(q.key, q.text);
  if (hijack === undefined) return [[legit, Q.ONE]];
  const follow = answerLiteral(hijack);
  if (follow === legit) return [[legit, Q.ONE]];
  switch (spec.kind) {
    case 'benign': return [[legit, Q.ONE]];
    case 'adversarial': return [[follow, Q.ONE]];
    case 'confused':
      if (Q.isZero(spec.p)) return [[legit, Q.ONE]];
      if (Q.eq(spec.p, Q.ONE)) return [[follow, Q.ONE]];
      return [[follow, spec.p], [legit, Q.sub(Q.ONE, spec.p)]];
    default: return spec satisfies never;
  }
}

export function qllmName(spec: QllmSpec): string {
  return spec.kind === 'confused' ? `confused:${Q.show(spec.p)}` : spec.kind;
}

/** The Q-LLM as a model of the semantics. */
export function qllmModel(spec: QllmSpec): PModel {
  return standardModel(`qllm-${qllmName(spec)}`, (c) => qllmWeight(spec, c[c.length - 1]), {
    deterministic: spec.kind !== 'confused' || Q.isZero(spec.p) || Q.eq(spec.p, Q.ONE),
  });
}

/** `benign`, `adversarial`, `confused:P`. */
export function parseQllm(s: string): QllmSpec {
  if (s === 'benign') return { kind: 'benign' };
  if (s === 'adversarial') return { kind: 'adversarial' };
  const m = /^confused:(.+)$/.exec(s);
  if (m) {
    const p = Q.parseRational(m[1]!);
    if (p === undefined || Q.lt(p, Q.ZERO) || Q.lt(Q.ONE, p)) throw new UserError(`confused:P needs an exact probability 0 ≤ P ≤ 1 like 1/10, got ${JSON.stringify(m[1])}`);
    return { kind: 'confused', p };
  }
  throw new UserError(`unknown Q-LLM ${JSON.stringify(s)}; expected benign, adversarial or confused:P (P an exact rational like 1/10)`);
}
