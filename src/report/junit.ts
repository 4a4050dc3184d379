/**
 * JUnit XML for CI servers: one `<testsuite>` per command run, one `<testcase>` per report case (a
 * (suite, lattice) for check and hunt, a corpus entry for replay); a failed case carries a `<failure>`
 * (or `<error>`) whose `message` is the first line and whose text is the readable report. The shape
 * follows junit-4.xsd (the schema of Jenkins' xUnit plugin, which GitLab, GitHub test-report actions and
 * Azure read too); test/report.test.ts checks the output against that schema's rules.
 */
import { hostname } from 'node:os';
import type { ReportCase, ReportDocument } from './document.ts';

/** Characters XML 1.0 does not allow at all are dropped; the five specials are escaped. */
export function xmlEscape(s: string, attribute = false): string {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
  const out = clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return attribute ? out.replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;') : out;
}

const attrs = (a: Readonly<Record<string, string | number>>): string =>
  Object.entries(a).map(([k, v]) => ` ${k}="${xmlEscape(String(v), true)}"`).join('');

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

/** The testcase name: what was judged, where. */
export function caseName(c: ReportCase, command: ReportDocument['command']): string {
  return command === 'replay' ? c.id : c.lattice === '-' ? c.suite : `${c.suite} on ${c.lattice}`;
}

function testcase(c: ReportCase, d: ReportDocument): string {
  const head = `    <testcase${attrs({ name: caseName(c, d.command), classname: `llmbda.${d.command}.${c.suite}`, time: seconds(c.timeMs) })}`;
  if (c.result === 'passed') return `${head}/>`;
  const first = c.message.split('\n').find((l) => l.trim() !== '') ?? c.verdict;
  const tag = c.result === 'error' ? 'error' : 'failure';
  const type = c.verdict === c.expected ? 'unexpected' : c.verdict;
  return `${head}>\n      <${tag}${attrs({ message: first.trim(), type })}>${xmlEscape(c.message)}</${tag}>\n    </testcase>`;
}

/** The local time without zone, as junit-4.xsd's ISO8601_DATETIME_PATTERN wants it. */
const timestamp = (d: Date): string => d.toISOString().slice(0, 19);

/** Render a report as a JUnit XML document. */
export function renderJunit(d: ReportDocument, now: Date = new Date()): string {
  const failures = d.summary.failed, errors = d.summary.errors, tests = d.summary.cases;
  const name = `llmbda ${d.command}${d.variant !== 'reference' && d.variant !== 'recorded' ? ` --variant ${d.variant}` : ''}`;
  const props: Record<string, string> = { tool: `${d.tool.name} ${d.tool.version}`, variant: d.variant, ...(d.seed !== null ? { seed: String(d.seed) } : {}) };
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name, tests, failures, errors, time: seconds(d.timeMs) })}>`,
    `  <testsuite${attrs({ name, tests, failures, errors, skipped: 0, time: seconds(d.timeMs), timestamp: timestamp(now), hostname: hostname() || 'localhost' })}>`,
    '    <properties>',
    ...Object.entries(props).map(([k, v]) => `      <property${attrs({ name: k, value: v })}/>`),
    '    </properties>',
    ...d.cases.map((c) => testcase(c, d)),
    `    <system-out>${xmlEscape(d.text)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
