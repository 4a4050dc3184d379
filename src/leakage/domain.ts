/**
 * Secret domains for `llmbda leak --domain`: a range `0..7`, a comma-separated list of values in surface
 * syntax (`0,1,2` or `"a","b"` or `["S"]:0,["S"]:1`), or a file: a JSON array of value texts (uniform
 * prior) or of `{ "value": TEXT, "weight": "p/q" }` (weights summing to 1), or plain text with one value
 * per line (`#` comments, uniform prior).
 */
import { existsSync, readFileSync } from 'node:fs';
import * as Q from '../distributions/rational.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { tryParse } from '../syntax/parser.ts';
import { freeVars } from '../syntax/helpers.ts';
import { UserError } from '../util/absurd.ts';
import type { SecretValue } from './channel.ts';

/** Split at top-level commas (outside brackets, braces, parentheses and quotes). */
export function splitValues(s: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  let quote: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) { out.push(s.slice(start, i)); start = i + 1; }
  }
  out.push(s.slice(start));
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

function parseValue<L>(lat: Lattice<L>, text: string, where: string): SecretValue<L>['expr'] {
  const r = tryParse(text, lat, { file: where });
  if (!r.ok) throw new UserError(`${where}: ${JSON.stringify(text)} is not a value: ${r.error.message.split('\n')[0]}`);
  const free = [...freeVars(r.expr)];
  if (free.length > 0) throw new UserError(`${where}: the value ${JSON.stringify(text)} uses free name(s) ${free.join(', ')}; secrets must be closed values`);
  return r.expr;
}

function uniform<L>(lat: Lattice<L>, texts: readonly string[], where: string): SecretValue<L>[] {
  if (texts.length === 0) throw new UserError(`${where}: the domain is empty`);
  const dup = texts.find((t, i) => texts.indexOf(t) !== i);
  if (dup !== undefined) throw new UserError(`${where}: the value ${dup} appears twice`);
  return texts.map((text) => ({ text, expr: parseValue(lat, text, where), weight: Q.rat(1, texts.length) }));
}

/** Parse `--domain`. */
export function parseDomain<L>(lat: Lattice<L>, spec: string): SecretValue<L>[] {
  const range = /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$/.exec(spec);
  if (range) {
    const a = Number(range[1]), b = Number(range[2]);
    if (b < a) throw new UserError(`--domain ${spec}: empty range`);
    if (b - a >= 4096) throw new UserError(`--domain ${spec}: at most 4096 values (each is one exact evaluation)`);
    return uniform(lat, Array.from({ length: b - a + 1 }, (_, i) => String(a + i)), '--domain');
  }
  if (existsSync(spec)) {
    const text = readFileSync(spec, 'utf8');
    if (/\.json$/i.test(spec)) return jsonDomain(lat, text, spec);
    return uniform(lat, text.split('\n').map((l) => l.replace(/#.*$/, '').trim()).filter((l) => l !== ''), spec);
  }
  return uniform(lat, splitValues(spec), '--domain');
}

function jsonDomain<L>(lat: Lattice<L>, text: string, file: string): SecretValue<L>[] {
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { throw new UserError(`${file}: not JSON: ${(e as Error).message}`); }
  if (!Array.isArray(json)) throw new UserError(`${file}: a domain file is a JSON array of values or of {"value": TEXT, "weight": "p/q"}`);
  if (json.every((x) => typeof x === 'string')) return uniform(lat, json as string[], file);
  const out: SecretValue<L>[] = [];
  let total = Q.ZERO;
  json.forEach((x, i) => {
    const o = x as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null || typeof o['value'] !== 'string' || typeof o['weight'] !== 'string') {
      throw new UserError(`${file}: entry ${i} must be {"value": TEXT, "weight": "p/q"}`);
    }
    const w = Q.parseRational(o['weight']);
    if (w === undefined || Q.lt(w, Q.ZERO)) throw new UserError(`${file}: entry ${i}: weight must be an exact non-negative rational like "1/4", got ${JSON.stringify(o['weight'])}`);
    total = Q.add(total, w);
    out.push({ text: o['value'], expr: parseValue(lat, o['value'], file), weight: w });
  });
  if (!Q.eq(total, Q.ONE)) throw new UserError(`${file}: the weights sum to ${Q.show(total)}, not 1`);
  return out;
}
