/**
 * The public API (src/index.ts): objects as well as names, nothing written unless asked, readable cases
 * in plain fast-check, user `.ts` files loaded as ESM wherever they live, and TSDoc on every export.
 */
import fc from 'fast-check';
import ts from 'typescript';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertHolds, assertLeaks, assertSuite, check, defineVariant, finiteLattice, hunt, powersetUS, PropertyFailure, referenceCtx, resolveLattice, variantCtx,
} from '../src/index.ts';
import { tipni } from '../properties/tipni.ts';
import { pairArb, singleArb } from '../src/generators/pairs.ts';
import { loadVariantFile } from '../src/variants/variant.ts';
import { sendAfter } from '../src/variants/index.ts';

const diamond = finiteLattice({ name: 'diamond', elements: ['bot', 'a', 'b', 'top'], order: [['bot', 'a'], ['bot', 'b'], ['a', 'top'], ['b', 'top']] });

/** Send at ⊥ instead of pc: drops the no-sensitive-upgrade check (an in-memory variant). */
const sendAtBottom = defineVariant({
  name: 'send-at-bottom',
  description: 'Send checks ⊥ ⊑ lc instead of pc ⊑ lc.',
  rules: { Send: (ev, pc, conv, e, fuel) => ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => sendAfter(ev, ev.lat.bottom, c1, v)) },
});

describe('objects, not only names', () => {
  it('check runs on an in-memory lattice (its laws first) and holds', async () => {
    const r = await check({ lattices: [diamond], suites: ['tipni', 'confinement'], runs: 60, seed: 4 });
    expect(r.verdicts.map((v) => `${v.suite}/${v.lattice}/${v.verdict.status}`)).toEqual(['lattice-laws/diamond/holds', 'tipni/diamond/holds', 'confinement/diamond/holds']);
    expect(r.ok).toBe(true);
  });

  it('hunt takes a Variant object and a Lattice object, and writes nothing', async () => {
    const before = readdirSync('counterexamples').length;
    const r = await hunt({ variant: sendAtBottom, lattices: [powersetUS], suite: tipni, runs: 2000, seed: 1, minimiseMs: 2000 });
    expect(r.found).toBe(true);
    expect(r.finding?.savedTo).toBeUndefined();
    expect(r.report).toMatch(/LEAK FOUND: tipni fails under variant send-at-bottom on powerset-us/);
    expect(readdirSync('counterexamples').length).toBe(before);
  });

  it('assertSuite throws a PropertyFailure with the readable case; passes on the reference', () => {
    expect(() => assertSuite(tipni, referenceCtx(diamond), { runs: 60, seed: 2 })).not.toThrow();
    let err: unknown;
    try { assertSuite(tipni, variantCtx(powersetUS, sendAtBottom), { runs: 2000, seed: 1 }); } catch (e) { err = e; }
    expect(PropertyFailure.is(err)).toBe(true);
    expect((err as Error).message).toMatch(/^tipni .*: fails, seed 1/);
    expect((err as Error).message).toMatch(/run 0: .* ⊢ /);
  });

  it('assertLeaks returns the minimised report for a known-bad variant, assertHolds passes the reference', async () => {
    const r = await assertLeaks({ variant: 'send-no-nsu', lattices: ['powerset-us'], seed: 1, minimiseMs: 2000 });
    expect(r.finding!.size).toBeLessThanOrEqual(10);
    await expect(assertHolds({ lattices: ['two-point'], suites: ['tipni'], runs: 40, seed: 1 })).resolves.toBeUndefined();
  });
});

describe('generated cases print readably in plain fast-check', () => {
  it('a pair shows its observer and skeleton with holes as ⟦l: a | b⟧; a single case its program', () => {
    const pairs = fc.sample(pairArb({ lat: powersetUS, endorse: false }), { numRuns: 60, seed: 3 });
    const shown = pairs.map((c) => fc.stringify(c));
    expect(shown.every((s) => /^m = \[.*\], pc = /.test(s))).toBe(true);
    expect(shown.some((s) => /⟦\["(U|S)"(,"S")?\]: .* \| .*⟧/.test(s))).toBe(true);
    const [single] = fc.sample(singleArb({ lat: powersetUS, endorse: true }), { numRuns: 1, seed: 3 });
    expect(fc.stringify(single)).toMatch(/^pc = .*, fuel \d+: /);
    expect(Object.keys(pairs[0]!)).toEqual(['obs', 'pc', 'skeleton', 'conv', 'model', 'fuel']);
  });
});

describe('user files load as ES modules wherever they live', () => {
  it('a .ts variant in a folder whose package is CommonJS loads, and leaves no copy behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-cjs-'));
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'cjs-project' }));
      writeFileSync(join(dir, 'v.ts'), [
        "import { basename } from 'node:path';",
        'const name: string = basename("/x/my-variant");',
        'export default { name, description: "no change", rules: {} };',
      ].join('\n'));
      const v = await loadVariantFile(join(dir, 'v.ts'));
      expect(v.name).toBe('my-variant');
      expect(readdirSync(dir).sort()).toEqual(['package.json', 'v.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lattice file that throws at import is the user\'s error, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-bad-'));
    try {
      writeFileSync(join(dir, 'l.mts'), 'throw new Error("boom");\nexport default {};\n');
      await expect(resolveLattice(join(dir, 'l.mts'))).rejects.toThrow(/could not load lattice file .*l\.mts:1: boom/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('documentation', () => {
  it('every symbol exported by the main entry has TSDoc on its declaration', () => {
    const entry = resolve('src/index.ts');
    const program = ts.createProgram([entry], { allowImportingTsExtensions: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
    const checker = program.getTypeChecker();
    const mod = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
    const undocumented: string[] = [];
    for (const sym of checker.getExportsOfModule(mod)) {
      const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
      const docs = (target.getDeclarations() ?? []).some((d) => ts.getJSDocCommentsAndTags(d).length > 0 || /\/\*\*/.test(d.getFullText().slice(0, d.getLeadingTriviaWidth())));
      if (!docs) undocumented.push(sym.getName());
    }
    expect(undocumented).toEqual([]);
  });
});
