/**
 * The counterexample corpus: saved cases as versioned JSON (schema in counterexamples/README.md),
 * validated on load with an error naming the file and the bad field, turned back into suite cases
 * (a pair is re-merged into one skeleton with high holes), and rendered as `.lam` for people.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import * as Q from '../distributions/rational.ts';
import type { Expr, PlainValue } from '../syntax/ast.ts';
import type { AnyLattice, Lattice } from '../lattice/lattice.ts';
import { latticeByName } from '../lattice/registry.ts';
import { parse } from '../syntax/parser.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { size } from '../syntax/helpers.ts';
import { closeProgram, loadPrelude } from '../semantics/prelude.ts';
import { conversationOf, programOf, type PairCase, type SingleCase } from '../generators/pairs.ts';
import { showModelSpec, type ModelSpec } from '../generators/models.ts';
import { STANDARD_PRELUDE_SOURCE } from '../semantics/prelude.ts';
import { UserError } from '../util/absurd.ts';
import { ensureDir, withFileLock, writeFileAtomic } from '../util/atomic-write.ts';
import { mergePrograms, showSkeleton } from '../generators/skeleton.ts';

/** The schema version this code writes and reads. */
export const CORPUS_VERSION = 1;

/** The default corpus directory (relative to the repository root). */
export const CORPUS_DIR = 'counterexamples';

/** What a suite concluded on one case. */
export type ExpectedOutcome = 'holds' | 'fails';

/** A conversation as saved: its label and messages in surface syntax. */
export interface SavedConversation {
  readonly label: string;
  readonly messages: readonly string[];
}

/** One saved case (see counterexamples/README.md for the field-by-field description). */
export interface CorpusEntry {
  readonly version: typeof CORPUS_VERSION;
  /** `pair`: a two-run suite (TIPNI, …); `single`: a one-run suite (Confinement, Lemma 2, Theorem 3). */
  readonly kind: 'pair' | 'single';
  /** One line: what the case shows. */
  readonly title?: string;
  /** Catalogue variant name, `reference`, or a path to a variant `.ts` file (relative to this entry's file when it starts with `.`, else to the repository root). */
  readonly variant: string;
  /** The suite whose check judges the case (`tipni`, `confinement`, …). */
  readonly suite: string;
  /** A `--prims` module adding primitives to every model (path as for `variant`). */
  readonly prims?: string;
  /** Lattice name (`powerset-us`, `chain(3)`, …). */
  readonly lattice: string;
  /** When the lattice came from a user file: that file, relative to this entry's own file (`../lattices/diamond.ts`). */
  readonly latticeFile?: string;
  /** The observer `m` in surface syntax (pairs only). */
  readonly observer?: string;
  /** The starting pc in surface syntax. */
  readonly pc: string;
  /** Surface source: two programs for a pair (run 0, run 1), one for a single case. */
  readonly programs: readonly string[];
  /** Starting conversations, one per program. A pair's two conversations share their label. */
  readonly conversations: readonly SavedConversation[];
  readonly model: ModelSpec;
  readonly fuel: number;
  /** The seed and fast-check path of the hunt that found it (absent for hand-written cases). */
  readonly seed?: number;
  readonly path?: string;
  /** What the suite must conclude under the reference semantics and under the variant. */
  readonly expected: { readonly reference: ExpectedOutcome; readonly variant: ExpectedOutcome };
  /** AST nodes of all programs (`size`), the number the catalogue compares. */
  readonly size: number;
  /** Why the check failed when the case was saved (informational). */
  readonly reason?: string;
}

/** A corpus entry turned back into a case of its suite. */
export type LoadedCase<L> =
  | { readonly kind: 'pair'; readonly value: PairCase<L> }
  | { readonly kind: 'single'; readonly value: SingleCase<L> };

// ---------------------------------------------------------------------------------------------
// Validation

/** Validate parsed JSON as a corpus entry; errors name the file and the bad field. */
export function validateEntry(file: string, json: unknown): CorpusEntry {
  const bad = (field: string, why: string): UserError => new UserError(`${file}: field "${field}" ${why}`);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UserError(`${file}: a corpus file is a JSON object (see counterexamples/README.md)`);
  const o = json as Record<string, unknown>;
  const known = new Set(['version', 'kind', 'title', 'variant', 'suite', 'lattice', 'observer', 'pc', 'programs', 'conversations', 'model', 'fuel', 'seed', 'path', 'expected', 'size', 'reason', 'prims', 'latticeFile']);
  const unknown = Object.keys(o).filter((k) => !known.has(k));
  if (unknown.length > 0) throw bad(unknown[0]!, `is not part of the corpus schema (version ${CORPUS_VERSION})`);
  if (o['version'] !== CORPUS_VERSION) throw bad('version', `must be ${CORPUS_VERSION}, got ${JSON.stringify(o['version'])}`);
  if (o['kind'] !== 'pair' && o['kind'] !== 'single') throw bad('kind', `must be "pair" or "single", got ${JSON.stringify(o['kind'])}`);
  const kind = o['kind'];
  const str = (k: string, optional = false): void => {
    if (optional && o[k] === undefined) return;
    if (typeof o[k] !== 'string' || o[k] === '') throw bad(k, 'must be a non-empty string');
  };
  str('variant'); str('suite'); str('lattice'); str('pc'); str('title', true); str('reason', true); str('path', true); str('prims', true); str('latticeFile', true);
  if (kind === 'pair') str('observer');
  else if (o['observer'] !== undefined) throw bad('observer', 'only pairs have an observer');
  const n = kind === 'pair' ? 2 : 1;
  const programs = o['programs'];
  if (!Array.isArray(programs) || programs.length !== n || programs.some((p) => typeof p !== 'string')) {
    throw bad('programs', `must be an array of ${n} program source string${n > 1 ? 's' : ''}`);
  }
  const convs = o['conversations'];
  if (!Array.isArray(convs) || convs.length !== n) throw bad('conversations', `must be an array of ${n} conversation${n > 1 ? 's' : ''}`);
  convs.forEach((c: unknown, i) => {
    const co = c as Record<string, unknown> | null;
    if (typeof co !== 'object' || co === null) throw bad(`conversations[${i}]`, 'must be an object {label, messages}');
    if (typeof co['label'] !== 'string') throw bad(`conversations[${i}].label`, 'must be a label in surface syntax, e.g. "[]"');
    if (!Array.isArray(co['messages']) || co['messages'].some((m) => typeof m !== 'string')) throw bad(`conversations[${i}].messages`, 'must be an array of strings');
  });
  validateModel(o['model'], (f, why) => bad(`model${f}`, why));
  if (!Number.isInteger(o['fuel']) || (o['fuel'] as number) <= 0) throw bad('fuel', 'must be a positive integer');
  if (o['seed'] !== undefined && !Number.isInteger(o['seed'])) throw bad('seed', 'must be an integer');
  if (!Number.isInteger(o['size']) || (o['size'] as number) <= 0) throw bad('size', 'must be a positive integer (AST nodes of the programs)');
  const ex = o['expected'] as Record<string, unknown> | null;
  if (typeof ex !== 'object' || ex === null) throw bad('expected', 'must be an object {reference, variant}');
  for (const k of ['reference', 'variant']) if (ex[k] !== 'holds' && ex[k] !== 'fails') throw bad(`expected.${k}`, 'must be "holds" or "fails"');
  return o as unknown as CorpusEntry;
}

/** A model spec as corpus entries store it (`{"kind": "echo", "fallback": "0"}`), given as JSON text on the command line (`run --model`). */
export function parseModelSpec(text: string, flag: string): ModelSpec {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${flag}: not valid JSON: ${(e as Error).message}`);
  }
  validateModel(m, (f, why) => new UserError(`${flag}: model${f} ${why}`));
  return m as ModelSpec;
}

function validateModel(m: unknown, bad: (field: string, why: string) => UserError): void {
  const responses = (r: unknown, where: string): void => {
    if (!Array.isArray(r)) throw bad(where, 'must be an array of [response, "p/q"] pairs');
    let total = Q.ZERO;
    r.forEach((x: unknown, i) => {
      if (!Array.isArray(x) || x.length !== 2 || typeof x[0] !== 'string' || typeof x[1] !== 'string') throw bad(`${where}[${i}]`, 'must be a [response, "p/q"] pair of strings');
      const q = Q.parseRational(x[1] as string);
      if (q === undefined || Q.lt(q, Q.ZERO)) throw bad(`${where}[${i}][1]`, `must be an exact non-negative rational like "3/10", got ${JSON.stringify(x[1])}`);
      total = Q.add(total, q);
      if (Q.lt(Q.ONE, total)) throw bad(`${where}[${i}][1]`, `makes the weights sum to ${Q.show(total)} > 1: a model's responses are a (sub-)distribution`);
    });
  };
  const o = m as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) throw bad('', 'must be a model spec object with "kind"');
  switch (o['kind']) {
    case 'constant': responses(o['responses'], '.responses'); return;
    case 'echo': if (typeof o['fallback'] !== 'string') throw bad('.fallback', 'must be a string'); return;
    case 'hashed':
      if (!Number.isInteger(o['seed'])) throw bad('.seed', 'must be an integer');
      if (!Array.isArray(o['tables']) || o['tables'].length === 0) throw bad('.tables', 'must be a non-empty array of response tables');
      (o['tables'] as unknown[]).forEach((t, i) => responses(t, `.tables[${i}]`));
      return;
    default:
      throw bad('.kind', `must be "constant", "echo" or "hashed", got ${JSON.stringify(o['kind'])}`);
  }
}

/** Read and validate one corpus file (a malformed file is a `UserError` naming it and the field). */
export function loadEntry(file: string): CorpusEntry {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  return validateEntry(file, json);
}

/** Every `.json` file of a corpus directory, sorted. */
export function corpusFiles(dir: string = CORPUS_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
}

// ---------------------------------------------------------------------------------------------
// Entries ↔ cases

/** A label written in surface syntax, decoded for a lattice. */
export function parseLabel<L>(lat: Lattice<L>, text: string, where: string): L {
  let e: Expr<L>;
  try {
    e = parse(text, lat, { file: where });
  } catch (err) {
    throw new UserError(`${where}: ${(err as Error).message}`);
  }
  const l = e.kind === 'label' ? undefined : lat.toLabel(e as unknown as PlainValue);
  if (l === undefined) throw new UserError(`${where}: ${text} is not a label of ${lat.name}`);
  return l;
}

/** Parse and close (over the standard prelude) one saved program. */
function parseProgram<L>(lat: Lattice<L>, source: string, where: string): Expr<L> {
  return closeProgram(parse(source, lat, { file: where }), loadPrelude(lat, STANDARD_PRELUDE_SOURCE), where);
}

/**
 * Turn an entry back into a case of its suite on `lat` (which must be the entry's lattice): programs
 * are parsed, closed over the prelude and, for a pair, merged into one skeleton whose high holes are
 * where the two runs differ. A pair that is not `∼m`-related by one skeleton is a `UserError`.
 */
export function entryCase<L>(file: string, entry: CorpusEntry, lat: Lattice<L>): LoadedCase<L> {
  const pc = parseLabel(lat, entry.pc, `${file}: field "pc"`);
  const convLabel = (i: number): L => parseLabel(lat, entry.conversations[i]!.label, `${file}: field "conversations[${i}].label"`);
  const progs = entry.programs.map((p, i) => parseProgram(lat, p, `${file}: programs[${i}]`));
  if (entry.kind === 'single') {
    const conv = { label: convLabel(0), messages: entry.conversations[0]!.messages };
    return { kind: 'single', value: { pc, expr: progs[0]!, conv, model: entry.model, fuel: entry.fuel } };
  }
  const obs = parseLabel(lat, entry.observer!, `${file}: field "observer"`);
  const l0 = convLabel(0), l1 = convLabel(1);
  if (!lat.equals(l0, l1)) throw new UserError(`${file}: field "conversations[1].label" must equal conversations[0].label (a pair shares its conversation label)`);
  const m0 = entry.conversations[0]!.messages, m1 = entry.conversations[1]!.messages;
  if (lat.leq(l0, obs) && JSON.stringify(m0) !== JSON.stringify(m1)) {
    throw new UserError(`${file}: field "conversations[1].messages" must equal conversations[0].messages: the conversation label ${lat.show(l0)} is visible to the observer ${lat.show(obs)}`);
  }
  const merged = mergePrograms(lat, obs, progs[0]!, progs[1]!);
  if (!merged.ok) throw new UserError(`${file}: field "programs": the two programs are not related for observer ${entry.observer}: ${merged.reason}`);
  return {
    kind: 'pair',
    value: { obs, pc, skeleton: merged.skeleton, conv: { label: l0, messages0: m0, messages1: m1 }, model: entry.model, fuel: entry.fuel },
  };
}

/** What a hunt knows about a finding, to be saved. */
export interface Provenance {
  readonly variant: string;
  readonly prims?: string;
  /** The lattice's source file, as the entry stores it (relative to the entry file). */
  readonly latticeFile?: string;
  readonly suite: string;
  readonly seed?: number;
  readonly path?: string;
  readonly reason?: string;
  readonly title?: string;
  readonly expected?: { readonly reference: ExpectedOutcome; readonly variant: ExpectedOutcome };
}

/** A case (pair or single) as a corpus entry. */
export function caseToEntry<L>(lat: Lattice<L>, c: LoadedCase<L>, p: Provenance): CorpusEntry {
  const common = {
    version: CORPUS_VERSION,
    ...(p.title !== undefined ? { title: p.title } : {}),
    variant: p.variant,
    suite: p.suite,
    ...(p.prims !== undefined ? { prims: p.prims } : {}),
    lattice: lat.name,
    ...(p.latticeFile !== undefined ? { latticeFile: p.latticeFile } : {}),
  } as const;
  const tail = {
    ...(p.seed !== undefined ? { seed: p.seed } : {}),
    // A finding saved while fast-check still shrinks it has no path yet (''): the field is left out, not written empty.
    ...(p.path !== undefined && p.path !== '' ? { path: p.path } : {}),
    expected: p.expected ?? { reference: 'holds', variant: 'fails' },
  } as const;
  if (c.kind === 'single') {
    const s = c.value;
    return {
      ...common, kind: 'single', pc: lat.show(s.pc), programs: [prettyPrint(s.expr, lat)],
      conversations: [{ label: lat.show(s.conv.label), messages: s.conv.messages }], model: s.model, fuel: s.fuel,
      ...tail, size: size(s.expr), ...(p.reason !== undefined ? { reason: p.reason } : {}),
    };
  }
  const pr = c.value;
  const programs = [programOf(pr, 0), programOf(pr, 1)];
  return {
    ...common, kind: 'pair', observer: lat.show(pr.obs), pc: lat.show(pr.pc),
    programs: programs.map((e) => prettyPrint(e, lat)),
    conversations: ([0, 1] as const).map((side) => {
      const cv = conversationOf(pr, side);
      return { label: lat.show(cv.label), messages: cv.messages };
    }),
    model: pr.model, fuel: pr.fuel, ...tail, size: size(programs[0]!) + size(programs[1]!),
    ...(p.reason !== undefined ? { reason: p.reason } : {}),
  };
}

/** File-name-safe rendering of a name (`chain(3)` → `chain3`). */
export function slug(name: string): string {
  return name.replace(/\.(ts|js|mts|mjs)$/, '').replace(/^.*\//, '').replace(/[^A-Za-z0-9-]+/g, '');
}

/** A `.lam` rendering for people: every fact as a comment, run 0 as code, run 1 commented out. */
export function renderLam(entry: CorpusEntry, jsonFile: string, lat?: AnyLattice): string {
  const c = (s: string): string => s.split('\n').map((l) => `# ${l}`.trimEnd()).join('\n');
  const lines = [
    c(`${entry.title ?? `counterexample: ${entry.suite} fails under variant ${entry.variant}`}`),
    c(`variant ${entry.variant}, suite ${entry.suite}, lattice ${entry.lattice}`),
    c(`${entry.kind === 'pair' ? `observer m = ${entry.observer}, ` : ''}pc = ${entry.pc}, fuel ${entry.fuel}`),
    c(`model: ${showModelSpec(entry.model)}`),
    ...entry.conversations.map((cv, i) => c(`conversation${entry.kind === 'pair' ? ` of run ${i}` : ''}: ${cv.label}:${JSON.stringify(cv.messages)}`)),
    c(`size ${entry.size} AST nodes; expected: ${entry.expected.reference} on the reference, ${entry.expected.variant} under ${entry.variant}`),
    ...(entry.seed !== undefined ? [c(`found with seed ${entry.seed}${entry.path ? `, path ${entry.path}` : ''}`)] : []),
    c(`replay: npx llmbda replay ${jsonFile}`),
  ];
  if (entry.kind === 'pair' && lat) {
    try {
      const loaded = entryCase(jsonFile, entry, lat);
      if (loaded.kind === 'pair') lines.push(c(`the pair, high parts ⟦label: run 0 | run 1⟧:`), c(`  ${showSkeleton(lat, loaded.value.skeleton)}`));
    } catch {
      // the rendering is best-effort; the JSON is what replays
    }
  }
  if (entry.kind === 'pair') {
    lines.push('', c('run 1:'), c(entry.programs[1]!), '', '# run 0:', entry.programs[0]!);
  } else {
    lines.push('', entry.programs[0]!);
  }
  return `${lines.join('\n')}\n`;
}

/** Save an entry as `<dir>/<name>.json` plus `<name>.lam` (each written atomically); returns the JSON path. */
export function saveEntry(dir: string, name: string, entry: CorpusEntry, lat?: AnyLattice): string {
  ensureDir(dir);
  const json = join(dir, `${name}.json`);
  writeFileAtomic(json, `${JSON.stringify(entry, null, 2)}\n`);
  writeFileAtomic(join(dir, `${name}.lam`), renderLam(entry, json, lat));
  return json;
}

/** The file name (without extension) a hunt saves an entry under: variant, suite, lattice and seed. */
export function findingName(variant: string, suite: string, lattice: string, seed: number | undefined): string {
  return `${slug(variant)}-${slug(suite)}-${slug(lattice)}-${seed ?? 'hand'}`;
}

/** Same (variant, suite, lattice, seed): the identity under which at most one entry is kept. */
function sameKey(a: CorpusEntry, b: CorpusEntry): boolean {
  return slug(a.variant) === slug(b.variant) && a.suite === b.suite && a.lattice === b.lattice && a.seed === b.seed;
}

/** What `saveFinding` did. */
export type SaveOutcome =
  | { readonly kind: 'written'; readonly file: string; readonly size: number; readonly replaced?: { readonly file: string; readonly size: number } }
  | { readonly kind: 'kept'; readonly file: string; readonly size: number };

/**
 * Save a hunt's finding without ever making the corpus worse: under a lock on its file name, every
 * entry of the folder with the same (variant, suite, lattice, seed) — whatever its file name, so a
 * curated entry counts — is compared, and the new one is written (atomically) only if it is no larger
 * than all of them. Concurrent hunts therefore leave the smallest entry, never a mixed file.
 */
export function saveFinding(dir: string, entry: CorpusEntry, lat?: AnyLattice): SaveOutcome {
  ensureDir(dir);
  const name = findingName(entry.variant, entry.suite, entry.lattice, entry.seed);
  const json = join(dir, `${name}.json`);
  return withFileLock(json, (): SaveOutcome => {
    let replaced: { file: string; size: number } | undefined;
    for (const f of corpusFiles(dir)) {
      let e: CorpusEntry;
      try { e = loadEntry(f); } catch { continue; /* a corrupt neighbour is not ours to judge here */ }
      if (!sameKey(e, entry)) continue;
      if (e.size < entry.size) return { kind: 'kept', file: f, size: e.size };
      if (f === json) replaced = { file: f, size: e.size };
    }
    saveEntry(dir, name, entry, lat);
    return { kind: 'written', file: json, size: entry.size, ...(replaced ? { replaced } : {}) };
  });
}
/** Is this spec a module file (rather than a catalogue or lattice name)? */
export const isModuleFile = (spec: string): boolean => /\.(ts|js|mts|mjs)$/.test(spec);

/**
 * How an entry saved as `entryFile` names a user file (`spec`, as given relative to the current
 * directory): relative to the entry's own folder, starting with `./` or `../`, so the corpus replays from
 * any working directory and on any machine with the same files beside it.
 */
export function pathFromEntry(spec: string, entryFile: string): string {
  const rel = relative(dirname(resolvePath(entryFile)), resolvePath(spec)).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * Where a file named in an entry (a variant, lattice or primitives module) lives: a path starting with
 * `.` is relative to the entry's own file; otherwise (older entries) relative to the current directory,
 * else to the repository the corpus file sits in.
 */
export function entryFilePath(spec: string, file: string): string {
  if (!isModuleFile(spec)) return spec;
  if (spec.startsWith('.')) {
    const own = resolvePath(dirname(file), spec);
    if (existsSync(own)) return own;
  }
  if (existsSync(spec)) return spec;
  const alt = resolvePath(dirname(file), '..', spec);
  return existsSync(alt) ? alt : spec;
}

/** The corpus of a folder: the valid entries, and one warning per file that could not be read. */
export interface CorpusScan {
  readonly entries: readonly { readonly file: string; readonly entry: CorpusEntry }[];
  readonly warnings: readonly string[];
}

/** Read every corpus file of a folder; a corrupt one is a warning (naming it and why), never fatal. */
export function scanCorpus(dir: string = CORPUS_DIR): CorpusScan {
  const entries: { file: string; entry: CorpusEntry }[] = [];
  const warnings: string[] = [];
  for (const f of corpusFiles(dir)) {
    try {
      entries.push({ file: f, entry: loadEntry(f) });
    } catch (e) {
      warnings.push(`skipped ${e instanceof UserError ? e.message : `${f}: ${String(e)}`}`);
    }
  }
  return { entries, warnings };
}

/**
 * Corpus cases for a suite on a lattice (regression cases to judge one by one). Entries of other
 * suites or lattices are skipped; a malformed file throws (use `scanCorpus` to skip it instead).
 */
export function corpusExamples<L>(suite: string, lat: Lattice<L>, dir: string = CORPUS_DIR, variant?: string): unknown[] {
  return corpusExampleFiles(suite, lat, dir, variant).map((x) => x.value);
}

/**
 * The same with the file each came from, in the order they are tried: entries recorded for `variant`
 * first (the case that variant is known to fail), then the smallest first.
 */
export function corpusExampleFiles<L>(suite: string, lat: Lattice<L>, dir: string = CORPUS_DIR, variant?: string): { readonly file: string; readonly value: unknown }[] {
  const out: { file: string; value: unknown; rank: number; size: number }[] = [];
  for (const f of corpusFiles(dir)) {
    const e = loadEntry(f);
    if (e.suite !== suite || latticeByName(e.lattice)?.name !== lat.name) continue;
    out.push({ file: f, value: entryCase(f, e, lat).value, rank: variant !== undefined && e.variant === variant ? 0 : 1, size: e.size });
  }
  out.sort((a, b) => a.rank - b.rank || a.size - b.size || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return out.map(({ file, value }) => ({ file, value }));
}
