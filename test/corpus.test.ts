/**
 * The corpus (counterexamples/*.json) as a regression suite: every saved case HOLDS under the
 * reference semantics and FAILS under its variant, exactly as recorded; its recorded size is its real
 * size; it has a `.lam` rendering; and corpus cases feed the suites as fast-check `examples`.
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { runSuite } from '../src/runner/suite.ts';
import { corpusExamples, corpusFiles, entryCase, loadEntry } from '../src/llmbda/corpus.ts';
import { caseSize } from '../src/llmbda/minimise.ts';
import { replay } from '../src/api/hunt.ts';
import { loadVariant, referenceCtxWith, variantCtx } from '../src/llmbda/variant-ctx.ts';
import { suiteNamed } from '../src/api/registry.ts';
import { latticeByName } from '../src/lattice/registry.ts';

const files = corpusFiles();

describe('the corpus replays: reference holds, variant fails', () => {
  it('has an entry for every unsound catalogue variant and both CaMeL leaks', () => {
    expect(files.length).toBeGreaterThanOrEqual(17);
    expect(files.some((f) => f.includes('camel-untaken-branch'))).toBe(true);
    expect(files.some((f) => f.includes('camel-retry-loop'))).toBe(true);
  });

  for (const file of files) {
    it(file, async () => {
      const r = await replay(file);
      expect(r.reference.outcome, r.reference.reason).toBe(r.entry.expected.reference);
      expect(r.variant.outcome).toBe(r.entry.expected.variant);
      expect(r.entry.expected).toEqual({ reference: 'holds', variant: 'fails' });
      const lat = latticeByName(r.entry.lattice)!;
      expect(caseSize(entryCase(file, r.entry, lat).value)).toBe(r.entry.size);
      const lam = file.replace(/\.json$/, '.lam');
      expect(existsSync(lam)).toBe(true);
      expect(readFileSync(lam, 'utf8')).toContain(r.entry.programs[0]!);
    });
  }
});

describe('corpus cases feed the suites as examples', () => {
  const lat = latticeByName('powerset-us')!;
  const examples = corpusExamples('tipni', lat);

  it('the reference semantics passes them (and the generated cases after them)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    const v = runSuite(suiteNamed('tipni'), referenceCtxWith(lat), { runs: examples.length + 20, seed: 1, examples });
    expect(v.counterexample).toBeUndefined();
    expect(v.error).toBeUndefined();
  });

  it('a variant fails on one of them before any generated case', async () => {
    const v = runSuite(suiteNamed('tipni'), variantCtx(lat, await loadVariant('send-no-nsu')), { runs: 100, seed: 1, examples, noShrink: true });
    expect(v.counterexample).toBeDefined();
    expect(v.counterexample!.testsToFailure).toBeLessThanOrEqual(examples.length);
  });

  it('skips entries of other suites or lattices', () => {
    const single = corpusExamples('confinement', lat);
    expect(single.length).toBe(files.filter((f) => { const e = loadEntry(f); return e.suite === 'confinement' && e.lattice === 'powerset-us'; }).length);
    expect(single.every((c) => typeof c === 'object' && c !== null && 'expr' in c)).toBe(true);
  });
});
