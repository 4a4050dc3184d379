/**
 * A fuzzed front end (issue 16 part 6): the lexer and the parser only ever return a program or a
 * located `ParseError` — never another exception, never a stack overflow — on arbitrary strings and
 * on valid programs mutated the ways real input goes wrong; and the core printer round-trips ASTs
 * whose strings, field names and primitive names need every escape of spec §2.
 *
 * - `frontEndTotal`: inputs are arbitrary strings (any code points, lone surrogates included),
 *   valid programs with bit flips in their UTF-8 bytes, truncations, duplicated, deleted or swapped
 *   tokens, deep nestings up to 10⁵ levels and left-associative chains up to 10⁵ terms, and deep
 *   nestings spliced into valid programs. Each input is lexed on its own (tokens ordered, inside the
 *   source, one final `eof`) and parsed; an error must be a `ParseError` whose position, excerpt
 *   window, escaping and caret are right (`badErrorReport`, properties/syntax.ts) and whose message
 *   stays small; a program that parses must print and parse back to itself.
 * - `printEscapes`: `parse(print(e)) = e` for generated ASTs carrying strings that need each of
 *   `\" \\ \n \t \r \{ \} \u{HEX}`, as string literals, record field names, quoted field accesses
 *   and primitive names; the statistics check that every escape is really exercised.
 * - `rawStrings`: string literals read raw characters exactly (lone surrogates, controls, line breaks).
 */
import fc from 'fast-check';
import { fails, HOLDS, type CaseOutcome, type PropertySuite } from '../src/runner/suite.ts';
import { exprArb, serialiseStringArb } from '../src/generators/ast.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import * as A from '../src/syntax/ast.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { ParseError, SourceMap } from '../src/syntax/errors.ts';
import { exprDiff } from '../src/syntax/helpers.ts';
import { lex, type Token } from '../src/syntax/lexer.ts';
import { MAX_NESTING, parse, tryParse } from '../src/syntax/parser.ts';
import { prettyPrint, print } from '../src/syntax/printer.ts';
import { badErrorReport, DEEP_SHAPES, SEED_PROGRAMS, STANDARD_PRINTERS, type NamedPrinter } from './syntax.ts';

/** How a fuzzed input was made (reports and statistics). */
export type FuzzOrigin = 'text' | 'bitflip' | 'truncation' | 'token-duplicate' | 'token-delete' | 'token-swap' | 'deep' | 'chain' | 'spliced-deep';

/** One input for `frontEndTotal`. */
export interface FuzzCase {
  readonly source: string;
  readonly origin: FuzzOrigin;
}

/** Context of `frontEndTotal`: the lattice, and optionally the parse function under test. */
export interface FrontEndCtx {
  readonly lattice: Lattice<unknown>;
  readonly parse?: (source: string, lattice: Lattice<unknown>) => Expr<unknown>;
  /** Largest nesting or chain generated (default 100,000). */
  readonly maxDeep?: number;
}

/** Longest message a ParseError may have: header (description capped at 200) + ~100-code-point excerpt, escapes included. */
export const MAX_MESSAGE_BYTES = 4096;

/** Left-associative chains (loops in the parser, deep left spines in the AST). */
export const CHAIN_SHAPES: readonly ((n: number) => string)[] = [
  (n) => '1' + ' + 1'.repeat(n),
  (n) => 'x' + ' * y - z'.repeat(Math.ceil(n / 2)),
  (n) => 'f' + ' x'.repeat(n),
  (n) => 'r' + '.a'.repeat(n),
  (n) => 'r' + '.[0]'.repeat(n),
  (n) => '"' + 'a{x}'.repeat(n) + '"',
  (n) => '[' + '1, '.repeat(n) + ']',
  (n) => '{' + 'a: 1, '.repeat(n) + '}',
];

/** Seeds: the shared valid programs and printed generated ASTs. */
function seedArb(lattice: Lattice<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...SEED_PROGRAMS),
    exprArb(lattice, { maxDepth: 4 }).map((e) => prettyPrint(e, lattice)),
    exprArb(lattice, { maxDepth: 4 }).map((e) => print(e, lattice)),
  );
}

/** Flip bit `bit` of byte `at` (mod length) of the UTF-8 encoding; invalid sequences decode to U+FFFD. */
export function flipBit(source: string, at: number, bit: number): string {
  const bytes = new TextEncoder().encode(source);
  if (bytes.length === 0) return source;
  const i = at % bytes.length;
  bytes[i] = (bytes[i] as number) ^ (1 << (bit % 8));
  return new TextDecoder().decode(bytes);
}

/** The tokens of a valid program (its text spans), or none when it does not lex. */
function tokenSpans(source: string): { start: number; end: number }[] {
  try {
    return lex(new SourceMap(source)).filter((t) => t.kind !== 'eof').map((t) => ({ start: t.start, end: t.end }));
  } catch (e) {
    if (e instanceof ParseError) return [];
    throw e;
  }
}

/** Apply a token-level mutation: duplicate token i, delete it, or swap it with token j. */
export function mutateTokens(source: string, op: 'token-duplicate' | 'token-delete' | 'token-swap', i: number, j: number): string {
  const ts = tokenSpans(source);
  if (ts.length === 0) return source;
  const a = ts[i % ts.length] as { start: number; end: number };
  const text = (t: { start: number; end: number }): string => source.slice(t.start, t.end);
  switch (op) {
    case 'token-duplicate':
      return source.slice(0, a.end) + ' ' + text(a) + source.slice(a.end);
    case 'token-delete':
      return source.slice(0, a.start) + source.slice(a.end);
    case 'token-swap': {
      const b = ts[j % ts.length] as { start: number; end: number };
      const [x, y] = a.start <= b.start ? [a, b] : [b, a];
      if (x === y) return source;
      return source.slice(0, x.start) + text(y) + source.slice(x.end, y.start) + text(x) + source.slice(y.end);
    }
    default:
      return op satisfies never;
  }
}

/** Inputs of `frontEndTotal` (see the module comment). */
export function fuzzCaseArb(lattice: Lattice<unknown>, maxDeep = 100_000): fc.Arbitrary<FuzzCase> {
  const seed = seedArb(lattice);
  // Mostly around the nesting limit; one case in ten up to maxDeep, one in twenty exactly maxDeep.
  const depth = fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 2000 }), weight: 17 },
    { arbitrary: fc.integer({ min: 1, max: maxDeep }), weight: 2 },
    { arbitrary: fc.constant(maxDeep), weight: 1 },
  );
  const c = (origin: FuzzOrigin) => (source: string): FuzzCase => ({ source, origin });
  return fc.oneof(
    fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ maxLength: 200 })).map(c('text')),
    fc.tuple(seed, fc.array(fc.tuple(fc.nat(), fc.nat(7)), { minLength: 1, maxLength: 3 }))
      .map(([s, flips]) => flips.reduce((acc, [at, bit]) => flipBit(acc, at, bit), s))
      .map(c('bitflip')),
    fc.tuple(seed, fc.nat()).map(([s, at]) => s.slice(0, s.length === 0 ? 0 : at % s.length)).map(c('truncation')),
    ...(['token-duplicate', 'token-delete', 'token-swap'] as const).map((op) =>
      fc.tuple(seed, fc.nat(), fc.nat()).map(([s, i, j]) => mutateTokens(s, op, i, j)).map(c(op)),
    ),
    fc.tuple(fc.nat(DEEP_SHAPES.length - 1), depth).map(([k, n]) => (DEEP_SHAPES[k] as (n: number) => string)(n)).map(c('deep')),
    fc.tuple(fc.nat(CHAIN_SHAPES.length - 1), depth).map(([k, n]) => (CHAIN_SHAPES[k] as (n: number) => string)(n)).map(c('chain')),
    fc.tuple(seed, fc.nat(), fc.nat(DEEP_SHAPES.length - 1), depth)
      .map(([s, at, k, n]) => {
        const i = s.length === 0 ? 0 : at % (s.length + 1);
        return s.slice(0, i) + (DEEP_SHAPES[k] as (n: number) => string)(n) + s.slice(i);
      })
      .map(c('spliced-deep')),
  );
}

/** The lexer alone: tokens in order, inside the source, ending with one `eof`; or a ParseError. Undefined when fine. */
function badLex(source: string): string | undefined {
  let tokens: Token[];
  try {
    tokens = lex(new SourceMap(source));
  } catch (e) {
    if (!(e instanceof ParseError)) return `the lexer threw something other than a ParseError: ${describeError(e)}`;
    const bad = badErrorReport(e, source);
    return bad === undefined ? undefined : `lexer: inconsistent ParseError (${bad})`;
  }
  let at = 0;
  for (const [i, t] of tokens.entries()) {
    if (t.start < at || t.end < t.start || t.end > source.length) return `lexer: token ${i} (${t.kind}) spans ${t.start}..${t.end}, out of order or outside the source`;
    if ((t.kind === 'eof') !== (i === tokens.length - 1)) return `lexer: eof must be exactly the last token (token ${i} is ${t.kind})`;
    at = t.end;
  }
  return undefined;
}

/** `parse` with the default parser, once per case (statistics and check share it; huge inputs are slow to parse). */
const PARSED = new WeakMap<FuzzCase, WeakMap<object, { expr: Expr<unknown> } | { error: unknown }>>();
function parsedOnce(c: FuzzCase, lattice: Lattice<unknown>): Expr<unknown> {
  let perLattice = PARSED.get(c);
  if (!perLattice) { perLattice = new WeakMap(); PARSED.set(c, perLattice); }
  let hit = perLattice.get(lattice);
  if (!hit) {
    try {
      hit = { expr: parse(c.source, lattice) };
    } catch (error) {
      hit = { error };
    }
    perLattice.set(lattice, hit);
  }
  if ('error' in hit) throw hit.error;
  return hit.expr;
}

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.constructor.name}: ${e.message.slice(0, 300)}` : String(e);
}

/** Front-end totality: lexer and parser give a program or a well-located, small ParseError, on any input. */
export const frontEndTotal: PropertySuite<FuzzCase, FrontEndCtx> = {
  name: 'front-end-total',
  caseKind: 'front-end-total',
  title: 'Front-end totality: on arbitrary and mutated input the lexer and parser give a program or a located ParseError, never another exception',
  arbitrary: (ctx) => fuzzCaseArb(ctx.lattice, ctx.maxDeep),
  check(c, ctx): CaseOutcome {
    const lexed = badLex(c.source);
    if (lexed !== undefined) return fails(lexed);
    let e: Expr<unknown>;
    try {
      e = ctx.parse ? ctx.parse(c.source, ctx.lattice) : parsedOnce(c, ctx.lattice);
    } catch (err) {
      if (!(err instanceof ParseError)) return fails(`parse threw something other than a ParseError: ${describeError(err)}`);
      const bad = badErrorReport(err, c.source);
      if (bad !== undefined) return fails(`inconsistent ParseError (${bad}):\n${err.message.slice(0, 1000)}`);
      const bytes = Buffer.byteLength(err.message);
      if (bytes > MAX_MESSAGE_BYTES) return fails(`the ParseError message is ${bytes} bytes (more than ${MAX_MESSAGE_BYTES})`);
      return HOLDS;
    }
    // What parses prints and parses back. Printing may nest deeper than the source (core syntax writes
    // `a + b` as `prim "binop_+" [a, b]`; parentheses): a nesting error then is the limit, not a bug.
    // Long inputs (the 10⁵ chains) go through prettyPrint only, which keeps chains flat.
    const printers = c.source.length <= 5000 ? STANDARD_PRINTERS.slice(0, 2) : STANDARD_PRINTERS.slice(1, 2);
    for (const p of printers) {
      const text = p.print(e, ctx.lattice);
      const again = tryParse(text, ctx.lattice);
      if (!again.ok) {
        if (/nesting deeper than/.test(again.error.description)) continue;
        return fails(`the parsed AST, printed by ${p.name}, does not parse:\n${again.error.message.slice(0, 1000)}`);
      }
      const d = exprDiff(ctx.lattice, e, again.expr);
      if (d) return fails(`${p.name} then parse changes the parsed AST at ${d.path.slice(0, 200) || 'the root'}`);
    }
    return HOLDS;
  },
  show: (c) => `${c.origin} input (${c.source.length} UTF-16 units): ${JSON.stringify(c.source.length > 300 ? `${c.source.slice(0, 300)}…` : c.source)}`,
  stats(c, ctx) {
    let r: { ok: true } | { ok: false; error: ParseError };
    try {
      parsedOnce(c, ctx.lattice);
      r = { ok: true };
    } catch (err) {
      if (!(err instanceof ParseError)) throw err;
      r = { ok: false, error: err };
    }
    return {
      parses: r.ok,
      parseError: !r.ok,
      mutated: c.origin.startsWith('token-') || c.origin === 'bitflip' || c.origin === 'truncation',
      deepBeyondLimit: (c.origin === 'deep' || c.origin === 'spliced-deep') && !r.ok && /nesting deeper than/.test(r.error.description),
      // Every chain shape spends at least 2 characters per term: this is a chain of more than MAX_NESTING terms.
      chainPastNestingLimitParses: c.origin === 'chain' && c.source.length > 2 * MAX_NESTING + 10 && r.ok,
    };
  },
  thresholds: { parses: 0.1, parseError: 0.3, mutated: 0.3, deepBeyondLimit: 0.03, chainPastNestingLimitParses: 0.02 },
};

// ---------------------------------------------------------------------------------------------
// The printer and every escape

/** One case of `printEscapes`: an AST and the awkward strings planted in it. */
export interface EscapeCase {
  readonly expr: Expr<unknown>;
  readonly strings: readonly string[];
}

/** Context of `printEscapes`: the lattice, and optionally the printers to check (default: all shipped). */
export interface PrintEscapesCtx {
  readonly lattice: Lattice<unknown>;
  readonly printers?: readonly NamedPrinter[];
}

/**
 * The AST of a case: the generated expression, with each planted string as a string literal, a
 * record field name, a quoted field access `e."s"` and a primitive name `prim "s" e`.
 */
export function plantStrings(c: EscapeCase): Expr<unknown> {
  const parts: Expr<unknown>[] = [c.expr];
  for (const s of c.strings) {
    parts.push(A.str(s), A.record([{ name: s, expr: A.str(s) }]), A.field(c.expr, s), A.prim(s, A.str(s)));
  }
  return A.array(parts);
}

/** The escapes of spec §2 and how each shows in printed text. */
const ESCAPES: Readonly<Record<string, RegExp>> = {
  quote: /\\"/, backslash: /\\\\/, newline: /\\n/, tab: /\\t/, cr: /\\r/, openBrace: /\\\{/, closeBrace: /\\\}/, unicode: /\\u\{[0-9a-f]+\}/,
};

/** `parse(print(e)) = e` with strings that need every escape, in every position a string can take. */
export const printEscapes: PropertySuite<EscapeCase, PrintEscapesCtx> = {
  name: 'print-escapes',
  caseKind: 'print-escapes',
  title: 'Printer round trip with every escape: parse(print(e)) = e for strings needing \\" \\\\ \\n \\t \\r \\{ \\} \\u{HEX}',
  arbitrary: (ctx) =>
    fc.record({
      expr: exprArb(ctx.lattice, { maxDepth: 3 }),
      strings: fc.array(fc.oneof(serialiseStringArb(), fc.constantFrom('"', '\\', '\n', '\t', '\r', '{', '}', '\u0000', '\u{1F600}', '\ud800')), { minLength: 1, maxLength: 4 }),
    }),
  check(c, ctx): CaseOutcome {
    const e = plantStrings(c);
    for (const p of ctx.printers ?? STANDARD_PRINTERS) {
      const text = p.print(e, ctx.lattice);
      const r = tryParse(text, ctx.lattice);
      if (!r.ok) return fails(`${p.name} output does not parse:\n${r.error.message}`);
      const d = exprDiff(ctx.lattice, e, r.expr);
      if (d) return fails(`${p.name} output parses to a different AST at ${d.path || 'the root'}: expected ${print(d.left, ctx.lattice)}, got ${print(d.right, ctx.lattice)}`);
    }
    return HOLDS;
  },
  show: (c, ctx) => `AST: ${print(plantStrings(c), ctx.lattice)}\nplanted strings: ${JSON.stringify(c.strings)}`,
  stats(c, ctx) {
    // Only the planted strings' own printed forms count, so the generated AST cannot satisfy a statistic alone.
    const printed = c.strings.map((s) => print(A.str(s), ctx.lattice)).join(' ');
    return Object.fromEntries(Object.entries(ESCAPES).map(([k, re]) => [k, re.test(printed)]));
  },
  thresholds: { quote: 0.15, backslash: 0.15, newline: 0.1, tab: 0.1, cr: 0.1, openBrace: 0.15, closeBrace: 0.15, unicode: 0.2 },
};

// ---------------------------------------------------------------------------------------------
// Raw characters in string literals

/** Context of `rawStrings`: the lattice, and optionally the parse function under test. */
export interface RawStringsCtx {
  readonly lattice: Lattice<unknown>;
  readonly parse?: (source: string, lattice: Lattice<unknown>) => Expr<unknown>;
}

/** `s` as a single-quoted literal: only `\'` and `\\` escaped (spec §2), everything else raw. */
export const rawSingleQuoted = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `s` as a double-quoted literal with only the escapes it cannot do without: `\\ \" \{ \}`; controls, line breaks, surrogates raw. */
export const minimalDoubleQuoted = (s: string): string => `"${s.replace(/[\\"{}]/g, (c) => `\\${c}`)}"`;

/**
 * The lexer reads every character of a string literal as itself: for any string `s` (any code units,
 * lone surrogates, control characters, line breaks), `[lit, 0]` parses to `[s, 0]` for the
 * single-quoted literal and the minimally escaped double-quoted one.
 */
export const rawStrings: PropertySuite<string, RawStringsCtx> = {
  name: 'raw-strings',
  caseKind: 'raw-strings',
  title: 'String literals read raw characters exactly: any string s, quoted with only the escapes it needs, parses back to s',
  arbitrary: () =>
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      serialiseStringArb(),
      fc.array(fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), { maxLength: 3 }).chain((ss) =>
        fc.string({ maxLength: 4 }).map((t) => ss.join('') + t + ss.join(''))),
    ),
  check(s, ctx): CaseOutcome {
    const parseFn = ctx.parse ?? ((src: string, lat: Lattice<unknown>) => parse(src, lat));
    for (const lit of [rawSingleQuoted(s), minimalDoubleQuoted(s)]) {
      const src = `[${lit}, 0]`;
      let e: Expr<unknown>;
      try {
        e = parseFn(src, ctx.lattice);
      } catch (err) {
        return fails(`${JSON.stringify(src)} does not parse: ${describeError(err)}`);
      }
      const got = e.kind === 'array' && e.elems.length === 2 ? e.elems[0] : undefined;
      if (got?.kind !== 'str' || got.value !== s) return fails(`${JSON.stringify(src)} parses to ${print(e, ctx.lattice)}, not the string ${JSON.stringify(s)}`);
    }
    return HOLDS;
  },
  show: (s) => `string ${JSON.stringify(s)}: single-quoted ${JSON.stringify(rawSingleQuoted(s))}, double-quoted ${JSON.stringify(minimalDoubleQuoted(s))}`,
  stats: (s) => ({
    loneSurrogate: /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s),
    control: /[\u0000-\u001f\u007f-\u009f]/.test(s),
    quoteOrBackslash: /['"\\]/.test(s),
  }),
  thresholds: { loneSurrogate: 0.1, control: 0.1, quoteOrBackslash: 0.1 },
};

/** Every suite of this module. */
export const FRONT_END_FUZZ_SUITES = [frontEndTotal, printEscapes, rawStrings] as const;
