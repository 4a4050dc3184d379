/**
 * Reporters: one report document (document.ts, schema docs/schema/report.schema.json) rendered as text,
 * JSON, JUnit XML or GitHub annotations. A new reporter is a function `(doc) => string` added here.
 */
import { UserError, absurd } from '../util/absurd.ts';
import type { ReportDocument } from './document.ts';
import { renderJunit } from './junit.ts';
import { renderGithub } from './github.ts';
import { renderHtml } from './html.ts';
import { writeFileAtomic } from '../util/atomic-write.ts';
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export * from './document.ts';
export { renderJunit, xmlEscape } from './junit.ts';
export { renderGithub, escapeData, escapeProperty } from './github.ts';
export { renderHtml, htmlEscape, barPercent } from './html.ts';

export const REPORTERS = ['text', 'json', 'junit', 'github'] as const;
export type Reporter = (typeof REPORTERS)[number];

/** Parse a `--reporter` value. */
export function reporterFlag(v: string): Reporter {
  if (!(REPORTERS as readonly string[]).includes(v)) throw new UserError(`--reporter must be one of ${REPORTERS.join(', ')}, got ${JSON.stringify(v)}`);
  return v as Reporter;
}

/** The ASCII bars of the observed-distribution tables (20 cells of `#` and `.`), which the JSON leaves out. */
const BARS = / [#.]{20}(?= )/g;

/** The document with the bars cut out of its human texts (the exact fractions beside them stay). */
export function withoutBars(d: ReportDocument): ReportDocument {
  return { ...d, text: d.text.replace(BARS, ''), cases: d.cases.map((c) => ({ ...c, message: c.message.replace(BARS, '') })) };
}

/** Render a document with a reporter. */
export function render(d: ReportDocument, reporter: Reporter): string {
  switch (reporter) {
    case 'text': return `${d.text}\n`;
    case 'json': return `${JSON.stringify(withoutBars(d), null, 2)}\n`;
    case 'junit': return renderJunit(d);
    case 'github': return renderGithub(d);
    default: return absurd(reporter);
  }
}

/** `--html FILE`: write the document as one self-contained HTML page (write failures are the user's: one line). */
export function writeHtml(file: string, d: ReportDocument): void {
  if (file.trim() === '') throw new UserError('--html needs a file name');
  const dir = dirname(file);
  if (!existsSync(dir)) throw new UserError(`--html ${file}: the folder ${dir} does not exist`);
  if (existsSync(file) && statSync(file).isDirectory()) throw new UserError(`--html ${file}: is a folder, not a file`);
  writeFileAtomic(file, renderHtml(d));
}
