/**
 * Property suites for the surface syntax (docs/grammar.md).
 *
 * - `roundTrip`: `parse(print(e))` and `parse(prettyPrint(e))` are structurally equal to `e` for
 *   generated ASTs over every construct (the printers are injectable through the context, so a
 *   deliberately broken printer can be shown to fail).
 * - `parserTotal`: on arbitrary text, mutated programs and very deep nestings, `parse` returns an
 *   AST or throws a `ParseError` whose position and caret excerpt are consistent — never any other
 *   exception. Inputs that parse also survive print-and-reparse.
 * - `serialiseRoundTrip`: spec §4's law `parse(serialise(v)) = v` for label-free values (strings with
 *   braces, quotes, backslashes, control characters and astral code points; non-word field names).
 */
import fc from 'fast-check';
import { fails, HOLDS, type CaseOutcome, type PropertySuite } from '../src/runner/suite.ts';
import { denominator, numerator } from '../src/distributions/rational.ts';
import { exprArb, plainValueArb, stringArb } from '../src/generators/ast.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import type { Expr, PlainValue } from '../src/syntax/ast.ts';
import { ParseError } from '../src/syntax/errors.ts';
import { exprDiff, forEachChild } from '../src/syntax/helpers.ts';
import { MAX_NESTING, parse, tryParse } from '../src/syntax/parser.ts';
import { prettyPrint, print } from '../src/syntax/printer.ts';
import { isWord } from '../src/syntax/lexer.ts';
import { serialise } from '../src/semantics/serialise.ts';

/** A printer under test, with the name used in failure reasons. */
export interface NamedPrinter {
  readonly name: string;
  print(e: Expr<unknown>, lattice: Lattice<unknown>): string;
}

/** The shipped printers: core, pretty on one line, pretty with top-level lets on their own lines. */
export const STANDARD_PRINTERS: readonly NamedPrinter[] = [
  { name: 'print', print },
  { name: 'prettyPrint', print: (e, lat) => prettyPrint(e, lat) },
  { name: 'prettyPrint(multiline)', print: (e, lat) => prettyPrint(e, lat, { multiline: true }) },
];

/** Context of `roundTrip`: the lattice, and optionally the printers to check (default: all shipped). */
export interface RoundTripCtx {
  readonly lattice: Lattice<unknown>;
  readonly printers?: readonly NamedPrinter[];
  /** Maximum nesting of generated ASTs (default 6). */
  readonly maxDepth?: number;
}

/** Does any node of `e` satisfy `p`? */
function some(e: Expr<unknown>, p: (x: Expr<unknown>) => boolean): boolean {
  const stack = [e];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (p(x)) return true;
    forEachChild(x, (c) => stack.push(c));
  }
  return false;
}

const TRICKY = /["{}\\\n\t\r\u0000-\u001f]/;

/** Round trip: `parse(p(e))` is structurally equal to `e` for every printer `p`. */
export const roundTrip: PropertySuite<Expr<unknown>, RoundTripCtx> = {
  name: 'syntax-round-trip',
  caseKind: 'expr',
  title: 'Printer round trip: parse(print(e)) = e and parse(prettyPrint(e)) = e',
  arbitrary: (ctx) => exprArb(ctx.lattice, { maxDepth: ctx.maxDepth ?? 6 }),
  check(e, ctx): CaseOutcome {
    for (const p of ctx.printers ?? STANDARD_PRINTERS) {
      const text = p.print(e, ctx.lattice);
      const r = tryParse(text, ctx.lattice);
      if (!r.ok) return fails(`${p.name} output does not parse:\n${r.error.message}`);
      const d = exprDiff(ctx.lattice, e, r.expr);
      if (d) {
        return fails(
          `${p.name} output parses to a different AST at ${d.path || 'the root'}: ` +
            `expected ${print(d.left, ctx.lattice)}, got ${print(d.right, ctx.lattice)}\n  printed: ${text}`,
        );
      }
    }
    return HOLDS;
  },
  show(e, ctx) {
    const lines = [`AST (core syntax): ${print(e, ctx.lattice)}`];
    for (const p of ctx.printers ?? STANDARD_PRINTERS) lines.push(`${p.name}: ${p.print(e, ctx.lattice)}`);
    return lines.join('\n');
  },
  stats(e, ctx) {
    return {
      staticLabel: some(e, (x) => x.kind === 'label'),
      literalDynamicLabel: some(e, (x) => x.kind === 'dynlabel' && (x.label.kind === 'array' || x.label.kind === 'record')),
      negativeNumber: some(e, (x) => x.kind === 'num' && numerator(x.value) < 0n),
      nonDecimalRational: some(e, (x) => x.kind === 'num' && !isDecimalDenominator(denominator(x.value))),
      trickyString: some(e, (x) => x.kind === 'str' && TRICKY.test(x.value)),
      duplicateFields: some(e, (x) => x.kind === 'record' && new Set(x.fields.map((f) => f.name)).size < x.fields.length),
      resugared: prettyPrint(e, ctx.lattice) !== print(e, ctx.lattice),
      openFormArgument: some(e, (x) => x.kind === 'app' && x.arg.kind === 'lam'),
    };
  },
  // About half of the rates observed over a few seeds: low enough to be stable, high enough to
  // catch a generator that stopped producing the case.
  thresholds: {
    staticLabel: 0.15,
    literalDynamicLabel: 0.015,
    negativeNumber: 0.05,
    nonDecimalRational: 0.02,
    trickyString: 0.05,
    duplicateFields: 0.05,
    resugared: 0.25,
    openFormArgument: 0.1,
  },
};

/** Is `d` of the form 2^a·5^b, i.e. does the rational have a finite decimal expansion? */
function isDecimalDenominator(d: bigint): boolean {
  while (d % 2n === 0n) d /= 2n;
  while (d % 5n === 0n) d /= 5n;
  return d === 1n;
}

// ---------------------------------------------------------------------------------------------
// Parser totality

/** One input for `parserTotal`, with where it came from (for reports and statistics). */
export interface SourceCase {
  readonly source: string;
  readonly origin: 'text' | 'tokens' | 'mutation' | 'deep' | 'label';
}

/** Context of `parserTotal`: the lattice, and optionally the parse function under test. */
export interface ParserTotalCtx {
  readonly lattice: Lattice<unknown>;
  readonly parse?: (source: string, lattice: Lattice<unknown>) => Expr<unknown>;
}

/** Valid programs whose mutations are tried (spec §8 examples, the prelude's style, top-level lets). */
export const SEED_PROGRAMS: readonly string[] = [
  `let secret = true in let _ = @'Remember x = false' in let _ = if ["S"]:secret then @'Set x = true' else {} in @'Give me x'`,
  `endorse [] (["U"]:"untrusted")`,
  `if ["U"]:true then endorse [] "x" else "skip"`,
  `let w = endorse [] (["U"]:"x") in if ["S"] ? w then "accepted" else "rejected"`,
  `let x = fork @"flip" in let y = fork @"again" in x.[1] + y.[1]`,
  `let quarantine = \\p. let pair = fork (let _ = clear in @p) in pair.[1]\nlet is_trusted = \\x. ["S"] ? x\nquarantine "hi"`,
  `# comment\nlet fix = \\f. (\\x. f (\\v. x x v)) (\\x. f (\\v. x x v))\nlet any = \\p. \\xs. fix (\\go. \\i. if i == shape(xs).length then false\n  else if p (xs.[i]) then true else go (i + 1)) 0\nany (\\x. x > 1/3) [0.25, -2, 7]`,
  `{a: 1, "b c": [true, null], a: 'raw\\n'}.a := "x{y}z" # update`,
  `assert ["S"] (x.r.[0]) && not (y != -3) || prim "shape" {} == str(z % 2)`,
  `(["U"]):v ? λz. send z`,
];

const SOUP_TOKENS = [
  '(', ')', '[', ']', '{', '}', ',', ':', '.', ':=', '?', '@', '\\', 'λ', '=', '+', '-', '*', '/', '%', '==', '!=',
  '<', '>', '<=', '>=', '&&', '||', '!', '&', '|', 'let', 'in', 'if', 'then', 'else', 'not', 'send', 'recv', 'fork',
  'clear', 'assert', 'endorse', 'prim', 'str', 'shape', 'true', 'false', 'null', 'x', 'f', '_', '0', '1', '-3',
  '1/3', '1/0', '0.25', '3x', '"a"', '"{x}"', '"{', '}"', '"\\q"', '"\\u{110000}"', "'r'", "'", '"', '#c\n', '\n',
  ' ', '\t', '["S"]', '["X"]', '[1]', '[]', '{}', '[["H"],[]]', '$', '\u00a0', '😀', '\r\n',
];

/** Elements of label literals: the shipped encodings' strings and numbers, and other literals. */
const LABEL_ELEMENTS = ['"U"', '"S"', '"H"', '"X"', '""', '0', '1', '2', '-1', '1/2', 'true', 'null', '[]', '["H"]', '{}', '{a: 1}'];

export const DEEP_SHAPES: readonly ((n: number) => string)[] = [
  (n) => '('.repeat(n) + 'x' + ')'.repeat(n),
  (n) => '['.repeat(n) + ']'.repeat(n),
  (n) => '{a: '.repeat(n) + '1' + '}'.repeat(n),
  (n) => '\\x. '.repeat(n) + 'x',
  (n) => 'let x = 1 in '.repeat(n) + 'x',
  (n) => 'not '.repeat(n) + 'x',
  (n) => '@'.repeat(n) + 'x',
  (n) => 'a:'.repeat(n) + 'x',
  (n) => 'x && '.repeat(n) + 'y',
  (n) => '"{'.repeat(n) + 'x' + '}"'.repeat(n),
  (n) => 'send ('.repeat(n) + 'x' + ')'.repeat(n),
  (n) => 'x.['.repeat(n) + '0' + ']'.repeat(n),
  (n) => 'f' + ' x'.repeat(n),
  (n) => '('.repeat(n),
];

type Mutation = { readonly op: 'insert' | 'delete' | 'replace'; readonly at: number; readonly ch: string };

function mutate(source: string, ms: readonly Mutation[]): string {
  let s = source;
  for (const m of ms) {
    const at = s.length === 0 ? 0 : m.at % (s.length + (m.op === 'insert' ? 1 : 0));
    if (m.op === 'insert') s = s.slice(0, at) + m.ch + s.slice(at);
    else if (m.op === 'delete') s = s.slice(0, at) + s.slice(at + 1);
    else s = s.slice(0, at) + m.ch + s.slice(at + 1);
  }
  return s;
}

/** Inputs: random text, token soup, mutated valid programs, label literals, and nestings around MAX_NESTING. */
export function sourceArb(lattice: Lattice<unknown>): fc.Arbitrary<SourceCase> {
  const ch = fc.oneof(fc.constantFrom(...SOUP_TOKENS.filter((t) => t.length <= 2)), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  const mutation: fc.Arbitrary<Mutation> = fc.record({ op: fc.constantFrom('insert', 'delete', 'replace'), at: fc.nat(), ch });
  const seed = fc.oneof(fc.constantFrom(...SEED_PROGRAMS), exprArb(lattice, { maxDepth: 4 }).map((e) => prettyPrint(e, lattice)));
  return fc.oneof(
    fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), stringArb()).map((source): SourceCase => ({ source, origin: 'text' })),
    fc
      .array(fc.constantFrom(...SOUP_TOKENS), { maxLength: 25 })
      .chain((ts) => fc.array(fc.boolean(), { minLength: ts.length, maxLength: ts.length }).map((sp) => ts.map((t, i) => (sp[i] ? `${t} ` : t)).join('')))
      .map((source): SourceCase => ({ source, origin: 'tokens' })),
    fc.tuple(seed, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([s, ms]): SourceCase => ({ source: mutate(s, ms), origin: 'mutation' })),
    // Label folding is the parser's one call into the lattice: feed `toLabel` literals of every kind.
    fc
      .tuple(fc.array(fc.constantFrom(...LABEL_ELEMENTS), { maxLength: 3 }), fc.constantFrom('x', '"v"', '\\y. y', '(f x)', ''))
      .map(([els, body]): SourceCase => ({ source: `[${els.join(', ')}]:${body}`, origin: 'label' })),
    fc
      .tuple(fc.nat(DEEP_SHAPES.length - 1), fc.integer({ min: 1, max: MAX_NESTING + 200 }))
      .map(([k, n]): SourceCase => ({ source: (DEEP_SHAPES[k] as (n: number) => string)(n), origin: 'deep' })),
  );
}

/** Code points quoted on each side of the caret (the documented excerpt window, docs/grammar.md). */
const WINDOW = 50;
/** Code points either side of the column in a resource-limit error's one-line excerpt. */
const LIMIT_WINDOW = 30;

/**
 * User text as a message must show it (written here independently of src/syntax/errors.ts): tab kept,
 * other C0/C1 controls, DEL, line/paragraph separators, bidi controls and lone surrogates as `\u{hex}`.
 */
function expectedDisplay(chars: readonly string[]): string {
  return chars
    .map((ch) => {
      const cp = ch.codePointAt(0) ?? 0;
      const hidden = (cp <= 0x1f && cp !== 9) || (cp >= 0x7f && cp <= 0x9f) || [0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].includes(cp) || (cp >= 0xd800 && cp <= 0xdfff);
      return hidden ? `\\u{${cp.toString(16)}}` : ch;
    })
    .join('');
}

/** Is a ParseError's position, message header, excerpt window (escaped) and caret consistent with the source? Undefined when they are. */
export function badErrorReport(e: ParseError, source: string): string | undefined {
  const lines = source.split('\n');
  if (!Number.isInteger(e.line) || e.line < 1 || e.line > lines.length) return `line ${e.line} is outside the source (${lines.length} lines)`;
  const text = (lines[e.line - 1] as string).replace(/\r$/, '');
  if (e.sourceLine !== text) return `the error's source line is not line ${e.line} ${JSON.stringify(text.slice(0, 200))}`;
  const chars = Array.from(text);
  if (!Number.isInteger(e.column) || e.column < 1 || e.column > chars.length + 1) return `column ${e.column} is outside line ${e.line} (${chars.length} characters)`;
  if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(e.message)) return 'the message contains a raw control character';
  const c0 = e.column - 1;
  if (e.kind === 'limit') {
    // One line: the header, then at most LIMIT_WINDOW code points either side of the column, escaped.
    const from = Math.max(0, c0 - LIMIT_WINDOW);
    const to = Math.min(chars.length, c0 + LIMIT_WINDOW);
    const excerpt = `${from > 0 ? '…' : ''}${expectedDisplay(chars.slice(from, to))}${to < chars.length ? '…' : ''}`;
    const want = `${e.file}:${e.line}:${e.column}: ${e.description}${excerpt.trim() === '' ? '' : `, near: ${excerpt}`}`;
    return e.message === want ? undefined : `malformed one-line limit error: ${JSON.stringify(e.message.slice(0, 300))}`;
  }
  const [head, excerpt, caret, ...rest] = e.message.split('\n');
  if (head !== `${e.file}:${e.line}:${e.column}: ${e.description}` || rest.length > 0) return `malformed message header: ${JSON.stringify(head)}`;
  const c = e.column - 1;
  const from = Math.max(0, c - WINDOW);
  const to = Math.min(chars.length, c + WINDOW);
  const open = from > 0 ? '…' : '';
  const before = expectedDisplay(chars.slice(from, c));
  const want = `  ${open}${before}${expectedDisplay(chars.slice(c, to))}${to < chars.length ? '…' : ''}`;
  if (excerpt !== want) return `the message does not quote the window of line ${e.line} around column ${e.column}: ${JSON.stringify(excerpt)}`;
  const pad = Array.from(before).map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
  if (caret !== `  ${open ? ' ' : ''}${pad}^`) return `the caret is not under column ${e.column}`;
  return undefined;
}

/** Parsing never throws anything but a well-formed ParseError; what parses also re-prints and re-parses. */
export const parserTotal: PropertySuite<SourceCase, ParserTotalCtx> = {
  name: 'parser-total',
  caseKind: 'source',
  title: 'Parser totality: every input gives an AST or a ParseError with a correct position',
  arbitrary: (ctx) => sourceArb(ctx.lattice),
  check(c, ctx): CaseOutcome {
    const parseFn = ctx.parse ?? ((s: string, lat: Lattice<unknown>) => parse(s, lat));
    let e: Expr<unknown>;
    try {
      e = parseFn(c.source, ctx.lattice);
    } catch (err) {
      if (!(err instanceof ParseError)) {
        const what = err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err);
        return fails(`parse threw something other than a ParseError: ${what}`);
      }
      const bad = badErrorReport(err, c.source);
      return bad === undefined ? HOLDS : fails(`inconsistent ParseError (${bad}):\n${err.message}`);
    }
    // Short inputs that parse must also survive print → parse (long ones may nest too deeply once parenthesised).
    if (c.source.length <= 200) {
      const text = print(e, ctx.lattice);
      const again = tryParse(text, ctx.lattice);
      if (!again.ok) return fails(`the parsed AST prints as text that does not parse: ${text}\n${again.error.message}`);
      const d = exprDiff(ctx.lattice, e, again.expr);
      if (d) return fails(`print/parse changes the parsed AST at ${d.path || 'the root'}; printed: ${text}`);
    }
    return HOLDS;
  },
  show: (c) => `${c.origin} input: ${JSON.stringify(c.source.length > 400 ? `${c.source.slice(0, 400)}…` : c.source)}`,
  stats(c, ctx) {
    const r = tryParseQuietly(c.source, ctx.lattice);
    return {
      parses: r === 'ok',
      parseError: r === 'error',
      mutation: c.origin === 'mutation',
      tooDeep: c.origin === 'deep' && r === 'error',
    };
  },
  thresholds: { parses: 0.15, parseError: 0.3, mutation: 0.08, tooDeep: 0.03 },
};

function tryParseQuietly(source: string, lattice: Lattice<unknown>): 'ok' | 'error' | 'crash' {
  try {
    return tryParse(source, lattice).ok ? 'ok' : 'error';
  } catch {
    return 'crash';
  }
}

// ---------------------------------------------------------------------------------------------
// The serialise law (spec §4)

/** Context of `serialiseRoundTrip`: the lattice to parse with, and optionally the `serialise` under test. */
export interface SerialiseCtx {
  readonly lattice: Lattice<unknown>;
  readonly serialise?: (v: PlainValue) => string;
}

const ASTRAL = /[\u{10000}-\u{10ffff}]/u;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Some node of a label-free value satisfies `p` (lambda bodies included). */
const somePlain = (v: PlainValue, p: (x: Expr<unknown>) => boolean): boolean => some(v as Expr<unknown>, p);

/**
 * `parse(serialise(v)) = v` for every label-free value `v`, strings at the top level excepted: those
 * are sent raw (`serialise("s") = s`), and inside any structure read back exactly.
 */
export const serialiseRoundTrip: PropertySuite<PlainValue, SerialiseCtx> = {
  name: 'serialise-round-trip',
  caseKind: 'serialise-round-trip',
  title: 'Serialise law (spec §4): parse(serialise(v)) = v for every label-free value v, top-level strings raw',
  arbitrary: (ctx) => plainValueArb(ctx.lattice),
  check(v, ctx): CaseOutcome {
    const ser = ctx.serialise ?? serialise;
    const text = ser(v);
    if (v.kind === 'str') {
      if (text !== v.value) return fails(`a top-level string is not sent raw: serialise gave ${JSON.stringify(text)}`);
      // Inside a structure the same string must read back: check it as a one-element array.
      return checkReadsBack({ kind: 'array', elems: [v] }, ser, ctx.lattice);
    }
    return checkReadsBack(v, ser, ctx.lattice);
  },
  show: (v, ctx) => `value: ${print(v as Expr<unknown>, ctx.lattice)}\nserialised: ${JSON.stringify((ctx.serialise ?? serialise)(v))}`,
  stats: (v) => ({
    structured: v.kind === 'record' || v.kind === 'array',
    braceOrQuoteInside: v.kind !== 'str' && somePlain(v, (x) => x.kind === 'str' && /["{}\\]/.test(x.value)),
    controlInside: v.kind !== 'str' && somePlain(v, (x) => x.kind === 'str' && CONTROL.test(x.value)),
    astralInside: v.kind !== 'str' && somePlain(v, (x) => x.kind === 'str' && ASTRAL.test(x.value)),
    quotedFieldName: somePlain(v, (x) => x.kind === 'record' && x.fields.some((f) => !isWord(f.name))),
    lambda: somePlain(v, (x) => x.kind === 'lam'),
  }),
  thresholds: { structured: 0.3, braceOrQuoteInside: 0.1, controlInside: 0.05, astralInside: 0.03, quotedFieldName: 0.05, lambda: 0.05 },
};

function checkReadsBack(v: PlainValue, ser: (v: PlainValue) => string, lattice: Lattice<unknown>): CaseOutcome {
  const text = ser(v);
  const r = tryParse(text, lattice);
  if (!r.ok) return fails(`serialise output does not parse:\n${r.error.message}`);
  const d = exprDiff(lattice, v as Expr<unknown>, r.expr);
  if (d) {
    return fails(
      `serialise output parses to a different value at ${d.path || 'the root'}: ` +
        `expected ${print(d.left, lattice)}, got ${print(d.right, lattice)}\n  serialised: ${JSON.stringify(text)}`,
    );
  }
  return HOLDS;
}

/** Every suite of this module. */
export const SYNTAX_SUITES = [roundTrip, parserTotal, serialiseRoundTrip] as const;
