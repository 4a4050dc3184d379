import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../src/util/absurd.ts';
import { ALL_LATTICE_NAMES, SHIPPED_LATTICES, latticeByName, resolveLattice, validateLattice } from '../src/lattice/registry.ts';
import { product, twoPoint, chain } from '../src/lattice/instances.ts';
import { checkLattice } from '../properties/lattice-laws.ts';

describe('latticeByName', () => {
  it('knows the shipped names', () => {
    expect(SHIPPED_LATTICES).toEqual(['two-point', 'powerset-us', 'chain(3)']);
    expect(SHIPPED_LATTICES.map((n) => latticeByName(n)?.name)).toEqual(['two-point', 'powerset-us', 'chain(3)']);
    expect(latticeByName('ppmf')?.name).toBe('ppmf');
    expect(latticeByName(' chain( 12 ) ')?.name).toBe('chain(12)');
  });
  it('parses products of names, nested, and a product’s own name (round trip)', () => {
    expect(latticeByName('product(two-point,chain(3))')?.name).toBe('two-point×chain(3)');
    expect(latticeByName('product(product(two-point,ppmf), chain(2))')?.name).toBe('(two-point×ppmf)×chain(2)');
    const nested = product(product(twoPoint, twoPoint), chain(2));
    expect(latticeByName(nested.name)?.name).toBe(nested.name);
    expect(latticeByName('two-point×chain(3)')?.show(['H', 2])).toBe('[["H"],[2]]');
  });
  it('returns undefined for anything else', () => {
    for (const bad of ['chain(0)', 'chain(-1)', 'chain(x)', 'chain(3', 'product(two-point)', 'product(a,b)', 'Two-Point', '']) {
      expect(latticeByName(bad)).toBeUndefined();
    }
  });
  it('lists every name form for help text', () => {
    expect(ALL_LATTICE_NAMES).toEqual(['two-point', 'powerset-us', 'powerset-use', 'chain(N)', 'ppmf', 'product(A,B)']);
  });
});

describe('resolveLattice', () => {
  let dir = '';
  const VALID = `{
    name: 'two-js', bottom: 0, top: 1,
    join: (a, b) => Math.max(a, b), leq: (a, b) => a <= b, equals: (a, b) => a === b,
    show: (l) => (l === 1 ? '["T"]' : '[]'),
    fromLabel: (l) => ({ kind: 'array', elems: l === 1 ? [{ kind: 'str', value: 'T' }] : [] }),
    toLabel: (v) => v.kind !== 'array' ? undefined : v.elems.length === 0 ? 0
      : v.elems.length === 1 && v.elems[0].kind === 'str' && v.elems[0].value === 'T' ? 1 : undefined,
    elements: [0, 1],
  }`;
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'llmbda-lattice-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves names', async () => {
    expect((await resolveLattice('chain(4)')).name).toBe('chain(4)');
  });

  it('loads examples/my-lattice.ts (passes the laws) and examples/broken-lattice.ts (fails them)', async () => {
    const mine = await resolveLattice('examples/my-lattice.ts');
    expect(mine.name).toBe('diamond');
    expect(checkLattice(mine, { runs: 200, seed: 11 }).ok).toBe(true);
    const broken = await resolveLattice('./examples/broken-lattice.ts');
    expect(broken.name).toBe('rock-paper-scissors');
    expect(checkLattice(broken, { runs: 200, seed: 11 }).counterexample?.reason).toMatch(/^associativity fails/);
  });

  it('accepts a default export, an export named lattice, and a (async) factory function', async () => {
    expect((await resolveLattice(file('default.mjs', `export default ${VALID};`))).name).toBe('two-js');
    expect((await resolveLattice(file('named.mjs', `export const lattice = ${VALID};`))).name).toBe('two-js');
    expect((await resolveLattice(file('factory.mjs', `export default async () => (${VALID});`))).name).toBe('two-js');
    const ts = await resolveLattice(file('typed.ts', `const l: { name: string } & Record<string, unknown> = ${VALID};\nexport default l;`));
    expect(checkLattice(ts, { runs: 200, seed: 1 }).ok).toBe(true);
  });

  it('rejects unknown names with a UserError listing the valid ones', async () => {
    await expect(resolveLattice('diamond')).rejects.toThrow(UserError);
    await expect(resolveLattice('diamond')).rejects.toThrow(/unknown lattice 'diamond'; valid names: two-point, powerset-us, powerset-use, chain\(N\), ppmf, product\(A,B\)/);
  });

  it('rejects missing files, unloadable files and files without a lattice export', async () => {
    await expect(resolveLattice(join(dir, 'nope.ts'))).rejects.toThrow(/does not exist/);
    await expect(resolveLattice(file('syntax.mjs', 'export default {'))).rejects.toThrow(/could not load lattice file .*syntax\.mjs/);
    await expect(resolveLattice(file('none.mjs', 'export const foo = 1;'))).rejects.toThrow(/none\.mjs has neither a default export nor an export named 'lattice'/);
    await expect(resolveLattice(file('throws.mjs', 'export default () => { throw new Error("no"); };'))).rejects.toThrow(/the exported function threw: no/);
  });

  it('names the file and the member when the shape is wrong', async () => {
    const missingJoin = file('nojoin.mjs', `const l = ${VALID}; delete l.join; export default l;`);
    await expect(resolveLattice(missingJoin)).rejects.toThrow(UserError);
    await expect(resolveLattice(missingJoin)).rejects.toThrow(/lattice from .*nojoin\.mjs: member 'join' is missing/);
    const badShow = file('badshow.mjs', `export default { ...${VALID}, show: 'nope' };`);
    await expect(resolveLattice(badShow)).rejects.toThrow(/badshow\.mjs: member 'show' must be a function/);
    const badFactoring = file('badf.mjs', `export default { ...${VALID}, factoring: { toI: (l) => l, toS: (l) => l } };`);
    await expect(resolveLattice(badFactoring)).rejects.toThrow(/member 'factoring\.pair' must be a function/);
    await expect(resolveLattice(file('num.mjs', 'export default 3;'))).rejects.toThrow(/the export is number, not a lattice object/);
  });

  it('validateLattice checks name, bottom, top and elements', () => {
    expect(() => validateLattice({ ...twoPoint, name: '' }, 'x')).toThrow(/member 'name' must be a non-empty string/);
    expect(() => validateLattice({ ...twoPoint, top: undefined }, 'x')).toThrow(/member 'top' is missing/);
    expect(() => validateLattice({ ...twoPoint, elements: 'LH' }, 'x')).toThrow(/member 'elements' must be an array/);
    expect(validateLattice(twoPoint, 'x')).toBe(twoPoint);
  });
});
