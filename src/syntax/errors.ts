/**
 * Parse errors: the only exception the lexer and parser throw (bad user input, spec §2).
 *
 * The message is what the CLI prints: `file:line:column: description`, then the offending source
 * line and a caret under the column, so a user can find the mistake without a stack trace. Input past a
 * resource limit (nesting too deep) gets one line instead, with a short excerpt inline.
 */
import { UserError } from '../util/absurd.ts';

/** Where a parse error is, in human terms (1-based line and column; columns count code points). */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** File name used in messages when the caller gives none. */
export const DEFAULT_FILE = '<input>';

/** A syntax error in LLMbda source: position, one-line description, and a caret excerpt in `message`. */
export class ParseError extends UserError {
  /** The source file name (or `<input>`). */
  readonly file: string;
  /** 1-based line of the error. */
  readonly line: number;
  /** 1-based column (in code points) of the error. */
  readonly column: number;
  /** The one-line description, without position or excerpt (control characters escaped, length capped). */
  readonly description: string;
  /** The text of the offending line (without its line break), in full; `message` quotes only a window of it. */
  readonly sourceLine: string;

  /**
   * `syntax`: a mistake in the program (three lines: header, excerpt, caret). `limit`: the input is beyond a
   * resource limit (nesting too deep): one line with a short inline excerpt, since such input is usually
   * generated and its lines huge.
   */
  readonly kind: ParseErrorKind;

  constructor(pos: SourcePosition, description: string, sourceLine: string, kind: ParseErrorKind = 'syntax') {
    const safe = safeDescription(description);
    super(kind === 'limit' ? formatLimitError(pos, safe, sourceLine) : formatParseError(pos, safe, sourceLine));
    this.kind = kind;
    this.file = pos.file;
    this.line = pos.line;
    this.column = pos.column;
    this.description = safe;
    this.sourceLine = sourceLine;
  }
}

/** What a parse error is about: a mistake in the program, or a resource limit of the parser. */
export type ParseErrorKind = 'syntax' | 'limit';

/** Code points of the source line quoted before the caret, at most. */
export const EXCERPT_BEFORE = 50;
/** Code points of the source line quoted from the caret on, at most. */
export const EXCERPT_AFTER = 50;
/** Longest description kept (code points); longer ones are cut with `…`. */
export const MAX_DESCRIPTION = 200;

/**
 * How one code point of user text is shown in a message: itself, or `\u{HEX}` when it could
 * disturb a terminal or hide text — control characters (tab excepted), DEL and C1 controls, line and
 * paragraph separators, bidirectional overrides and isolates, lone surrogates.
 */
export function displayCodePoint(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const unsafe =
    (cp < 0x20 && cp !== 0x09) || (cp >= 0x7f && cp < 0xa0) || cp === 0x2028 || cp === 0x2029 ||
    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xd800 && cp <= 0xdfff);
  return unsafe ? `\\u{${cp.toString(16)}}` : ch;
}

/** User text made safe to print on one line (`displayCodePoint` on every code point). */
export function displayText(s: string): string {
  let out = '';
  for (const ch of s) out += displayCodePoint(ch);
  return out;
}

/** User text quoted inside a description: at most `max` code points, cut with `…`. */
export function clip(text: string, max = 40): string {
  let out = '';
  let n = 0;
  for (const ch of text) {
    if (++n > max) return `${out}…`;
    out += ch;
  }
  return out;
}

/** A description as it is printed: one line, control characters escaped, at most MAX_DESCRIPTION code points. */
function safeDescription(description: string): string {
  let out = '';
  let n = 0;
  for (const ch of description) {
    if (++n > MAX_DESCRIPTION) return `${out}…`;
    out += displayCodePoint(ch);
  }
  return out;
}

/** UTF-16 index after moving `count` code points forwards (positive) or backwards (negative) from `i`. */
function moveCodePoints(s: string, i: number, count: number): number {
  const isLow = (k: number): boolean => { const c = s.charCodeAt(k); return c >= 0xdc00 && c <= 0xdfff; };
  const isHigh = (k: number): boolean => { const c = s.charCodeAt(k); return c >= 0xd800 && c <= 0xdbff; };
  for (; count > 0 && i < s.length; count--) i += isHigh(i) && isLow(i + 1) ? 2 : 1;
  for (; count < 0 && i > 0; count++) i -= isLow(i - 1) && isHigh(i - 2) ? 2 : 1;
  return i;
}

/**
 * The full message: header, a window of the source line (at most EXCERPT_BEFORE code points before
 * the column and EXCERPT_AFTER from it, cut ends marked `…`, unsafe characters escaped) indented by
 * two spaces, and a caret under the column. Tabs before the column are kept in the caret line so the
 * caret lines up in a terminal. The message's size is bounded whatever the line's length.
 */
export function formatParseError(pos: SourcePosition, description: string, sourceLine: string): string {
  const at = moveCodePoints(sourceLine, 0, pos.column - 1);
  const from = moveCodePoints(sourceLine, at, -EXCERPT_BEFORE);
  const to = moveCodePoints(sourceLine, at, EXCERPT_AFTER);
  const before = displayText(sourceLine.slice(from, at));
  const pad = Array.from(before).map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
  const open = from > 0 ? '…' : '';
  const close = to < sourceLine.length ? '…' : '';
  return `${pos.file}:${pos.line}:${pos.column}: ${description}\n  ${open}${before}${displayText(sourceLine.slice(at, to))}${close}\n  ${open ? ' ' : ''}${pad}^`;
}

/** Code points quoted on each side of the column in a resource-limit error's inline excerpt (60 in all). */
export const LIMIT_EXCERPT = 30;

/**
 * The one-line message of a resource-limit error: `file:line:column: description, near: …excerpt…`, the excerpt
 * at most LIMIT_EXCERPT code points on each side of the column (escaped, cut ends marked `…`). 1M nested
 * parentheses give about 160 bytes.
 */
export function formatLimitError(pos: SourcePosition, description: string, sourceLine: string): string {
  const at = moveCodePoints(sourceLine, 0, pos.column - 1);
  const from = moveCodePoints(sourceLine, at, -LIMIT_EXCERPT);
  const to = moveCodePoints(sourceLine, at, LIMIT_EXCERPT);
  const excerpt = `${from > 0 ? '…' : ''}${displayText(sourceLine.slice(from, to))}${to < sourceLine.length ? '…' : ''}`;
  return `${pos.file}:${pos.line}:${pos.column}: ${description}${excerpt.trim() === '' ? '' : `, near: ${excerpt}`}`;
}

/**
 * Maps UTF-16 offsets of one source text to lines and columns. Built once per parse; lookups are
 * a binary search over line starts.
 */
export class SourceMap {
  private readonly lineStarts: number[] = [0];

  constructor(
    readonly source: string,
    readonly file: string = DEFAULT_FILE,
  ) {
    for (let i = 0; i < source.length; i++) {
      if (source.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
  }

  /** 1-based line of an offset. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** 1-based column (in code points) of an offset. */
  columnOf(offset: number): number {
    const start = this.lineStarts[this.lineOf(offset) - 1] ?? 0;
    let col = 1;
    for (let i = start; i < offset; i++) {
      const c = this.source.charCodeAt(i);
      // A surrogate pair is one code point: count its high half only.
      const d = this.source.charCodeAt(i + 1);
      if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff && i + 1 < offset) i++;
      col++;
    }
    return col;
  }

  /** The text of a 1-based line, without its line break (and without a trailing `\r`). */
  lineText(line: number): string {
    const start = this.lineStarts[line - 1] ?? this.source.length;
    const next = this.lineStarts[line];
    const end = next === undefined ? this.source.length : next - 1;
    const text = this.source.slice(start, end);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /** A `ParseError` at an offset. */
  error(offset: number, description: string, kind: ParseErrorKind = 'syntax'): ParseError {
    const line = this.lineOf(offset);
    return new ParseError({ file: this.file, line, column: this.columnOf(offset) }, description, this.lineText(line), kind);
  }
}
