/**
 * Every relative link in README.md, docs/*.md and counterexamples/README.md resolves: to a file inside
 * the repository and, for `#anchor`s, to a heading of the target that GitHub gives that anchor. No doc
 * points outside the project (the specs live in docs/spec.md, not in `../shared/`).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, githubSlug, links, withoutCode } from './helpers/md-links.ts';

const REPO = process.cwd();
const DOCS: readonly string[] = [
  'README.md',
  ...readdirSync('docs').filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
  'counterexamples/README.md',
];

/** What is wrong with the links of `file` (its text given), one line each. */
function brokenLinks(file: string, text: string, read: (p: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const { line, target } of links(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const at = `${file}:${line}: ${target}`;
    const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const path = decodeURIComponent(pathPart);
    const abs = path === '' ? resolve(REPO, file) : resolve(REPO, dirname(file), path);
    const rel = relative(REPO, abs);
    if (rel.startsWith('..') || rel.startsWith(sep)) {
      problems.push(`${at}: points outside the repository`);
      continue;
    }
    const content = read(rel);
    if (content === undefined) {
      problems.push(`${at}: no such file`);
      continue;
    }
    if (anchor !== undefined && anchor !== '') {
      if (!rel.endsWith('.md')) problems.push(`${at}: an anchor into a file that is not markdown`);
      else if (!anchors(content).has(decodeURIComponent(anchor))) problems.push(`${at}: ${rel} has no heading with anchor #${anchor}`);
    }
  }
  return problems;
}

const readRepo = (rel: string): string | undefined => {
  const p = join(REPO, rel);
  if (!existsSync(p)) return undefined;
  return statSync(p).isDirectory() ? '' : readFileSync(p, 'utf8');
};

describe('doc links', () => {
  it.each(DOCS)('every relative link of %s resolves to a file and heading in the repository', (file) => {
    const problems = brokenLinks(file, readFileSync(file, 'utf8'), readRepo);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('no doc refers to ../shared/ (a clone or the npm package does not have it): the spec is docs/spec.md', () => {
    const hits = DOCS.flatMap((f) => readFileSync(f, 'utf8').split('\n').flatMap((l, i) => (l.includes('../shared/') ? [`${f}:${i + 1}`] : [])));
    expect(hits).toEqual([]);
  });
});

describe('doc links: the checker can fail', () => {
  const fake = (files: Record<string, string>) => (rel: string): string | undefined => files[rel];
  const files = { 'docs/a.md': '# Title\n## Lemma 1, Confinement — `properties/confinement.ts`\n## Same\n## Same\n', 'docs/b.md': '' };

  it('GitHub slugs: punctuation dropped, spaces to hyphens, code spans kept as text, repeats numbered', () => {
    expect(githubSlug('Lemma 1, Confinement — `properties/confinement.ts`')).toBe('lemma-1-confinement--propertiesconfinementts');
    expect(githubSlug('Writing your own variant (`defineVariant`)')).toBe('writing-your-own-variant-definevariant');
    expect([...anchors(files['docs/a.md'])]).toEqual(['title', 'lemma-1-confinement--propertiesconfinementts', 'same', 'same-1']);
  });

  it('reports a missing file, a missing heading, and a link leaving the repository; accepts good ones', () => {
    const text = [
      '[ok](b.md) [ok](a.md#same-1) [ok](#title) [ok](https://example.org/x#y) `[in code](nope.md)`',
      '[bad](c.md) [bad](a.md#same-2) [bad](../../shared/spec/llmbda.md)',
    ].join('\n');
    expect(brokenLinks('docs/a.md', text, fake(files))).toEqual([
      'docs/a.md:2: c.md: no such file',
      'docs/a.md:2: a.md#same-2: docs/a.md has no heading with anchor #same-2',
      'docs/a.md:2: ../../shared/spec/llmbda.md: points outside the repository',
    ]);
  });

  it('ignores links inside fenced blocks', () => {
    expect(links(withoutCode('```md\n[x](nope.md)\n```\n[y](b.md)\n'))).toEqual([{ line: 4, target: 'b.md' }]);
  });
});
