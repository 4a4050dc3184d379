/**
 * The consumer CI script of docs/ci.md, run as written: extracted from the page, run with bash in a
 * scratch consumer project (a user lattice, a sound change, a known-bad change, a saved corpus). It
 * exits 0 and writes three JUnit files that validate against test/fixtures/junit.xsd (libxml2) and
 * pass the count checks (test/helpers/junit-xsd.ts); the same script with the
 * known-bad change in place of the sound one exits 1 (the script can fail).
 *
 * The consumer's files import `llmbda-check/…`; here those imports point at this checkout's sources
 * (in a real project the installed package), and `LLMBDA` runs this checkout's bin instead of `npx llmbda`.
 */
import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validateJunit } from './helpers/junit-xsd.ts';

const REPO = process.cwd();

/** The bash block following the `ci-script` marker in docs/ci.md. */
function ciScript(): string {
  const md = readFileSync('docs/ci.md', 'utf8');
  const m = /<!-- ci-script[^>]*-->\n```bash\n([\s\S]*?)```/.exec(md);
  if (!m) throw new Error('docs/ci.md has no ci-script block');
  return m[1]!;
}

const toSources = (src: string): string =>
  src.replace(/'llmbda-check\/(lattice|variants|semantics)'/g, (_m, p: string) => `'${resolve(`src/${p}/index.ts`)}'`);

/** A variant that restates the reference Labelled rule (a refactor that must keep every theorem). */
const SOUND_CHANGE = `import { defineVariant } from 'llmbda-check/variants';
export default defineVariant({
  name: 'labelled-refactored',
  description: 'Labelled written out again: run the body at pc ⊔ l (the reference rule).',
  rules: { Labelled: (ev, pc, conv, e, fuel) => ev.eval(ev.join(pc, e.label), conv, e.body, fuel) },
});
`;

function project(root: string, change: string): string {
  const p = join(root, 'consumer');
  mkdirSync(join(p, 'lattices'), { recursive: true });
  mkdirSync(join(p, 'semantics'));
  mkdirSync(join(p, 'ci'));
  mkdirSync(join(p, 'counterexamples'));
  writeFileSync(join(p, 'lattices/diamond.ts'), toSources(readFileSync('examples/my-lattice.ts', 'utf8')));
  writeFileSync(join(p, 'semantics/known-bad.ts'), toSources(readFileSync('examples/my-variant.ts', 'utf8')));
  writeFileSync(join(p, 'semantics/my-change.ts'), toSources(change));
  for (const f of readdirSync('counterexamples').filter((x) => x.endsWith('.json'))) cpSync(join('counterexamples', f), join(p, 'counterexamples', f));
  writeFileSync(join(p, 'ci/llmbda.sh'), ciScript());
  return p;
}

function bash(cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile('bash', ['ci/llmbda.sh'], { cwd, env: { ...process.env, NO_COLOR: '1', LLMBDA: `${process.execPath} ${join(REPO, 'bin/llmbda.js')}` }, timeout: 240_000 }, (err, _out, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr }));
  });
}

describe('docs/ci.md: the consumer CI script', () => {
  it('passes on a sound change and writes valid JUnit; fails when the change is the known-bad one', async () => {
    const root = mkdtempSync(join(tmpdir(), 'llmbda-ci-'));
    const bad = mkdtempSync(join(tmpdir(), 'llmbda-ci-bad-'));
    try {
      const p = project(root, SOUND_CHANGE);
      const q = project(bad, readFileSync('examples/my-variant.ts', 'utf8'));
      const [good, broken] = await Promise.all([bash(p), bash(q)]);
      expect(good.code, good.stderr).toBe(0);
      const xml = (f: string): string => readFileSync(join(p, 'reports', f), 'utf8');
      for (const f of ['check.xml', 'replay.xml', 'hunt.xml']) expect(await validateJunit(xml(f)), f).toEqual([]);
      expect(await validateJunit(readFileSync(join(q, 'reports/check.xml'), 'utf8')), 'the failing check.xml').toEqual([]);
      expect([...xml('check.xml').matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1]))
        .toEqual(['lattice-laws on ./lattices/diamond.ts', 'confinement on ./lattices/diamond.ts', 'tipni on ./lattices/diamond.ts']);
      expect(xml('check.xml')).not.toContain('<failure');
      expect((xml('replay.xml').match(/<testcase /g) ?? []).length).toBe(readdirSync(join(p, 'counterexamples')).length);
      expect(xml('hunt.xml')).toMatch(/<testsuite name="llmbda hunt --variant \.\/semantics\/known-bad\.ts" tests="\d+" failures="0"/);
      expect(broken.code).toBe(1);
      expect(readFileSync(join(q, 'reports/check.xml'), 'utf8')).toMatch(/<failure message="tipni on \.\/lattices\/diamond\.ts: Theorem 1/);
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
