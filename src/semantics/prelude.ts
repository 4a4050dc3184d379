/**
 * The prelude (spec §4): named definitions written in LLMbda (`prelude.lam`), parsed per lattice,
 * substituted into parsed model responses and into programs. Also the standard response parser.
 */
import { readFileSync } from 'node:fs';
import type { Expr, Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { parseDefinitions, tryParse } from '../syntax/parser.ts';
import { freeVars, substMany } from '../syntax/helpers.ts';
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
    if (free.length > 0) throw new UserError(`${file}: definition of ${name} uses undefined name(s) ${free.join(', ')}`);
    out.set(name, closed);
  }
  perLat.set(source, out as Prelude<unknown>);
  return out;
}

/** Close a program over the prelude; names that are neither bound nor in the prelude are an error. */
export function closeProgram<L>(e: Expr<L>, prelude: Prelude<L>, file = 'program'): Expr<L> {
  const closed = substMany(e, prelude);
  const free = [...freeVars(closed)];
  if (free.length > 0) throw new UserError(`${file}: unbound variable${free.length > 1 ? 's' : ''} ${free.join(', ')}`);
  return closed;
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
  if (free.length > 0) return failed(`unbound variable${free.length > 1 ? 's' : ''} ${free.join(', ')}`);
  return { kind: 'array', elems: [{ kind: 'bool', value: true }, closed] };
}

export type { Value };
