/**
 * Parse errors: the only exception the lexer and parser throw (bad user input, spec §2).
 *
 * The message is what the CLI prints: `file:line:column: description`, then the offending source
 * line and a caret under the column, so a user can find the mistake without a stack trace.
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
  /** The one-line description, without position or excerpt. */
  readonly description: string;
  /** The text of the offending line (without its line break). */
  readonly sourceLine: string;

  constructor(pos: SourcePosition, description: string, sourceLine: string) {
    super(formatParseError(pos, description, sourceLine));
    this.file = pos.file;
    this.line = pos.line;
    this.column = pos.column;
    this.description = description;
    this.sourceLine = sourceLine;
  }
}

/**
 * The full message: header, the source line indented by two spaces, and a caret under the column.
 * Tabs before the column are kept in the caret line so the caret lines up in a terminal.
 */
export function formatParseError(pos: SourcePosition, description: string, sourceLine: string): string {
  const before = Array.from(sourceLine).slice(0, pos.column - 1);
  const pad = before.map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
  return `${pos.file}:${pos.line}:${pos.column}: ${description}\n  ${sourceLine}\n  ${pad}^`;
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
    return Array.from(this.source.slice(start, offset)).length + 1;
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
  error(offset: number, description: string): ParseError {
    const line = this.lineOf(offset);
    return new ParseError({ file: this.file, line, column: this.columnOf(offset) }, description, this.lineText(line));
  }
}
