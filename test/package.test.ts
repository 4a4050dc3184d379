/**
 * The package as a consumer gets it: build, `npm pack`, install the tarball into a fresh folder offline
 * (the tarball unpacked as node_modules/llmbda-check, every dependency linked from this repository's
 * already-installed node_modules, as npm would lay them out), then in that folder: import it from plain Node ESM, typecheck
 * a consumer test file with a default-strict tsconfig (moduleResolution node16), run it under vitest,
 * and run the installed `llmbda` binary. Nothing here reaches the network.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links } from './helpers/md-links.ts';

const root = resolve('.');
const work = mkdtempSync(join(tmpdir(), 'llmbda-consumer-'));
const consumer = join(work, 'consumer');
const env = { ...process.env, LLMBDA_SOURCE: '', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const sh = (cmd: string, args: string[], cwd: string): string => execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });

beforeAll(() => {
  sh('npm', ['run', 'build', '--silent'], root);
  const out = sh('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', work], root).trim().split('\n').pop()!;
  const tarball = join(work, out);
  mkdirSync(consumer);
  const pkg = JSON.parse(sh('node', ['-p', 'JSON.stringify(require("./package.json"))'], root)) as { devDependencies: Record<string, string> };
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({
    name: 'consumer', private: true, type: 'module',
    dependencies: { 'llmbda-check': `file:${tarball}` },
    devDependencies: { vitest: pkg.devDependencies['vitest'], typescript: pkg.devDependencies['typescript'], '@types/node': pkg.devDependencies['@types/node'] },
  }, null, 2));
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
    include: ['*.test.ts'],
  }, null, 2));
  copyFileSync(join(root, 'test/consumer/consumer.test.ts'), join(consumer, 'consumer.test.ts'));
  // Offline install: unpack the tarball, link the already-installed dependencies, and the bins npm would link.
  const nm = join(consumer, 'node_modules');
  mkdirSync(join(nm, 'llmbda-check'), { recursive: true });
  sh('tar', ['-xzf', tarball, '-C', join(nm, 'llmbda-check'), '--strip-components=1'], work);
  for (const d of readdirSync(join(root, 'node_modules'))) {
    if (d === '.bin' || d === '.package-lock.json' || d === 'llmbda-check') continue;
    symlinkSync(join(root, 'node_modules', d), join(nm, d));
  }
  mkdirSync(join(nm, '.bin'));
  symlinkSync(join(root, 'node_modules/vitest/vitest.mjs'), join(nm, '.bin/vitest'));
  symlinkSync(join(root, 'node_modules/typescript/bin/tsc'), join(nm, '.bin/tsc'));
  symlinkSync(join(nm, 'llmbda-check/bin/llmbda.js'), join(nm, '.bin/llmbda'));
  const shipped = JSON.parse(readFileSync(join(nm, 'llmbda-check/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of Object.keys(shipped.dependencies)) if (!existsSync(join(nm, dep))) throw new Error(`dependency ${dep} is not installed`);
}, 600_000);

afterAll(() => { if (!process.env['KEEP_CONSUMER']) rmSync(work, { recursive: true, force: true }); });

describe('the packed package in a consumer project', () => {
  it('ships the build and no tests, benches, CI files or hunt output', () => {
    const files = sh('tar', ['-tzf', join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!)], work).split('\n');
    expect(files).toContain('package/dist/src/index.js');
    expect(files).toContain('package/dist/src/index.d.ts');
    expect(files.filter((f) => /^package\/(test|bench|\.ci|src)\//.test(f))).toEqual([]);
  });

  it('ships the docs with the spec, and every relative link of a shipped doc resolves inside the tarball', () => {
    const files = sh('tar', ['-tzf', join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!)], work).split('\n').filter((f) => f !== '');
    expect(files).toContain('package/docs/spec.md');
    const shipped = new Set(files.map((f) => f.replace(/^package\//, '')));
    const isThere = (p: string): boolean => shipped.has(p) || [...shipped].some((f) => f.startsWith(`${p}/`));
    const broken = [...shipped].filter((f) => f.endsWith('.md')).flatMap((doc) =>
      links(readFileSync(join(consumer, 'node_modules', 'llmbda-check', doc), 'utf8'))
        .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target) && !l.target.startsWith('#'))
        .map((l) => ({ doc, line: l.line, target: posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(l.target.split('#')[0]!))) }))
        .filter((l) => !isThere(l.target))
        .map((l) => `${l.doc}:${l.line}: ${l.target}`));
    expect(broken).toEqual([]);
  });

  it('imports from plain Node ESM', () => {
    const n = Number(sh('node', ['-e', "import('llmbda-check').then(m => console.log(Object.keys(m).length))"], consumer).trim());
    expect(n).toBeGreaterThan(50);
  });

  it('typechecks a consumer test file with a default-strict tsconfig', () => {
    let out = '';
    try { sh(join(consumer, 'node_modules/.bin/tsc'), ['-p', '.'], consumer); } catch (e) { out = String((e as { stdout?: string }).stdout ?? e); }
    expect(out).toBe('');
  });

  it('runs the consumer tests under vitest: lattice TIPNI holds, primitive clean, variant leaks with a report', () => {
    const out = sh(join(consumer, 'node_modules/.bin/vitest'), ['run', '--reporter=verbose'], consumer);
    expect(out).toMatch(/3 passed/);
  });

  it('the installed binary prints the version and runs from the compiled build', () => {
    expect(existsSync(join(consumer, 'node_modules/llmbda-check/dist/src/cli/main.js'))).toBe(true);
    const v = sh(join(consumer, 'node_modules/.bin/llmbda'), ['--version'], consumer).trim();
    expect(v).toBe(JSON.parse(sh('node', ['-p', 'JSON.stringify(require("./package.json").version)'], root)));
  });
});

describe('the README shows the consumer file that runs', () => {
  it('its "Use it from your own tests" block is test/consumer/consumer.test.ts verbatim', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const m = /<!-- BEGIN consumer\.test\.ts[^\n]*\n```ts\n([\s\S]*?)```\n<!-- END consumer\.test\.ts -->/.exec(readme);
    expect(m?.[1]).toBe(readFileSync(join(root, 'test/consumer/consumer.test.ts'), 'utf8'));
  });
});
