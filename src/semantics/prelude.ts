/**
 * The prelude (spec §4): named definitions written in LLMbda (`prelude.lam`), parsed per lattice,
 * substituted into parsed model responses and into programs. Also the standard response parser.
 */
import { readFileSync } from 'node:fs';
import type { Expr, Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { errorAtOccurrence, occurrenceOffset, parseDefinitions, tryParse } from '../syntax/parser.ts';
import { clip } from '../syntax/errors.ts';
import { freeOccurrences, freeVars, substMany } from '../syntax/helpers.ts';
import { UserError } from '../util/absurd.ts';

/** Closed definitions by name, in definition order. */
export type Prelude<L> = ReadonlyMap<string, Expr<L>>;

/** The standard prelude's source text. */
export const STANDARD_PRELUDE_SOURCE: string = readFileSync(new URL('./prelude.lam', import.meta.url), 'utf8');

const preludeCache = new WeakMap<object, Map<string, Prelude<unknown>>>();

/** Parse a prelude for a lattice; each definition may use the earlier ones. Cached per (lattice, source). */
export function loadPrelude<L>(lat: Lattice<L>, source: string = STANDARD_PRELUDE_SOURCE, file = 'prelude.lam'): Prelude<L> {
  let perLat = preludeCache.get(lat);
  if (!perLat) { perLat = new Map(); preludeCache.set(lat, perLat); }
  const hit = perLat.get(source);
  if (hit) return hit as Prelude<L>;
  const defs = parseDefinitions(source, lat, { file });
  const out = new Map<string, Expr<L>>();
  for (const { name, expr } of defs) {
    const closed = substMany(expr, out);
    const free = [...freeVars(closed)];
    if (free.length > 0) throw unboundError(expr, free, `${file}: definition of ${name}`);
    out.set(name, closed);
  }
  perLat.set(source, out as Prelude<unknown>);
  return out;
}

/**
 * The diagnostic for names free in `e` that are neither bound nor in the prelude: `unbound variable y`
 * (or `unbound variables y, z`), located at the first such occurrence in the source when `e` came from
 * `parse` (a `ParseError`: file, line, column, caret excerpt), else prefixed by `file`.
 */
export function unboundError<L>(e: Expr<L>, free: readonly string[], file: string): UserError {
  const description = `unbound variable${free.length > 1 ? 's' : ''} ${free.map((x) => clip(x)).join(', ')}`;
  const occurrences = freeOccurrences(e, new Set(free));
  const offset = (x: (typeof occurrences)[number]): number => occurrenceOffset(x) ?? Infinity;
  const first = occurrences.reduce<(typeof occurrences)[number] | undefined>((a, x) => (a === undefined || offset(x) < offset(a) ? x : a), undefined);
  return (first && errorAtOccurrence(first, description)) ?? new UserError(`${file}: ${description}`);
}

/** Close a program over the prelude; names that are neither bound nor in the prelude are an error (located, see `unboundError`). */
export function closeProgram<L>(e: Expr<L>, prelude: Prelude<L>, file = 'program'): Expr<L> {
  const closed = substMany(e, prelude);
  const free = [...freeVars(closed)];
  if (free.length > 0) throw unboundError(e, free, file);
  return closed;
}

/**
 * Parsed responses, per (lattice, prelude): a suite evaluates thousands of programs under models with the
 * same few responses, and parsing one (then substituting the prelude) costs more than most evaluations.
 * Sharing the parsed expression also lets v2 reuse its compiled code (cached per expression). Bounded.
 */
const PARSES = new WeakMap<object, WeakMap<object, Map<string, Expr<unknown>>>>();
/** Distinct responses kept per (lattice, prelude); the table is emptied when a new one would pass it. */
export const PARSE_CACHE_LIMIT = 4096;

/**
 * `parseResponse(r, lat, prelude)`, shared by every evaluation with the same lattice and prelude (it is a pure
 * function of the three): the evaluators' Recv (`Ev.parse`) and `peval`'s.
 */
export function parsedResponse<L>(r: string, lat: Lattice<L>, prelude: Prelude<L>): Expr<L> {
  let perLat = PARSES.get(lat);
  if (!perLat) { perLat = new WeakMap(); PARSES.set(lat, perLat); }
  let m = perLat.get(prelude) as Map<string, Expr<L>> | undefined;
  if (!m) { m = new Map(); perLat.set(prelude, m as Map<string, Expr<unknown>>); }
  let hit = m.get(r);
  if (!hit) {
    if (m.size >= PARSE_CACHE_LIMIT) m.clear();
    hit = parseResponse(r, lat, prelude);
    m.set(r, hit);
  }
  return hit;
}

/**
 * The standard `parse(r)` (spec §4) as the expression the Recv rule evaluates: `[true, e]` when `r` parses
 * as an expression whose free variables are all prelude names (substituted), else
 * `[false, "parse error: <message>"]`.
 */
export function parseResponse<L>(r: string, lat: Lattice<L>, prelude: Prelude<L>): Expr<L> {
  const res = tryParse(r, lat, { file: 'response' });
  const failed = (msg: string): Expr<L> => ({
    kind: 'array',
    elems: [{ kind: 'bool', value: false }, { kind: 'str', value: `parse error: ${msg}` }],
  });
  if (!res.ok) return failed(res.error.message.split('\n')[0]!.replace(/^response:/, ''));
  const closed = substMany(res.expr, prelude);
  const free = [...freeVars(closed)];
  if (free.length > 0) return failed(unboundError(res.expr, free, 'response').message.split('\n')[0]!.replace(/^response:/, ''));
  return { kind: 'array', elems: [{ kind: 'bool', value: true }, closed] };
}

export type { Value };
