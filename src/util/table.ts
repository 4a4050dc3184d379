/** Plain-text tables for terminal output (columns padded to the widest cell). */

/** ANSI escape sequences (colours) take no room on screen. */
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** The width of a cell as shown: code points, colour escapes not counted. */
export function visibleWidth(s: string): number {
  return [...s.replace(ANSI, '')].length;
}

/** Render rows under a header with a rule; cells are padded, never truncated. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const width = visibleWidth;
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => c + ' '.repeat(Math.max(0, widths[i]! - width(c)))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
