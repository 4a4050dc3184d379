/**
 * The LLMbda parser: surface syntax (docs/grammar.md) to the core AST of spec §2.
 *
 * Recursive descent with a Pratt loop for the binary operators. Every derived form is expanded
 * here (the evaluator never sees sugar), using the constructors in helpers.ts. The parser's only
 * exception is `ParseError`: nesting is capped at `MAX_NESTING` so deep input cannot overflow the stack.
 */
import { neg } from '../distributions/rational.ts';
import type { LabelOps } from './label-ops.ts';
import * as A from './ast.ts';
import type { Expr, PlainValue } from './ast.ts';
import { clip, DEFAULT_FILE, ParseError, SourceMap, type ParseErrorKind } from './errors.ts';
import { ask, binop, ifThenElse, interpolate, letIn, logicalAnd, logicalNot, logicalOr, notEqual, recordUpdate, type BinOp } from './helpers.ts';
import { lex, type Punct, type Token } from './lexer.ts';

/** Options for the parse functions. */
export interface ParseOptions {
  /** File name used in error messages (default `<input>`). */
  readonly file?: string;
}

/** One top-level definition `let name = expr` (its right-hand side may mention earlier names). */
export interface Definition<L> {
  readonly name: string;
  readonly expr: Expr<L>;
}

/** The outcome of `tryParse`: the expression, or the error as a value. */
export type ParseResult<L> = { readonly ok: true; readonly expr: Expr<L> } | { readonly ok: false; readonly error: ParseError };

/**
 * Deepest nesting the parser accepts, counted as the depth of the parser's own recursion (brackets,
 * operands, bodies, right-nested forms such as `a && b && …`, `\\x. \\y. …`, `let … in let …`); deeper
 * input is a `ParseError`. Left-associative chains (`a + b + …`, `f x y …`, `e.a.b…`, the pieces of
 * an interpolated string) are loops here and do not count, however long: their ASTs are deep along the
 * left spine, which the iterative helpers and printers handle; the evaluators report a stack overflow
 * as `StackLimitError`. Chosen so the most stack-hungry construct still fits in Node's default stack
 * with room to spare.
 */
export const MAX_NESTING = 1000;

/** Where the parser read each variable occurrence (the `var` nodes it built), for later diagnostics. */
const OCCURRENCES = new WeakMap<object, { readonly map: SourceMap; readonly offset: number }>();

/**
 * A `ParseError` located at a variable occurrence that `parse` built (line, column, excerpt of its
 * source), or undefined for a node the parser did not build (e.g. one made by substitution).
 * Used for diagnostics found after parsing, like an unbound variable.
 */
export function errorAtOccurrence(node: A.VarE, description: string): ParseError | undefined {
  const at = OCCURRENCES.get(node);
  return at && at.map.error(at.offset, description);
}

/** Source offset of a variable occurrence built by `parse` (for ordering diagnostics), if known. */
export function occurrenceOffset(node: A.VarE): number | undefined {
  return OCCURRENCES.get(node)?.offset;
}

/**
 * Parse a program: optional top-level definitions `let x = e` (no `in`), then a final expression.
 * Throws `ParseError` (and nothing else, for a lawful lattice) on malformed input.
 */
export function parse<L>(source: string, lattice: LabelOps<L>, opts: ParseOptions = {}): Expr<L> {
  return run(source, lattice, opts, (p) => p.program());
}

/** `parse`, with the error returned as a value instead of thrown. */
export function tryParse<L>(source: string, lattice: LabelOps<L>, opts: ParseOptions = {}): ParseResult<L> {
  try {
    return { ok: true, expr: parse(source, lattice, opts) };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e };
    throw e;
  }
}

/**
 * Parse a file of top-level definitions only (e.g. the prelude): the ordered list of
 * `let name = expr` definitions, with no substitution between them. An empty file gives `[]`.
 */
export function parseDefinitions<L>(source: string, lattice: LabelOps<L>, opts: ParseOptions = {}): Definition<L>[] {
  return run(source, lattice, opts, (p) => p.definitionsOnly());
}

function run<L, T>(source: string, lattice: LabelOps<L>, opts: ParseOptions, go: (p: Parser<L>) => T): T {
  const map = new SourceMap(source, opts.file ?? DEFAULT_FILE);
  const parser = new Parser(map, lex(map), lattice);
  try {
    return go(parser);
  } catch (e) {
    // Backstop for callers that are already deep in the stack (e.g. an evaluator parsing a model
    // response): a stack overflow is still a parse error about nesting, never a crash.
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw parser.limitHere(`nesting deeper than the available stack allows (split it with let)`);
    }
    throw e;
  }
}

type Assoc = 'left' | 'right' | 'non';
interface OpInfo {
  readonly prec: number;
  readonly assoc: Assoc;
  readonly build: <L>(a: Expr<L>, b: Expr<L>) => Expr<L>;
}

/** Binary operators: precedence (higher binds tighter) and expansion. `:=` is handled apart. */
const BINARY: ReadonlyMap<string, OpInfo> = new Map<string, OpInfo>([
  ['||', { prec: 2, assoc: 'right', build: logicalOr }],
  ['&&', { prec: 3, assoc: 'right', build: logicalAnd }],
  ['==', { prec: 4, assoc: 'non', build: (a, b) => binop('==', a, b) }],
  ['!=', { prec: 4, assoc: 'non', build: notEqual }],
  ['<', { prec: 4, assoc: 'non', build: (a, b) => binop('<', a, b) }],
  ['>', { prec: 4, assoc: 'non', build: (a, b) => binop('>', a, b) }],
  ['<=', { prec: 4, assoc: 'non', build: (a, b) => binop('<=', a, b) }],
  ['>=', { prec: 4, assoc: 'non', build: (a, b) => binop('>=', a, b) }],
  ['?', { prec: 4, assoc: 'non', build: (a, b) => A.test(a, b) }],
  ...(['+', '-'] as const).map((op): [string, OpInfo] => [op, { prec: 5, assoc: 'left', build: (a, b) => binop(op as BinOp, a, b) }]),
  ...(['*', '/', '%'] as const).map((op): [string, OpInfo] => [op, { prec: 6, assoc: 'left', build: (a, b) => binop(op as BinOp, a, b) }]),
]);

const LOWEST_BINARY = 2;
/** `not e` binds looser than application and tighter than `*`. */
const NOT_PREC = 7;

/** Keywords that start an application-like form with arguments. */
const HEADS: ReadonlySet<string> = new Set(['send', 'fork', 'assert', 'endorse', 'prim']);

/** Keywords that are atoms or start one. */
const ATOM_KEYWORDS: ReadonlySet<string> = new Set(['true', 'false', 'null', 'recv', 'clear', 'str', 'shape']);

/** Tokens that can start an application argument (and so continue an application). */
function startsArgument(t: Token): boolean {
  switch (t.kind) {
    case 'ident': case 'num': case 'str': case 'strStart':
      return true;
    case 'punct':
      return t.text === '(' || t.text === '[' || t.text === '{' || t.text === '@';
    case 'keyword':
      return ATOM_KEYWORDS.has(t.text);
    case 'strMid': case 'strEnd': case 'eof':
      return false;
    default:
      return absurdToken(t);
  }
}

/** Tokens that start an open form (`\x. e`, `let`, `if`), which extends as far right as possible. */
function startsOpen(t: Token): boolean {
  return (t.kind === 'punct' && t.text === '\\') || (t.kind === 'keyword' && (t.text === 'let' || t.text === 'if'));
}

function absurdToken(t: never): never {
  throw new Error(`internal error: unhandled token ${JSON.stringify(t)}`);
}

/** Is an AST built from literals only (so it may be a label literal)? */
function isLiteralData<L>(e: Expr<L>): boolean {
  switch (e.kind) {
    case 'num': case 'str': case 'bool': case 'null':
      return true;
    case 'array':
      return e.elems.every(isLiteralData);
    case 'record':
      return e.fields.every((f) => isLiteralData(f.expr));
    default:
      return false;
  }
}

class Parser<L> {
  private pos = 0;
  /** Index of the token treated as end of input (a top-level definition's fence). */
  private limit: number;
  private depth = 0;

  constructor(
    private readonly map: SourceMap,
    private readonly tokens: readonly Token[],
    private readonly lattice: LabelOps<L>,
  ) {
    this.limit = tokens.length - 1;
  }

  // ---------------------------------------------------------------------------------------------
  // Token access

  /** The token at index `i`, or an end-of-input token at the fence. */
  private tokenAt(i: number): Token {
    const j = Math.min(i, this.limit);
    const t = this.tokens[j] as Token;
    return j === this.limit && t.kind !== 'eof' ? { kind: 'eof', start: t.start, end: t.start, line: t.line, col: t.col } : t;
  }

  private peek(): Token {
    return this.tokenAt(this.pos);
  }

  private peekAt(k: number): Token {
    return this.tokenAt(this.pos + k);
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private isPunct(p: Punct, t: Token = this.peek()): boolean {
    return t.kind === 'punct' && t.text === p;
  }

  private isKeyword(k: string, t: Token = this.peek()): boolean {
    return t.kind === 'keyword' && t.text === k;
  }

  /** How a token reads in an error message. */
  private describe(t: Token): string {
    switch (t.kind) {
      case 'ident':
        return `'${clip(t.text)}'`;
      case 'keyword':
        return `keyword '${t.text}'`;
      case 'num':
        return `'${clip(t.text)}'`;
      case 'str': case 'strStart':
        return `a string`;
      case 'strMid': case 'strEnd':
        return `'}' (the end of a string interpolation)`;
      case 'punct':
        return `'${t.text}'`;
      case 'eof': {
        const real = this.tokens[this.limit];
        if (real && real.kind !== 'eof' && this.pos >= this.limit) {
          return `the next line starting in column 1 (a top-level definition ends there; indent continuation lines)`;
        }
        return 'end of input';
      }
      default:
        return absurdToken(t);
    }
  }

  /** "expected an expression" errors name the token they follow, which is usually the clue. */
  private expectedExpression(t: Token): ParseError {
    const prev = this.pos > 0 ? this.tokens[this.pos - 1] : undefined;
    const after = prev ? ` after ${this.describe(prev)}` : '';
    return this.fail(t, `expected an expression${after}, found ${this.describe(t)}`);
  }

  private fail(t: Token, description: string, kind: ParseErrorKind = 'syntax'): ParseError {
    return this.map.error(t.start, description, kind);
  }

  /** A resource-limit error at the current token (nesting; also the stack-overflow backstop's). */
  limitHere(description: string): ParseError {
    return this.fail(this.peek(), description, 'limit');
  }

  private expectPunct(p: Punct, context: string): Token {
    const t = this.peek();
    if (!this.isPunct(p, t)) throw this.fail(t, `expected '${p}' ${context}, found ${this.describe(t)}`);
    return this.next();
  }

  private expectKeyword(k: string, context: string): Token {
    const t = this.peek();
    if (!this.isKeyword(k, t)) throw this.fail(t, `expected '${k}' ${context}, found ${this.describe(t)}`);
    return this.next();
  }

  private where(t: Token): string {
    return `${t.line}:${t.col}`;
  }

  /** Count one level of nesting; beyond MAX_NESTING the input is rejected, not the stack blown. */
  private enter(): void {
    if (++this.depth > MAX_NESTING) {
      throw this.limitHere(`nesting deeper than ${MAX_NESTING} levels (split it with let)`);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Programs

  program(): Expr<L> {
    const defs: { name: string; expr: Expr<L> }[] = [];
    let body: Expr<L> | undefined;
    while (body === undefined && this.isKeyword('let')) {
      const d = this.topLevelLet();
      if (d.body !== undefined) body = letIn(d.name, d.expr, d.body);
      else defs.push(d);
    }
    if (body === undefined) {
      const t = this.peek();
      if (t.kind === 'eof') {
        throw this.fail(
          t,
          defs.length === 0
            ? 'empty program: expected an expression'
            : 'program has only definitions: it must end with an expression (a file of definitions only, like the prelude, is read with parseDefinitions)',
        );
      }
      body = this.expr();
    }
    this.expectEnd();
    // Each definition scopes over the rest: `let x = e` then R is (λx. R) e.
    for (let i = defs.length - 1; i >= 0; i--) {
      const d = defs[i] as { name: string; expr: Expr<L> };
      body = letIn(d.name, d.expr, body);
    }
    return body;
  }

  definitionsOnly(): Definition<L>[] {
    const defs: Definition<L>[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'eof') return defs;
      if (!this.isKeyword('let', t)) {
        throw this.fail(t, `expected a top-level definition 'let name = expr', found ${this.describe(t)} (this file may contain only definitions)`);
      }
      const d = this.topLevelLet();
      if (d.body !== undefined) {
        throw this.fail(d.inToken ?? t, "a file of definitions may not contain 'let ... in ...' at the top level: write 'let name = expr' only");
      }
      defs.push({ name: d.name, expr: d.expr });
    }
  }

  /**
   * `let x = e` at the top level. Its right-hand side ends at the next token that begins a line in
   * column 1 outside brackets (the fence). If `in` follows instead, it is an ordinary `let … in`
   * whose body runs to the end of the input.
   */
  private topLevelLet(): { name: string; expr: Expr<L>; body?: Expr<L>; inToken?: Token } {
    const letTok = this.next();
    const name = this.binder("'let'");
    this.expectPunct('=', `after 'let ${clip(name)}'`);
    const saved = this.limit;
    this.limit = this.fenceAfter(letTok);
    const expr = this.expr();
    const t = this.peek();
    if (this.isKeyword('in', t)) {
      this.next();
      this.limit = saved;
      return { name, expr, body: this.expr(), inToken: t };
    }
    if (t.kind !== 'eof') {
      throw this.fail(t, `expected 'in' after let binding (or a new line starting in column 1 to end the top-level definition of ${clip(name)}), found ${this.describe(t)}`);
    }
    this.limit = saved;
    return { name, expr };
  }

  /** Index of the first token after `pos` that starts a later line in column 1 at bracket depth 0. */
  private fenceAfter(letTok: Token): number {
    let depth = 0;
    for (let j = this.pos; j < this.limit; j++) {
      const t = this.tokens[j] as Token;
      if (depth === 0 && t.line > letTok.line && t.col === 1) return j;
      if (t.kind === 'strStart' || (t.kind === 'punct' && (t.text === '(' || t.text === '[' || t.text === '{'))) depth++;
      else if (t.kind === 'strEnd' || (t.kind === 'punct' && (t.text === ')' || t.text === ']' || t.text === '}'))) depth = Math.max(0, depth - 1);
    }
    return this.limit;
  }

  private expectEnd(): void {
    const t = this.peek();
    if (t.kind === 'eof') return;
    const hint = this.isKeyword('let', t) ? ' (top-level definitions must all come before the final expression)' : '';
    throw this.fail(t, `expected end of input after the expression, found ${this.describe(t)}${hint}`);
  }

  // ---------------------------------------------------------------------------------------------
  // Expressions, loosest first

  // The descent below is kept to five small frames per nesting level (expr → binary →
  // application → prefix → atom → expr), with rare cases in helpers, to save stack.

  /** A full expression: an open form, or operators with an optional trailing `e.s := e'`. */
  expr(): Expr<L> {
    this.enter();
    let e: Expr<L>;
    if (startsOpen(this.peek())) e = this.open();
    else {
      e = this.binary(LOWEST_BINARY);
      const t = this.peek();
      if (this.isPunct(':=', t)) {
        if (e.kind !== 'field') throw this.fail(t, "the left side of ':=' must be a field access e.s (record update: e.s := e')");
        this.next();
        e = recordUpdate(e.target, e.name, this.expr());
      }
    }
    this.depth--;
    return e;
  }

  /** `\x. e`, `let x = e1 in e2`, `if e1 then e2 else e3`. */
  private open(): Expr<L> {
    const t = this.next();
    if (this.isPunct('\\', t)) {
      const x = this.binder("'\\'");
      this.expectPunct('.', `after the lambda parameter '${clip(x)}'`);
      return A.lam(x, this.expr());
    }
    if (this.isKeyword('let', t)) {
      const x = this.binder("'let'");
      this.expectPunct('=', `after 'let ${clip(x)}'`);
      const rhs = this.expr();
      this.expectKeyword('in', 'after let binding');
      return letIn(x, rhs, this.expr());
    }
    const cond = this.expr();
    this.expectKeyword('then', `after the condition of 'if' (at ${this.where(t)})`);
    const yes = this.expr();
    this.expectKeyword('else', `after the 'then' branch of 'if' (at ${this.where(t)})`);
    return ifThenElse(cond, yes, this.expr());
  }

  private binder(after: string): string {
    const t = this.next();
    if (t.kind === 'ident') return t.text;
    if (t.kind === 'keyword') throw this.fail(t, `'${t.text}' is a reserved word and cannot be a variable name`);
    throw this.fail(t, `expected a variable name after ${after}, found ${this.describe(t)}`);
  }

  /**
   * Pratt loop over `|| && == != < > <= >= ? + - * / %` (table BINARY); `not` is the prefix
   * operator of level NOT_PREC, so `not f x * y` is `(not (f x)) * y`.
   */
  private binary(minPrec: number): Expr<L> {
    let left: Expr<L>;
    if (this.isKeyword('not')) {
      this.next();
      left = logicalNot(this.operand(NOT_PREC));
    } else left = this.application();
    const outer = this.depth;
    for (;;) {
      const t = this.peek();
      const op = t.kind === 'punct' ? BINARY.get(t.text) : undefined;
      if (!op || op.prec < minPrec) {
        this.depth = outer;
        return left;
      }
      this.next();
      // The right operand is one level down (counted by `operand`); the loop itself, a
      // left-associative chain, is not nesting.
      left = op.build(left, this.operand(op.assoc === 'right' ? op.prec : op.prec + 1));
      if (op.assoc === 'non') {
        const u = this.peek();
        if (u.kind === 'punct' && BINARY.get(u.text)?.prec === op.prec) {
          throw this.fail(u, `'${u.text}' cannot follow a comparison or label test directly: comparisons do not chain, add parentheses`);
        }
      }
    }
  }

  /** An operand of a binary operator or `not`: an open form (extending right), or operators of at least `prec`. */
  private operand(prec: number): Expr<L> {
    this.enter();
    const e = startsOpen(this.peek()) ? this.open() : this.binary(prec);
    this.depth--;
    return e;
  }

  /**
   * Application by juxtaposition (left associative), starting with a keyword form (`send e`,
   * `fork e`, `assert e1 e2`, `endorse e1 e2`, `prim "p" e`) or a prefix expression; an open form
   * may be the last argument.
   */
  private application(): Expr<L> {
    const t = this.peek();
    let fn = t.kind === 'keyword' && HEADS.has(t.text) ? this.head(t) : this.prefix();
    const outer = this.depth;
    for (;;) {
      const u = this.peek();
      if (!startsOpen(u) && !startsArgument(u)) {
        this.depth = outer;
        return fn;
      }
      this.enter(); // the argument is one level down; the chain of arguments is a loop, not nesting
      if (startsOpen(u)) {
        fn = A.app(fn, this.openOperand());
        this.depth = outer;
        return fn;
      }
      fn = A.app(fn, this.prefix());
      this.depth = outer;
    }
  }

  private head(t: Token & { kind: 'keyword' }): Expr<L> {
    this.next();
    switch (t.text) {
      case 'send':
        return A.send(this.argument('send e'));
      case 'fork':
        return A.fork(this.argument('fork e'));
      case 'assert':
      case 'endorse': {
        const label = this.argument(`${t.text} LABEL EXPR`);
        const body = this.argument(`${t.text} LABEL EXPR`);
        return t.text === 'assert' ? A.assert(label, body) : A.endorse(label, body);
      }
      case 'prim': {
        const n = this.peek();
        if (n.kind !== 'str') throw this.fail(n, `expected the primitive's name as a plain string literal after 'prim', found ${this.describe(n)}`);
        this.next();
        return A.prim(n.value, this.argument('prim "name" e'));
      }
      default:
        throw new Error(`internal error: '${t.text}' is not in HEADS`);
    }
  }

  /** One argument of a keyword form. */
  private argument(form: string): Expr<L> {
    const t = this.peek();
    if (startsOpen(t)) return this.openOperand();
    if (startsArgument(t) || this.isPunct('-', t)) return this.prefix();
    throw this.fail(t, `missing argument: the form is '${form}', found ${this.describe(t)}`);
  }

  private openOperand(): Expr<L> {
    this.enter();
    const e = this.open();
    this.depth--;
    return e;
  }

  /**
   * `@e`, the label forms `e1:e2`, and the postfix operators `e.s`, `e."s"`, `e.[i]` on an atom.
   * A bare array literal of literals before `:` that the lattice accepts folds to the static label `l:e2`;
   * anything else is the dynamic label. `:` is right associative.
   */
  private prefix(): Expr<L> {
    const first = this.peek();
    if (this.isPunct('@', first)) {
      this.next();
      return ask(this.prefixOperand());
    }
    let expr = this.atom();
    const outer = this.depth;
    while (this.isPunct('.')) {
      this.enter(); // an index expression is one level down; the chain of postfix operators is a loop
      expr = this.postfixOperator(expr);
      this.depth = outer;
    }
    this.depth = outer;
    if (!this.isPunct(':')) return expr;
    this.next();
    return this.label(first, expr, this.prefixOperand());
  }

  private prefixOperand(): Expr<L> {
    this.enter();
    const e = startsOpen(this.peek()) ? this.open() : this.prefix();
    this.depth--;
    return e;
  }

  private label(first: Token, labelExpr: Expr<L>, body: Expr<L>): Expr<L> {
    // Spec §2: only a bare *array* literal folds. Postfix operators change the node's kind, so an
    // array node that began with its own bracket is a bare literal; a parenthesised one began with '('.
    const bare = this.isPunct('[', first) && labelExpr.kind === 'array';
    if (bare && isLiteralData(labelExpr)) {
      const l = this.lattice.toLabel(labelExpr as PlainValue);
      if (l !== undefined) return A.labelled(l, body);
    }
    return A.dynlabel(labelExpr, body);
  }

  /** One `.s`, `."s"` or `.[i]` after `target` (the current token is the `.`). */
  private postfixOperator(target: Expr<L>): Expr<L> {
    this.next();
    const t = this.peek();
    if (t.kind === 'ident' || t.kind === 'keyword') {
      this.next();
      return A.field(target, t.text);
    }
    if (t.kind === 'str') {
      this.next();
      return A.field(target, t.value);
    }
    if (!this.isPunct('[', t)) throw this.fail(t, `expected a field name or '[' after '.', found ${this.describe(t)}`);
    this.next();
    const i = this.expr();
    this.expectPunct(']', `to close '.[' at ${this.where(t)}`);
    return A.index(target, i);
  }

  private atom(): Expr<L> {
    const t = this.peek();
    switch (t.kind) {
      case 'num':
        this.next();
        return A.num(t.value);
      case 'str':
        this.next();
        return A.str(t.value);
      case 'strStart':
        return this.interpolation();
      case 'ident': {
        this.next();
        const x = A.v(t.text);
        OCCURRENCES.set(x, { map: this.map, offset: t.start });
        return x;
      }
      case 'keyword':
        return this.keywordAtom(t);
      case 'punct':
        break;
      case 'strMid': case 'strEnd': case 'eof':
        throw this.expectedExpression(t);
      default:
        return absurdToken(t);
    }
    switch (t.text) {
      case '(': {
        this.next();
        const e = this.expr();
        this.expectPunct(')', `to close '(' at ${this.where(t)}`);
        return e;
      }
      case '[':
        return this.arrayLiteral(t);
      case '{':
        return this.recordLiteral(t);
      case '-':
        return this.negativeNumber(t);
      default:
        throw this.expectedExpression(t);
    }
  }

  private arrayLiteral(t: Token): Expr<L> {
    this.next();
    const elems: Expr<L>[] = [];
    while (!this.isPunct(']')) {
      elems.push(this.expr());
      if (!this.isPunct(',')) break;
      this.next();
    }
    this.expectPunct(']', `to close '[' at ${this.where(t)} (or ',' between elements)`);
    return A.array(elems);
  }

  private recordLiteral(t: Token): Expr<L> {
    this.next();
    const fields: A.Field<Expr<L>>[] = [];
    while (!this.isPunct('}')) {
      const n = this.next();
      let name: string;
      if (n.kind === 'ident' || n.kind === 'keyword') name = n.text;
      else if (n.kind === 'str') name = n.value;
      else throw this.fail(n, `expected a field name (a name or a plain string) in the record at ${this.where(t)}, found ${this.describe(n)}`);
      this.expectPunct(':', `after the field name '${clip(name)}'`);
      fields.push({ name, expr: this.expr() });
      if (!this.isPunct(',')) break;
      this.next();
    }
    this.expectPunct('}', `to close '{' at ${this.where(t)} (or ',' between fields)`);
    return A.record(fields);
  }

  private negativeNumber(t: Token): Expr<L> {
    const n = this.peekAt(1);
    if (n.kind === 'num' && n.start === t.end) {
      this.next();
      this.next();
      return A.num(neg(n.value));
    }
    throw this.fail(t, "'-' here must be the sign of a number written without a space (like -3); there is no unary minus on expressions (write 0 - e)");
  }

  private keywordAtom(t: Token & { kind: 'keyword' }): Expr<L> {
    switch (t.text) {
      case 'true': this.next(); return A.bool(true);
      case 'false': this.next(); return A.bool(false);
      case 'null': this.next(); return A.nul;
      case 'recv': this.next(); return A.recv;
      case 'clear': this.next(); return A.clear;
      case 'str': case 'shape': {
        this.next();
        this.expectPunct('(', `after '${t.text}' (the form is ${t.text}(e))`);
        const e = this.expr();
        this.expectPunct(')', `to close '${t.text}(' at ${this.where(t)}`);
        return A.prim(t.text === 'str' ? 'toStr' : 'shape', e);
      }
      default:
        throw this.expectedExpression(t);
    }
  }

  /** `"a{e}b"` ≜ `"a" + str(e) + "b"`, empty text pieces omitted, nested to the left. */
  private interpolation(): Expr<L> {
    const open = this.next() as Token & { kind: 'strStart' };
    const pieces: (string | Expr<L>)[] = [open.value];
    const outer = this.depth;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'strMid' || t.kind === 'strEnd') {
        throw this.fail(t, "empty interpolation '{}' in a string: write \\{ for a literal brace");
      }
      pieces.push(this.expr());
      const c = this.peek();
      if (c.kind === 'strMid') {
        this.next();
        pieces.push(c.value);
        continue;
      }
      if (c.kind === 'strEnd') {
        this.next();
        pieces.push(c.value);
        this.depth = outer;
        return interpolate(pieces);
      }
      throw this.fail(c, `expected '}' to end the interpolation in the string at ${this.where(open)}, found ${this.describe(c)}`);
    }
  }
}
