/**
 * GitHub Actions workflow commands: the text report, then one `::error` annotation per failed case (the
 * title names the case, the message is its readable report; a replayed corpus entry is annotated on its
 * file) and a `::notice` with the summary.
 */
import type { ReportDocument } from './document.ts';
import { caseName } from './junit.ts';

/** Escape the message of a workflow command. */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Escape a property value of a workflow command. */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function renderGithub(d: ReportDocument): string {
  const lines = [d.text, ''];
  for (const c of d.cases) {
    if (c.result === 'passed') continue;
    const title = `llmbda ${d.command}: ${caseName(c, d.command)} ${c.verdict === c.expected ? 'did not behave as expected' : c.verdict.toUpperCase()}`;
    const props = [...(c.file ? [`file=${escapeProperty(c.file)}`] : []), `title=${escapeProperty(title)}`].join(',');
    lines.push(`::error ${props}::${escapeData(c.message || title)}`);
  }
  const s = d.summary;
  lines.push(`::notice title=${escapeProperty(`llmbda ${d.command}`)}::${escapeData(`${s.passed} of ${s.cases} passed, ${s.failed} failed, ${s.errors} errors`)}`);
  return `${lines.join('\n')}\n`;
}
