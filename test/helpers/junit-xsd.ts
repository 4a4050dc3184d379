/**
 * A structural check of JUnit XML against the rules of junit-4.xsd (the schema of Jenkins' xUnit
 * plugin, the format GitLab, Azure Pipelines and the GitHub test-report actions read), written by hand
 * because no XML schema validator is installed (with libxml2-utils: `xmllint --schema junit-4.xsd`).
 *
 * What is checked: well-formedness (a small parser: elements, attributes, text, the five entities and
 * numeric character references, no stray `<` or `&`, balanced tags, one root, characters allowed in
 * XML 1.0); the element tree `testsuites > testsuite > (properties?, testcase*, system-out?, system-err?)`,
 * `properties > property*`, `testcase > (skipped?, error*, failure*, system-out*, system-err*)`;
 * required attributes (`testsuite@name`, `@tests`; `testcase@name`; `property@name`, `@value`); the
 * attributes each element may carry; numeric types (`tests`, `failures`, `errors`, `skipped`, `disabled`
 * integers ≥ 0, `time` decimals); `timestamp` as xs:dateTime without zone; and that the counts agree
 * with the test cases. Not checked: anything else XML Schema would (namespaces, DTDs).
 */

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

/** Parse an XML document (no DTD, no CDATA needed here, comments and the declaration skipped). */
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

const INT = /^[0-9]+$/;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
const DATETIME = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/;

/** The attributes junit-4.xsd declares per element, with their types; `true` = required. */
const ATTRS: Record<string, Record<string, [RegExp | null, boolean]>> = {
  testsuites: { name: [null, false], time: [DECIMAL, false], tests: [INT, false], failures: [INT, false], disabled: [INT, false], errors: [INT, false] },
  testsuite: {
    name: [null, true], tests: [INT, true], failures: [INT, false], errors: [INT, false], time: [DECIMAL, false], disabled: [INT, false], skipped: [INT, false],
    timestamp: [DATETIME, false], hostname: [null, false], id: [null, false], package: [null, false],
  },
  properties: {},
  property: { name: [null, true], value: [null, true] },
  testcase: { name: [null, true], assertions: [null, false], time: [DECIMAL, false], classname: [null, false], status: [null, false] },
  skipped: { message: [null, false] },
  error: { message: [null, false], type: [null, false] },
  failure: { message: [null, false], type: [null, false] },
  'system-out': {},
  'system-err': {},
};

/** Allowed children in order: [name, maxOccurs] groups. */
const CONTENT: Record<string, readonly (readonly [string, number])[]> = {
  testsuites: [['testsuite', Infinity]],
  testsuite: [['properties', 1], ['testcase', Infinity], ['system-out', 1], ['system-err', 1]],
  properties: [['property', Infinity]],
  testcase: [['skipped', 1], ['error', Infinity], ['failure', Infinity], ['system-out', Infinity], ['system-err', Infinity]],
  property: [], skipped: [], error: [], failure: [], 'system-out': [], 'system-err': [],
};

/** Errors of a JUnit document against the junit-4.xsd rules (empty when valid). */
export function checkJunit(xml: string): string[] {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (e) {
    return [`not well-formed: ${(e as Error).message}`];
  }
  const errors: string[] = [];
  if (root.name !== 'testsuites' && root.name !== 'testsuite') return [`root is <${root.name}>, not <testsuites> or <testsuite>`];
  const walk = (el: XmlElement, at: string): void => {
    const decl = ATTRS[el.name];
    if (!decl) { errors.push(`${at}: element <${el.name}> is not in the schema`); return; }
    for (const [a, v] of Object.entries(el.attrs)) {
      const d = decl[a];
      if (!d) errors.push(`${at}: attribute ${a} is not allowed on <${el.name}>`);
      else if (d[0] && !d[0].test(v)) errors.push(`${at}@${a}: ${JSON.stringify(v)} has the wrong type`);
    }
    for (const [a, [, req]] of Object.entries(decl)) if (req && !(a in el.attrs)) errors.push(`${at}: <${el.name}> needs attribute ${a}`);
    const content = CONTENT[el.name]!;
    if (content.length === 0 && el.children.length > 0) errors.push(`${at}: <${el.name}> has no element content`);
    if (content.length > 0 && el.text.trim() !== '') errors.push(`${at}: <${el.name}> has text content`);
    let g = 0, n = 0;
    for (const c of el.children) {
      while (g < content.length && content[g]![0] !== c.name) { g++; n = 0; }
      if (g === content.length) { errors.push(`${at}: <${c.name}> not allowed here (order or name) in <${el.name}>`); break; }
      if (++n > content[g]![1]) errors.push(`${at}: too many <${c.name}>`);
    }
    el.children.forEach((c, i) => walk(c, `${at}/${c.name}[${i}]`));
    if (el.name === 'testsuite') {
      const cases = el.children.filter((c) => c.name === 'testcase');
      const count = (tag: string): number => cases.filter((c) => c.children.some((x) => x.name === tag)).length;
      if (Number(el.attrs['tests']) !== cases.length) errors.push(`${at}: tests=${el.attrs['tests']} but ${cases.length} testcases`);
      if (el.attrs['failures'] !== undefined && Number(el.attrs['failures']) !== count('failure')) errors.push(`${at}: failures=${el.attrs['failures']} but ${count('failure')} failed testcases`);
      if (el.attrs['errors'] !== undefined && Number(el.attrs['errors']) !== count('error')) errors.push(`${at}: errors=${el.attrs['errors']} but ${count('error')} testcases in error`);
    }
  };
  walk(root, root.name);
  return errors;
}
