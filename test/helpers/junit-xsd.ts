/**
 * JUnit XML validated as a CI server would read it, in two steps:
 *
 * 1. **XML Schema**: libxml2's validator (the `xmllint-wasm` package, libxml2 compiled to WebAssembly)
 *    against `test/fixtures/junit.xsd`, our own XSD 1.0 statement of the format of the Jenkins xUnit
 *    plugin's junit-4.xsd (what GitLab, Azure Pipelines and the GitHub test-report actions read):
 *    well-formedness, `testsuites > testsuite > (properties?, testcase*, system-out?, system-err?)`,
 *    `properties > property*`, `testcase > (skipped?, error*, failure*, system-out*, system-err*)`, the
 *    required attributes (`testsuite@name`, `@tests`; `testcase@name`; `property@name`, `@value`), the
 *    attributes each element may carry, counts as non-negative integers, `time` as decimals, `timestamp` as
 *    xs:dateTime without zone.
 * 2. **Counts** (which XSD 1.0 cannot express): on every `<testsuite>`, `tests` is the number of
 *    `<testcase>`s, `failures` the number of those with a `<failure>`, `errors` with an `<error>`.
 *
 * `validateJunit` returns the errors of both (empty when valid); the schema's messages are libxml2's own.
 */
import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

const SCHEMA = { fileName: 'junit.xsd', contents: readFileSync(new URL('../fixtures/junit.xsd', import.meta.url), 'utf8') };

/** The schema's errors for a document (libxml2's messages, with the line), empty when it is valid. */
export async function schemaErrors(xml: string): Promise<string[]> {
  const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [SCHEMA], maxMemoryPages: 4096 });
  if (r.valid) return [];
  // libxml2 prints the offending source line and a caret after a parse error: those lines carry no location.
  const errors = r.errors.filter((e) => e.loc !== null).map((e) => `line ${e.loc!.lineNumber}: ${e.message}`);
  return errors.length > 0 ? errors : [r.rawOutput.trim() || 'invalid (no message)'];
}

/** The count errors of a schema-valid document: `tests`, `failures`, `errors` against its test cases. */
export function countErrors(xml: string): string[] {
  const root = parseXml(xml);
  const errors: string[] = [];
  const suites = root.name === 'testsuite' ? [root] : root.children.filter((c) => c.name === 'testsuite');
  suites.forEach((el, i) => {
    const at = root.name === 'testsuite' ? 'testsuite' : `testsuites/testsuite[${i}]`;
    const cases = el.children.filter((c) => c.name === 'testcase');
    const count = (tag: string): number => cases.filter((c) => c.children.some((x) => x.name === tag)).length;
    if (Number(el.attrs['tests']) !== cases.length) errors.push(`${at}: tests=${el.attrs['tests']} but ${cases.length} testcases`);
    if (el.attrs['failures'] !== undefined && Number(el.attrs['failures']) !== count('failure')) errors.push(`${at}: failures=${el.attrs['failures']} but ${count('failure')} failed testcases`);
    if (el.attrs['errors'] !== undefined && Number(el.attrs['errors']) !== count('error')) errors.push(`${at}: errors=${el.attrs['errors']} but ${count('error')} testcases in error`);
  });
  return errors;
}

/** Errors of a JUnit document: the schema's first; the counts only of a document the schema accepts. */
export async function validateJunit(xml: string): Promise<string[]> {
  const errors = await schemaErrors(xml);
  return errors.length > 0 ? errors : countErrors(xml);
}

export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

const decode = (s: string, at: number): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);|&/g, (m, ent: string | undefined) => {
    if (ent === undefined) throw new Error(`stray & near offset ${at}`);
    if (ent.startsWith('#x')) return String.fromCodePoint(parseInt(ent.slice(2), 16));
    if (ent.startsWith('#')) return String.fromCodePoint(parseInt(ent.slice(1), 10));
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[ent as 'lt']!;
  });

/** Parse an XML document the schema accepted (no DTD or CDATA; comments and the declaration skipped): for the counts. */
export function parseXml(xml: string): XmlElement {
  // eslint-disable-next-line no-control-regex
  if (/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)) throw new Error('a character XML 1.0 does not allow');
  let i = 0;
  const stack: { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }[] = [];
  let root: XmlElement | undefined;
  const skip = (): void => { while (/\s/.test(xml[i] ?? '')) i++; };
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    if (text.includes('>') && stack.length === 0 && text.trim() !== '') throw new Error('text outside the root');
    if (stack.length > 0) stack[stack.length - 1]!.text += decode(text, i);
    else if (text.trim() !== '') throw new Error(`text outside the root at ${i}`);
    if (lt === -1) break;
    i = lt;
    if (xml.startsWith('<!--', i)) { i = xml.indexOf('-->', i) + 3; continue; }
    if (xml[i + 1] === '/') {
      const end = xml.indexOf('>', i);
      const name = xml.slice(i + 2, end).trim();
      const top = stack.pop();
      if (!top || top.name !== name) throw new Error(`</${name}> closes ${top ? `<${top.name}>` : 'nothing'}`);
      const el: XmlElement = top;
      if (stack.length > 0) stack[stack.length - 1]!.children.push(el); else { if (root) throw new Error('two roots'); root = el; }
      i = end + 1;
      continue;
    }
    i++;
    const nm = /^[A-Za-z_][\w.-]*/.exec(xml.slice(i));
    if (!nm) throw new Error(`bad tag at ${i}`);
    i += nm[0].length;
    const attrs: Record<string, string> = {};
    for (;;) {
      skip();
      if (xml.startsWith('/>', i) || xml[i] === '>') break;
      const am = /^([A-Za-z_][\w.:-]*)\s*=\s*"([^"<]*)"/.exec(xml.slice(i));
      if (!am) throw new Error(`bad attribute in <${nm[0]}> at ${i}`);
      if (am[1]! in attrs) throw new Error(`duplicate attribute ${am[1]}`);
      attrs[am[1]!] = decode(am[2]!, i);
      i += am[0].length;
    }
    const el = { name: nm[0], attrs, children: [] as XmlElement[], text: '' };
    if (xml.startsWith('/>', i)) {
      i += 2;
      if (stack.length > 0) stack[stack.length - 1]!.children.push(el); else { if (root) throw new Error('two roots'); root = el; }
    } else {
      i += 1;
      stack.push(el);
    }
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> not closed`);
  if (!root) throw new Error('no root element');
  return root;
}
