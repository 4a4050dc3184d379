/**
 * The LLMbda printers (docs/grammar.md, "Printer guarantees").
 *
 * `print` writes the core AST exactly (derived forms stay expanded: `prim "binop_+" [a, b]`);
 * `prettyPrint` re-sugars the exact shapes the parser produces (`if`, `let`, `@`, operators,
 * `:=`, `str()`, `shape()`) for readable reports. Both round-trip: `parse(print(e))` and
 * `parse(prettyPrint(e))` are structurally equal to `e` (checked by properties/syntax.ts).
 *
 * Parenthesisation is decided by precedence levels: each form has a level, each position asks for
 * a minimum level, and open forms (`\x. e`, `let`, `if`), which extend as far right as possible,
 * are bare only where nothing follows them.
 */
import { denominator, numerator, type Rational } from '../distributions/rational.ts';
import type { LabelOps } from './label-ops.ts';
import { absurd } from '../util/absurd.ts';
import type { Expr, Value } from './ast.ts';
import { BINOPS, type BinOp } from './helpers.ts';
import { isWord } from './lexer.ts';

/** Precedence levels, loosest first (docs/grammar.md, precedence table). */
export const Level = {
  /** Open forms and whole expressions. */
  Top: 0,
  /** `e.s := e'` */
  Assign: 1,
  Or: 2,
  And: 3,
  /** `== != < > <= >= ?` */
  Compare: 4,
  Add: 5,
  Mul: 6,
  /** `not e` */
  Not: 7,
  /** Application and the keyword forms `send e`, `fork e`, `assert`, `endorse`, `prim`. */
  App: 8,
  /** Negative number literals: fine after `:` or `@`, parenthesised as an argument. */
  Negative: 9,
  /** `@e`, `e1:e2`; arguments of application and of the keyword forms. */
  Prefix: 10,
  /** `e.s`, `e.[i]` */
  Postfix: 11,
  Atom: 12,
} as const;

/** One precedence level. */
export type Level = (typeof Level)[keyof typeof Level];

/** How a printer writes: whether it re-sugars, and when it parenthesises. */
export interface PrintStyle {
  /** Re-sugar the derived forms' exact shapes. */
  readonly sugar: boolean;
  /** Break a chain of `let … in` at the top into lines. */
  readonly multiline: boolean;
  /**
   * Does a form of level `level` need parentheses in a position asking for `ctx`? `open` forms
   * extend to the right; `rightOpen` says nothing follows the position before a closing token.
   */
  needsParens(level: Level, ctx: Level, open: boolean, rightOpen: boolean): boolean;
  /** How string contents are quoted (default `showString`); must read back exactly. */
  readonly quote?: (s: string) => string;
}

/**
 * The standard parenthesisation rule shared by both printers: a form needs parentheses when its
 * level is looser than the position's; an open form is bare only at the right end of its context
 * and never as an argument (`f (\x. e)` reads better than the equally valid `f \x. e`).
 */
export function standardNeedsParens(level: Level, ctx: Level, open: boolean, rightOpen: boolean): boolean {
  return open ? !rightOpen || ctx >= Level.Prefix : level < ctx;
}

/** Core syntax, no sugar (`print`). */
export const CORE_STYLE: PrintStyle = { sugar: false, multiline: false, needsParens: standardNeedsParens };
/** Re-sugared, one line (`prettyPrint`). */
export const PRETTY_STYLE: PrintStyle = { sugar: true, multiline: false, needsParens: standardNeedsParens };

/** Options for `prettyPrint`. */
export interface PrettyOptions {
  /** Put each top-level `let x = e in` on its own line (default false: one line). */
  readonly multiline?: boolean;
}

/** The core AST in surface syntax, derived forms expanded; `parse` gives `e` back. */
export function print<L>(e: Expr<L>, lattice: LabelOps<L>): string {
  return printWith(e, lattice, CORE_STYLE);
}

/** `print` on a value `l:v`. */
export function printValue<L>(V: Value<L>, lattice: LabelOps<L>): string {
  return print(V, lattice);
}

/** Surface syntax with the derived forms re-sugared; `parse` gives `e` back. */
export function prettyPrint<L>(e: Expr<L>, lattice: LabelOps<L>, opts: PrettyOptions = {}): string {
  return printWith(e, lattice, opts.multiline ? { ...PRETTY_STYLE, multiline: true } : PRETTY_STYLE);
}

/** Print in a given style (the printers above, or a variant such as a deliberately broken one). */
export function printWith<L>(e: Expr<L>, lattice: LabelOps<L>, style: PrintStyle): string {
  // A labelled scalar `l:k` in the core style — every final value that is a number, string, boolean or null, keyed
  // by its printed form once per outcome (2^N outcomes of a distribution are 2^N prints) — written at once: the
  // label, `:`, the literal, exactly as the Printer writes it (a scalar never needs parentheses after `l:`;
  // test/printer-scalar.test.ts compares the two on generated values).
  if (e.kind === 'label' && style === CORE_STYLE) {
    const k = showScalar(e.body, showString);
    if (k !== undefined) return `${lattice.show(e.label)}:${k}`;
  }
  return new Printer(lattice, style).top(e);
}

/** @internal `printWith` without its shortcut for labelled scalars: the Printer alone (for the tests that compare them). */
export function printWithPrinter<L>(e: Expr<L>, lattice: LabelOps<L>, style: PrintStyle): string {
  return new Printer(lattice, style).top(e);
}

// ---------------------------------------------------------------------------------------------
// Literals

/** A number literal: integer, finite decimal (`0.25`), or `p/q`; negative ones start with `-`. */
export function showNumber(r: Rational): string {
  const n = numerator(r);
  const d = denominator(r);
  if (d === 1n) return n.toString();
  let rest = d;
  let twos = 0;
  let fives = 0;
  while (rest % 2n === 0n) {
    rest /= 2n;
    twos++;
  }
  while (rest % 5n === 0n) {
    rest /= 5n;
    fives++;
  }
  if (rest !== 1n) return `${n}/${d}`;
  const k = Math.max(twos, fives);
  const abs = n < 0n ? -n : n;
  const digits = ((abs * 10n ** BigInt(k)) / d).toString().padStart(k + 1, '0');
  return `${n < 0n ? '-' : ''}${digits.slice(0, -k)}.${digits.slice(-k)}`;
}

/**
 * A scalar literal's text — a number, a string quoted by `quote`, `true`/`false`, `null` — or undefined for any other
 * form. The Printer writes every scalar this way, and so do the shortcuts that skip it (`printWith`, `serialise`).
 */
export function showScalar<L>(e: Expr<L>, quote: (s: string) => string): string | undefined {
  switch (e.kind) {
    case 'num': return showNumber(e.value);
    case 'str': return quote(e.value);
    case 'bool': return e.value ? 'true' : 'false';
    case 'null': return 'null';
    default: return undefined;
  }
}

/** Control characters (U+0000–U+001F, U+007F–U+009F): always written as `\u{hex}`. */
const isControl = (cp: number): boolean => cp < 0x20 || (cp >= 0x7f && cp < 0xa0);

/**
 * A double-quoted string literal with the escapes `\"`, `\\`, `\{`, `\}`, `\n`, `\t`, `\r`, and `\u{hex}`
 * for every code point `hex` selects; everything else is written as itself.
 */
function quoteWith(s: string, hex: (cp: number) => boolean): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '"': out += '\\"'; break;
      case '\\': out += '\\\\'; break;
      case '{': out += '\\{'; break;
      case '}': out += '\\}'; break;
      case '\n': out += '\\n'; break;
      case '\t': out += '\\t'; break;
      case '\r': out += '\\r'; break;
      default: {
        const cp = ch.codePointAt(0) ?? 0;
        out += hex(cp) ? `\\u{${cp.toString(16)}}` : ch;
      }
    }
  }
  return out + '"';
}

/**
 * A string `showString` writes as itself between quotes: no character it escapes (`"`, backslash, `{`, `}`, control
 * characters, U+2028, U+2029) and no surrogate code unit (a paired one is written as itself too, but is left to
 * the general path).
 */
const PLAIN = /^[^"\\{}\u0000-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff]*$/;

/**
 * A double-quoted string literal with escapes, so that it reads back as exactly `s`. Control characters,
 * line separators and lone surrogates are written as `\u{…}` so the output stays on one line and survives
 * any transport.
 */
export function showString(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : quoteWith(s, (cp) => isControl(cp) || cp === 0x2028 || cp === 0x2029 || (cp >= 0xd800 && cp <= 0xdfff));
}

/**
 * A double-quoted string literal with exactly the escapes spec §4 lists for `serialise`: `\"`, `\\`,
 * `\{`, `\}`, `\n`, `\t`, `\r`, and `\u{hex}` for the other control characters (U+0000–U+001F,
 * U+007F–U+009F); everything else, line separators and lone surrogates included, is written as itself.
 */
export function showSpecString(s: string): string {
  return quoteWith(s, isControl);
}

/** A field name: bare when it is a word (keywords included), else a string literal. */
export function showFieldName(name: string): string {
  return isWord(name) ? name : showString(name);
}

// ---------------------------------------------------------------------------------------------
// Re-sugaring: recognisers of the exact shapes built by helpers.ts

type Sugar<L> =
  | { readonly kind: 'ask'; readonly arg: Expr<L> }
  | { readonly kind: 'let'; readonly name: string; readonly rhs: Expr<L>; readonly body: Expr<L> }
  | { readonly kind: 'if'; readonly cond: Expr<L>; readonly yes: Expr<L>; readonly no: Expr<L> }
  | { readonly kind: 'not'; readonly arg: Expr<L> }
  | { readonly kind: 'binary'; readonly op: BinOp | '!=' | '&&' | '||'; readonly left: Expr<L>; readonly right: Expr<L> }
  | { readonly kind: 'update'; readonly target: Expr<L>; readonly name: string; readonly value: Expr<L> }
  | { readonly kind: 'call'; readonly fn: 'str' | 'shape'; readonly arg: Expr<L> };

const isBool = <L>(e: Expr<L>, b: boolean): boolean => e.kind === 'bool' && e.value === b;

function binopArgs<L>(e: Expr<L>): { op: BinOp; left: Expr<L>; right: Expr<L> } | undefined {
  if (e.kind !== 'prim' || !e.name.startsWith('binop_') || e.arg.kind !== 'array' || e.arg.elems.length !== 2) return undefined;
  const op = e.name.slice('binop_'.length) as BinOp;
  if (!BINOPS.includes(op)) return undefined;
  return { op, left: e.arg.elems[0] as Expr<L>, right: e.arg.elems[1] as Expr<L> };
}

function ifShape<L>(e: Expr<L>): { cond: Expr<L>; yes: Expr<L>; no: Expr<L> } | undefined {
  // app(app(app(prim("fromBool", c), λ_. t), λ_. f), {})
  if (e.kind !== 'app' || e.arg.kind !== 'record' || e.arg.fields.length !== 0) return undefined;
  const a2 = e.fn;
  if (a2.kind !== 'app' || a2.arg.kind !== 'lam' || a2.arg.param !== '_') return undefined;
  const a1 = a2.fn;
  if (a1.kind !== 'app' || a1.arg.kind !== 'lam' || a1.arg.param !== '_') return undefined;
  const p = a1.fn;
  if (p.kind !== 'prim' || p.name !== 'fromBool') return undefined;
  return { cond: p.arg, yes: a1.arg.body, no: a2.arg.body };
}

function sugarOf<L>(e: Expr<L>): Sugar<L> | undefined {
  if (e.kind === 'app') {
    const f = e.fn;
    if (f.kind === 'lam' && f.param === '_' && f.body.kind === 'recv' && e.arg.kind === 'send') return { kind: 'ask', arg: e.arg.arg };
    const i = ifShape(e);
    if (i) {
      if (isBool(i.yes, false) && isBool(i.no, true)) {
        const eq = binopArgs(i.cond);
        if (eq && eq.op === '==') return { kind: 'binary', op: '!=', left: eq.left, right: eq.right };
        return { kind: 'not', arg: i.cond };
      }
      if (isBool(i.no, false)) return { kind: 'binary', op: '&&', left: i.cond, right: i.yes };
      if (isBool(i.yes, true)) return { kind: 'binary', op: '||', left: i.cond, right: i.no };
      return { kind: 'if', ...i };
    }
    if (f.kind === 'lam') return { kind: 'let', name: f.param, rhs: e.arg, body: f.body };
    return undefined;
  }
  if (e.kind === 'prim') {
    const b = binopArgs(e);
    if (b) return { kind: 'binary', ...b };
    if (e.name === 'recordUpdate' && e.arg.kind === 'array' && e.arg.elems.length === 3) {
      const [target, name, value] = e.arg.elems as [Expr<L>, Expr<L>, Expr<L>];
      if (name.kind === 'str') return { kind: 'update', target, name: name.value, value };
    }
    if (e.name === 'toStr') return { kind: 'call', fn: 'str', arg: e.arg };
    if (e.name === 'shape') return { kind: 'call', fn: 'shape', arg: e.arg };
  }
  return undefined;
}

/** Level and associativity of the binary operators (as parsed by parser.ts's table). */
const BINARY_LEVEL: Readonly<Record<BinOp | '!=' | '&&' | '||', { level: Level; assoc: 'left' | 'right' | 'non' }>> = {
  '||': { level: Level.Or, assoc: 'right' },
  '&&': { level: Level.And, assoc: 'right' },
  '==': { level: Level.Compare, assoc: 'non' },
  '!=': { level: Level.Compare, assoc: 'non' },
  '<': { level: Level.Compare, assoc: 'non' },
  '>': { level: Level.Compare, assoc: 'non' },
  '<=': { level: Level.Compare, assoc: 'non' },
  '>=': { level: Level.Compare, assoc: 'non' },
  '+': { level: Level.Add, assoc: 'left' },
  '-': { level: Level.Add, assoc: 'left' },
  '*': { level: Level.Mul, assoc: 'left' },
  '/': { level: Level.Mul, assoc: 'left' },
  '%': { level: Level.Mul, assoc: 'left' },
};

// ---------------------------------------------------------------------------------------------

/** A piece of output: literal text, or a subterm still to print in a position. */
type Part<L> = string | Task<L>;
interface Task<L> {
  readonly e: Expr<L>;
  /** The level the position asks for. */
  readonly ctx: Level;
  /** Nothing follows the position before a closing token or the end. */
  readonly rightOpen: boolean;
}

const task = <L>(e: Expr<L>, ctx: Level, rightOpen: boolean): Task<L> => ({ e, ctx, rightOpen });

/** Writes text from a stack of parts (no recursion, so any depth prints). */
class Printer<L> {
  private readonly quote: (s: string) => string;

  constructor(
    private readonly lattice: LabelOps<L>,
    private readonly style: PrintStyle,
  ) {
    this.quote = style.quote ?? showString;
  }

  /** A field name: bare when it is a word, else quoted. */
  private field(name: string): string {
    return isWord(name) ? name : this.quote(name);
  }

  top(e: Expr<L>): string {
    if (!this.style.multiline) return this.render(e);
    let out = '';
    let rest = e;
    for (let s = sugarOf(rest); s?.kind === 'let'; s = sugarOf(rest)) {
      out += `let ${s.name} = ${this.render(s.rhs)} in\n`;
      rest = s.body;
    }
    return out + this.render(rest);
  }

  private render(e: Expr<L>): string {
    const out: string[] = [];
    const stack: Part<L>[] = [task(e, Level.Top, true)];
    for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
      if (typeof p === 'string') {
        out.push(p);
        continue;
      }
      const sugar = this.style.sugar ? sugarOf(p.e) : undefined;
      const { level, open } = sugar ? sugarLevel(sugar) : coreLevel(p.e);
      const parens = this.style.needsParens(level, p.ctx, open, p.rightOpen);
      // Inside parentheses nothing follows before ')'.
      const inner = parens || p.rightOpen;
      const parts = sugar ? this.sugarParts(sugar, inner) : this.coreParts(p.e, inner);
      if (parens) stack.push(')');
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i] as Part<L>);
      if (parens) stack.push('(');
    }
    return out.join('');
  }

  private coreParts(e: Expr<L>, rightOpen: boolean): Part<L>[] {
    switch (e.kind) {
      case 'var':
        return [e.name];
      case 'lam':
        return [`\\${e.param}. `, task(e.body, Level.Top, true)];
      case 'app':
        return [task(e.fn, Level.App, false), ' ', task(e.arg, Level.Prefix, rightOpen)];
      case 'send':
        return ['send ', task(e.arg, Level.Prefix, rightOpen)];
      case 'recv':
        return ['recv'];
      case 'fork':
        return ['fork ', task(e.body, Level.Prefix, rightOpen)];
      case 'clear':
        return ['clear'];
      case 'label':
        return [`${this.lattice.show(e.label)}:`, task(e.body, Level.Negative, rightOpen)];
      case 'dynlabel': {
        const body = task(e.body, Level.Negative, rightOpen);
        // A bare array/record literal before ':' would fold to a static label: keep it dynamic.
        if (e.label.kind === 'array' || e.label.kind === 'record') return ['(', task(e.label, Level.Top, true), '):', body];
        return [task(e.label, Level.Postfix, false), ':', body];
      }
      case 'test':
        return [task(e.label, Level.Add, false), ' ? ', task(e.body, Level.Add, rightOpen)];
      case 'assert': case 'endorse':
        return [`${e.kind} `, task(e.label, Level.Prefix, false), ' ', task(e.body, Level.Prefix, rightOpen)];
      case 'num': case 'str': case 'bool': case 'null':
        return [showScalar(e, this.quote)!];
      case 'prim':
        return [`prim ${this.quote(e.name)} `, task(e.arg, Level.Prefix, rightOpen)];
      case 'record': {
        const parts: Part<L>[] = ['{'];
        e.fields.forEach((f, i) => parts.push(i === 0 ? '' : ', ', `${this.field(f.name)}: `, task(f.expr, Level.Top, true)));
        parts.push('}');
        return parts;
      }
      case 'array': {
        const parts: Part<L>[] = ['['];
        e.elems.forEach((x, i) => parts.push(i === 0 ? '' : ', ', task(x, Level.Top, true)));
        parts.push(']');
        return parts;
      }
      case 'field':
        return [task(e.target, Level.Postfix, false), `.${this.field(e.name)}`];
      case 'index':
        return [task(e.target, Level.Postfix, false), '.[', task(e.index, Level.Top, true), ']'];
      default:
        return absurd(e);
    }
  }

  private sugarParts(s: Sugar<L>, rightOpen: boolean): Part<L>[] {
    switch (s.kind) {
      case 'ask':
        return ['@', task(s.arg, Level.Negative, rightOpen)];
      case 'let':
        return [`let ${s.name} = `, task(s.rhs, Level.Top, true), ' in ', task(s.body, Level.Top, true)];
      case 'if':
        return ['if ', task(s.cond, Level.Top, true), ' then ', task(s.yes, Level.Top, true), ' else ', task(s.no, Level.Top, true)];
      case 'not':
        return ['not ', task(s.arg, Level.Not, rightOpen)];
      case 'binary': {
        const { level, assoc } = BINARY_LEVEL[s.op];
        const tighter = (level + 1) as Level;
        return [
          task(s.left, assoc === 'left' ? level : tighter, false),
          ` ${s.op} `,
          task(s.right, assoc === 'right' ? level : tighter, rightOpen),
        ];
      }
      case 'update':
        return [task(s.target, Level.Postfix, false), `.${this.field(s.name)} := `, task(s.value, Level.Assign, rightOpen)];
      case 'call':
        return [`${s.fn}(`, task(s.arg, Level.Top, true), ')'];
      default:
        return absurd(s);
    }
  }
}

function coreLevel<L>(e: Expr<L>): { level: Level; open: boolean } {
  switch (e.kind) {
    case 'lam':
      return { level: Level.Top, open: true };
    case 'test':
      return { level: Level.Compare, open: false };
    case 'app': case 'send': case 'fork': case 'assert': case 'endorse': case 'prim':
      return { level: Level.App, open: false };
    case 'num':
      return { level: numerator(e.value) < 0n ? Level.Negative : Level.Atom, open: false };
    case 'label': case 'dynlabel':
      return { level: Level.Prefix, open: false };
    case 'field': case 'index':
      return { level: Level.Postfix, open: false };
    case 'var': case 'recv': case 'clear': case 'str': case 'bool': case 'null': case 'record': case 'array':
      return { level: Level.Atom, open: false };
    default:
      return absurd(e);
  }
}

function sugarLevel<L>(s: Sugar<L>): { level: Level; open: boolean } {
  switch (s.kind) {
    case 'let': case 'if':
      return { level: Level.Top, open: true };
    case 'ask':
      return { level: Level.Prefix, open: false };
    case 'not':
      return { level: Level.Not, open: false };
    case 'binary':
      return { level: BINARY_LEVEL[s.op].level, open: false };
    case 'update':
      return { level: Level.Assign, open: false };
    case 'call':
      return { level: Level.Atom, open: false };
    default:
      return absurd(s);
  }
}
