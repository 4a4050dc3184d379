/**
 * The LLMbda lexer (docs/grammar.md, "Lexical rules"). Iterative, so any input lexes in linear time
 * without deep recursion; its only exception is `ParseError`.
 *
 * Interpolated strings `"a{e}b"` are split into `strStart "a"`, the tokens of `e`, `strEnd "b"`
 * (with `strMid` pieces between consecutive interpolations), so the parser sees ordinary tokens.
 */
import { rat, type Rational } from '../distributions/rational.ts';
import { clip, type SourceMap } from './errors.ts';

/** Reserved words: never variable names (they may still be record field names). */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'let', 'in', 'if', 'then', 'else', 'true', 'false', 'null', 'not',
  'send', 'recv', 'fork', 'clear', 'assert', 'endorse', 'prim', 'str', 'shape',
]);

/** Punctuation and operators (read by `punctuationAt`, two-character ones first). */
export const PUNCTUATION = [
  ':=', '==', '!=', '<=', '>=', '&&', '||',
  '(', ')', '[', ']', '{', '}', ',', ':', '.', '?', '@', '\\', '=',
  '+', '-', '*', '/', '%', '<', '>',
] as const;

/** One punctuation or operator token text. */
export type Punct = (typeof PUNCTUATION)[number];

interface TokenBase {
  /** UTF-16 offset of the first character. */
  readonly start: number;
  /** UTF-16 offset just past the last character. */
  readonly end: number;
  /** 1-based line and column (code points) of `start`. */
  readonly line: number;
  readonly col: number;
}

/** A lexical token. String pieces carry their decoded text. */
export type Token =
  | (TokenBase & { readonly kind: 'ident'; readonly text: string })
  | (TokenBase & { readonly kind: 'keyword'; readonly text: string })
  | (TokenBase & { readonly kind: 'num'; readonly value: Rational; readonly text: string })
  /** A whole string literal without interpolation (either quote style). */
  | (TokenBase & { readonly kind: 'str'; readonly value: string })
  /** `"text{` : the first piece of an interpolated string. */
  | (TokenBase & { readonly kind: 'strStart'; readonly value: string })
  /** `}text{` : a piece between two interpolations. */
  | (TokenBase & { readonly kind: 'strMid'; readonly value: string })
  /** `}text"` : the last piece of an interpolated string. */
  | (TokenBase & { readonly kind: 'strEnd'; readonly value: string })
  | (TokenBase & { readonly kind: 'punct'; readonly text: Punct })
  | (TokenBase & { readonly kind: 'eof' });

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);

/** Escapes of double-quoted strings (besides `\u{hex}`), mapped to the character they denote. */
const DOUBLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"', '\\': '\\', n: '\n', t: '\t', r: '\r', '{': '{', '}': '}',
};

/** Is `name` usable as a variable name (an identifier that is not a keyword)? */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name);
}

/** Is `name` a word the lexer reads as one token (identifier or keyword)? Such field names print bare. */
export function isWord(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/**
 * Split source text into tokens, ending with one `eof` token placed just after the last real token
 * (so "found end of input" errors point at the end of the program, not at trailing blank lines).
 */
export function lex(map: SourceMap): Token[] {
  return new Lexer(map).run();
}

/** Punctuation by first character: the one- and two-character tokens it can start. */
function punctuationAt(src: string, i: number): Punct | undefined {
  const c = src[i];
  const d = src[i + 1];
  switch (c) {
    case ':': return d === '=' ? ':=' : ':';
    case '=': return d === '=' ? '==' : '=';
    case '!': return d === '=' ? '!=' : undefined;
    case '<': return d === '=' ? '<=' : '<';
    case '>': return d === '=' ? '>=' : '>';
    case '&': return d === '&' ? '&&' : undefined;
    case '|': return d === '|' ? '||' : undefined;
    case '(': case ')': case '[': case ']': case '{': case '}': case ',': case '.': case '?': case '@': case '\\':
    case '+': case '-': case '*': case '/': case '%':
      return c;
    default:
      return undefined;
  }
}

class Lexer {
  private readonly src: string;
  private readonly tokens: Token[] = [];
  /** One entry per open interpolation: the brace depth inside it, and where its string began. */
  private readonly interp: { depth: number; stringStart: number }[] = [];
  private i = 0;
  private line = 1;
  private col = 1;

  constructor(private readonly map: SourceMap) {
    this.src = map.source;
  }

  run(): Token[] {
    const { src, tokens } = this;
    // Where the last token ended: the position of the final eof token.
    let endAt = 0;
    let endLine = 1;
    let endCol = 1;
    while (this.i < src.length) {
      const c = src.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) {
        this.advance();
        continue;
      }
      if (c === 35 /* # */) {
        while (this.i < src.length && src.charCodeAt(this.i) !== 10) this.advance();
        continue;
      }
      this.token(c);
      endAt = this.i;
      endLine = this.line;
      endCol = this.col;
    }
    const open = this.interp[this.interp.length - 1];
    if (open) throw this.map.error(open.stringStart, 'unterminated string interpolation (missing } and closing ")');
    tokens.push({ kind: 'eof', start: endAt, end: endAt, line: endLine, col: endCol });
    return tokens;
  }

  private advance(): void {
    const c = this.src.charCodeAt(this.i);
    const d = this.src.charCodeAt(this.i + 1);
    // A surrogate pair is one code point, one column; a lone surrogate is one unit like any other.
    this.i += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    if (c === 10) {
      this.line++;
      this.col = 1;
    } else this.col++;
  }

  /** Lex one token starting with character code `c` at the current position. */
  private token(c: number): void {
    const { src, tokens } = this;
    const start = this.i;
    const line = this.line;
    const col = this.col;
    if (isIdentStart(c)) {
      while (this.i < src.length && isIdentPart(src.charCodeAt(this.i))) this.advance();
      const text = src.slice(start, this.i);
      tokens.push({ kind: KEYWORDS.has(text) ? 'keyword' : 'ident', text, start, end: this.i, line, col });
      return;
    }
    if (isDigit(c)) {
      tokens.push(this.number(start, line, col));
      return;
    }
    if (c === 34 /* " */) {
      this.advance();
      this.stringPiece(start, line, col, true, start);
      return;
    }
    if (c === 39 /* ' */) {
      this.advance();
      tokens.push({ kind: 'str', value: this.rawString(start), start, end: this.i, line, col });
      return;
    }
    if (c === 0x3bb /* λ */) {
      this.advance();
      tokens.push({ kind: 'punct', text: '\\', start, end: this.i, line, col });
      return;
    }
    const top = this.interp[this.interp.length - 1];
    if (c === 123 /* { */ && top) top.depth++;
    if (c === 125 /* } */ && top) {
      if (top.depth === 0) {
        // Closes an interpolation: the string continues.
        this.interp.pop();
        this.advance();
        this.stringPiece(start, line, col, false, top.stringStart);
        return;
      }
      top.depth--;
    }
    const p = punctuationAt(src, this.i);
    if (p !== undefined) {
      for (let k = 0; k < p.length; k++) this.advance();
      tokens.push({ kind: 'punct', text: p, start, end: this.i, line, col });
      return;
    }
    const bad = String.fromCodePoint(src.codePointAt(this.i) ?? 0);
    const shown = /[\x21-\x7e]/.test(bad) ? `'${bad}'` : `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw this.map.error(this.i, `unexpected character ${shown}`);
  }

  /** A single-quoted raw string after its opening quote: only \' and \\ are escapes. */
  private rawString(start: number): string {
    const src = this.src;
    let text = '';
    let from = this.i;
    for (;;) {
      if (this.i >= src.length) throw this.map.error(start, "unterminated string literal (missing closing ')");
      const ch = src[this.i];
      if (ch === "'") {
        text += src.slice(from, this.i);
        this.advance();
        return text;
      }
      if (ch === '\\' && (src[this.i + 1] === "'" || src[this.i + 1] === '\\')) {
        text += src.slice(from, this.i);
        this.advance();
        from = this.i;
      }
      this.advance();
    }
  }

  /**
   * The body of a double-quoted string from the current position (just after `"`, or after the
   * `}` closing an interpolation) up to and including the closing `"` or the `{` opening an interpolation.
   */
  private stringPiece(start: number, line: number, col: number, first: boolean, stringStart: number): void {
    const src = this.src;
    let text = '';
    let from = this.i;
    for (;;) {
      if (this.i >= src.length) throw this.map.error(stringStart, 'unterminated string literal (missing closing ")');
      const ch = src[this.i];
      if (ch === '"' || ch === '{') {
        text += src.slice(from, this.i);
        this.advance();
        const kind = ch === '"' ? (first ? 'str' : 'strEnd') : first ? 'strStart' : 'strMid';
        this.tokens.push({ kind, value: text, start, end: this.i, line, col });
        if (ch === '{') this.interp.push({ depth: 0, stringStart });
        return;
      }
      if (ch !== '\\') {
        this.advance();
        continue;
      }
      text += src.slice(from, this.i);
      text += this.escape(stringStart);
      from = this.i;
    }
  }

  /** One escape sequence of a double-quoted string (the current character is the backslash). */
  private escape(stringStart: number): string {
    const src = this.src;
    const escAt = this.i;
    this.advance();
    if (this.i >= src.length) throw this.map.error(stringStart, 'unterminated string literal (missing closing ")');
    const e = String.fromCodePoint(src.codePointAt(this.i) ?? 0);
    const simple = DOUBLE_ESCAPES[e];
    if (simple !== undefined) {
      this.advance();
      return simple;
    }
    if (e === 'u') {
      this.advance();
      const m = /^\{([0-9A-Fa-f]{1,6})\}/.exec(src.slice(this.i, this.i + 8));
      const cp = m ? parseInt(m[1] as string, 16) : -1;
      if (!m || cp > 0x10ffff) {
        throw this.map.error(escAt, 'bad unicode escape: write \\u{HEX} with 1 to 6 hex digits (at most 10FFFF)');
      }
      for (let k = 0; k < m[0].length; k++) this.advance();
      return String.fromCodePoint(cp);
    }
    throw this.map.error(escAt, `unknown escape '\\${e}' in a double-quoted string (known: \\" \\\\ \\n \\t \\r \\{ \\} \\u{HEX})`);
  }

  /**
   * A number literal: `INT`, `INT.DIGITS` (exact decimal) or `INT/INT` with no spaces (an exact
   * rational, so the printer can write any rational). Anything with spaces around `/` is division.
   */
  private number(start: number, line: number, col: number): Token {
    const src = this.src;
    const digits = (): string => {
      const from = this.i;
      while (this.i < src.length && isDigit(src.charCodeAt(this.i))) this.advance();
      return src.slice(from, this.i);
    };
    const whole = digits();
    let value: Rational;
    if (src[this.i] === '.' && isDigit(src.charCodeAt(this.i + 1))) {
      this.advance();
      const frac = digits();
      value = rat(BigInt(whole + frac), 10n ** BigInt(frac.length));
    } else if (src[this.i] === '/' && isDigit(src.charCodeAt(this.i + 1))) {
      this.advance();
      const den = BigInt(digits());
      if (den === 0n) throw this.map.error(start, `invalid rational literal '${clip(src.slice(start, this.i))}': the denominator is zero`);
      value = rat(BigInt(whole), den);
    } else value = rat(BigInt(whole));
    if (this.i < src.length && isIdentStart(src.charCodeAt(this.i))) {
      let end = this.i;
      while (end < src.length && isIdentPart(src.charCodeAt(end))) end++;
      throw this.map.error(start, `invalid number literal '${clip(src.slice(start, end))}': a number cannot run into a name`);
    }
    return { kind: 'num', value, text: src.slice(start, this.i), start, end: this.i, line, col };
  }
}
