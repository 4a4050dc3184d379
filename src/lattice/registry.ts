/**
 * Lattices by name, and user lattices loaded from a `.ts`/`.js` file (`--lattice ./my-lattice.ts`).
 */
import { importUserModule } from '../util/user-module.ts';
import { guardUserFn } from '../util/user-code.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../util/absurd.ts';
import type { AnyLattice } from './lattice.ts';
import { MAX_CHAIN, chain, powersetUS, powersetUSE, ppmfTrustSecrecy, product, twoPoint } from './instances.ts';

/** The default lattices every suite runs on. */
export const SHIPPED_LATTICES: readonly string[] = ['two-point', 'powerset-us', 'chain(3)'];

/** Every name form `latticeByName` understands, for help text. */
export const ALL_LATTICE_NAMES: readonly string[] = ['two-point', 'powerset-us', 'powerset-use', 'chain(N)', 'ppmf', 'product(A,B)'];

/** Split `s` at top-level occurrences of `sep` (outside parentheses). */
function splitTopLevel(s: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      parts.push(s.slice(start, i));
      start = i + sep.length;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

/**
 * A shipped lattice by name: `two-point`, `powerset-us`, `ppmf`, `chain(N)` (1 ≤ N ≤ MAX_CHAIN),
 * `product(A,B)` of names (unfactored). Also accepts a product's own name `A×B` (with parenthesised
 * nested products), so `lattice.name` round-trips. `undefined` for anything else.
 */
export function latticeByName(name: string): AnyLattice | undefined {
  const s = name.trim();
  switch (s) {
    case 'two-point':
      return twoPoint;
    case 'powerset-us':
      return powersetUS;
    case 'powerset-use':
      return powersetUSE;
    case 'ppmf':
      return ppmfTrustSecrecy;
  }
  const ch = /^chain\(\s*(\d+)\s*\)$/.exec(s);
  if (ch) {
    const n = Number(ch[1]);
    return n >= 1 && n <= MAX_CHAIN ? built(`chain(${n})`, () => chain(n)) : undefined;
  }
  const pr = /^product\((.*)\)$/.exec(s);
  if (pr) {
    const args = splitTopLevel(pr[1]!, ',');
    if (args.length !== 2) return undefined;
    return productOf(args[0]!, args[1]!);
  }
  const times = splitTopLevel(s, '×');
  if (times.length === 2) return productOf(times[0]!, times[1]!);
  const paren = /^\((.*)\)$/.exec(s);
  return paren ? latticeByName(paren[1]!) : undefined;
}

function productOf(a: string, b: string): AnyLattice | undefined {
  const la = latticeByName(a);
  const lb = latticeByName(b);
  return la && lb ? built(`(${la.name})×(${lb.name})`, () => product(la, lb)) : undefined;
}

/**
 * One object per parametric lattice name in a process: what is keyed by lattice (the prelude parsed for it, the
 * suites' shared evaluations, llmbda/evaluation-cache.ts) is then shared by every job on `chain(3)`, as it is for
 * the named lattices.
 */
const parametric = new Map<string, AnyLattice>();
function built(key: string, make: () => AnyLattice): AnyLattice {
  let l = parametric.get(key);
  if (!l) { l = make(); parametric.set(key, l); }
  return l;
}

/** Does `spec` look like a path to a lattice file rather than a name? */
function looksLikePath(spec: string): boolean {
  return /\.(m|c)?(ts|js)$/.test(spec) || spec.includes('/') || spec.includes('\\');
}

/**
 * A lattice from a name, or from a user file whose default export (or export named `lattice`) is a
 * `Lattice` object or a (possibly async) function returning one. Throws `UserError` for unknown names,
 * missing or unloadable files, and objects that are not lattices.
 */
export async function resolveLattice(spec: string): Promise<AnyLattice> {
  const byName = latticeByName(spec);
  if (byName) return byName;
  if (!looksLikePath(spec)) {
    throw new UserError(
      `unknown lattice '${spec}'; valid names: ${ALL_LATTICE_NAMES.join(', ')} (chain(N) needs 1 ≤ N ≤ ${MAX_CHAIN}), ` +
        `or a path to a .ts/.js file exporting a lattice`,
    );
  }
  const abs = resolve(spec);
  if (!existsSync(abs)) throw new UserError(`lattice file ${abs} does not exist`);
  const mod = await importUserModule(abs, 'lattice file');
  let exported = mod['default'] ?? mod['lattice'];
  if (exported === undefined) {
    throw new UserError(`lattice file ${abs} has neither a default export nor an export named 'lattice'`);
  }
  if (typeof exported === 'function') {
    try {
      exported = await (exported as () => unknown)();
    } catch (e) {
      throw new UserError(`lattice file ${abs}: the exported function threw: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return guardLattice(spec, validateLattice(exported, abs));
}

/**
 * A user lattice with every member function guarded: an exception is the user's (file, line, member),
 * and a watchdog can name the member a stuck case is in. A copy: the module's own object is untouched.
 */
export function guardLattice(file: string, lat: AnyLattice): AnyLattice {
  const o = lat as unknown as Record<string, unknown>;
  const copy = Object.assign(Object.create(Object.getPrototypeOf(o) as object | null) as Record<string, unknown>, o);
  for (const m of FUNCTION_MEMBERS) copy[m] = guardUserFn(o[m] as (...a: never[]) => unknown, file, m);
  const f = o['factoring'] as Record<string, unknown> | undefined;
  if (f) copy['factoring'] = { ...f, ...Object.fromEntries((['toI', 'toS', 'pair'] as const).map((m) => [m, guardUserFn(f[m] as (...a: never[]) => unknown, file, `factoring.${m}`)])) };
  return copy as unknown as AnyLattice;
}

const FUNCTION_MEMBERS = ['join', 'leq', 'equals', 'show', 'fromLabel', 'toLabel'] as const;

/**
 * Check that `x` has the shape of a `Lattice` (members present and of the right type); `origin` names
 * where it came from in the `UserError` message. The laws are checked separately (`checkLattice`).
 */
export function validateLattice(x: unknown, origin: string): AnyLattice {
  const bad = (member: string, why: string): UserError =>
    new UserError(`lattice from ${origin}: member '${member}' ${why}`);
  if (typeof x !== 'object' || x === null) {
    throw new UserError(`lattice from ${origin}: the export is ${x === null ? 'null' : typeof x}, not a lattice object`);
  }
  const o = x as Record<string, unknown>;
  if (typeof o['name'] !== 'string' || o['name'] === '') throw bad('name', 'must be a non-empty string');
  for (const m of ['bottom', 'top'] as const) if (!(m in o) || o[m] === undefined) throw bad(m, 'is missing');
  for (const m of FUNCTION_MEMBERS) {
    if (typeof o[m] !== 'function') throw bad(m, o[m] === undefined ? 'is missing' : 'must be a function');
  }
  const els = o['elements'];
  if (els !== undefined && !Array.isArray(els)) throw bad('elements', 'must be an array when present');
  if (Array.isArray(els) && els.length === 0) throw bad('elements', 'must not be empty when present');
  const f = o['factoring'];
  if (f !== undefined) {
    if (typeof f !== 'object' || f === null) throw bad('factoring', 'must be an object with toI, toS, pair');
    for (const m of ['toI', 'toS', 'pair'] as const) {
      if (typeof (f as Record<string, unknown>)[m] !== 'function') throw bad(`factoring.${m}`, 'must be a function');
    }
  }
  return x as AnyLattice;
}
