/**
 * Reporters: one report document (document.ts, schema docs/schema/report.schema.json) rendered as text,
 * JSON, JUnit XML or GitHub annotations. A new reporter is a function `(doc) => string` added here.
 */
import { UserError, absurd } from '../util/absurd.ts';
import type { ReportDocument } from './document.ts';
import { renderJunit } from './junit.ts';
import { renderGithub } from './github.ts';

export * from './document.ts';
export { renderJunit, xmlEscape } from './junit.ts';
export { renderGithub, escapeData, escapeProperty } from './github.ts';

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
