/**
 * Checking a primitive before shipping it: safe primitives keep the primEval contract and the theorem
 * suites hold on programs that call them; a stateful primitive (its label too low) breaks the contract
 * and leaks; a primitive returning code instead of a label-free value is reported; and a first-class
 * rule for `prim "declassify"` (a variant) is caught by TIPNI while the same primitive under the
 * reference Prim rule is harmless.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { runSuite } from '../src/runner/suite.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import type { PrimTable } from '../src/semantics/model.ts';
import { callPrims, contractViolation, injectPrimCalls, primContract, withPrims } from '../src/llmbda/prims.ts';
import { loadVariant, referenceCtxWith, variantCtx } from '../src/llmbda/variant-ctx.ts';
import { suiteNamed } from '../src/api/registry.ts';
import { hunt } from '../src/api/hunt.ts';
import { programOf, type PairCase } from '../src/generators/pairs.ts';
import { children } from '../src/syntax/helpers.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { REFERENCE } from '../src/semantics/rules.ts';
import { prims as SAFE } from '../examples/my-primitive.ts';
import { prims as BROKEN } from '../examples/broken-primitive.ts';
import { prims as DECLASSIFY_PRIMS } from '../examples/declassify-variant.ts';

const lat = latticeByName('powerset-us')!;

/** A primitive that returns code (`send "reminder"`), not a value. */
const RETURNS_CODE: PrimTable = {
  remind: () => ({ ok: true, value: { kind: 'send', arg: { kind: 'str', value: 'reminder' } } as never }),
};

function calls(e: Expr<unknown>, names: readonly string[]): number {
  return (e.kind === 'prim' && names.includes(e.name) ? 1 : 0) + children(e).reduce((n, c) => n + calls(c, names), 0);
}

describe('the primEval contract suite', () => {
  it('holds for the safe primitives strlen and max', () => {
    const v = runSuite(primContract, { prims: SAFE }, { runs: 500, seed: 1 });
    expect(v.counterexample).toBeUndefined();
    expect(v.ok).toBe(true);
  });

  it('fails, shrunk, on the stateful lastSeen (its result does not depend on its argument alone)', () => {
    const v = runSuite(primContract, { prims: BROKEN }, { runs: 500, seed: 1 });
    expect(v.counterexample?.reason).toMatch(/^lastSeen is not a function of its argument/);
    expect(v.counterexample!.shrinks).toBeGreaterThan(0);
  });

  it('fails on a primitive that returns code instead of a label-free value', () => {
    const v = runSuite(primContract, { prims: RETURNS_CODE }, { runs: 50, seed: 1 });
    expect(v.counterexample?.reason).toMatch(/remind.*is code \(send\), not a value/);
    expect(contractViolation({ kind: 'label', label: 0, body: { kind: 'num' } })).toMatch(/carries a label/);
  });
});

describe('the theorem suites on programs that call new primitives', () => {
  it('generated programs really call them', () => {
    const names = Object.keys(SAFE);
    const sample = fc.sample(injectPrimCalls(suiteNamed('tipni').arbitrary(referenceCtxWith(lat) as never), names), { numRuns: 300, seed: 2 }) as PairCase<unknown>[];
    const calling = sample.filter((c) => calls(programOf(c, 0), names) > 0).length;
    expect(calling / sample.length).toBeGreaterThan(0.1);
    expect(calls(callPrims({ kind: 'prim', name: 'toStr', arg: { kind: 'prim', name: 'shape', arg: { kind: 'num' } as never } }, names), names)).toBe(2);
  });

  it('safe primitives: a hunt over Confinement and TIPNI on the reference finds nothing', async () => {
    for (const suite of ['confinement', 'tipni']) {
      const r = await hunt({ variant: 'reference', prims: SAFE, suite, lattices: ['powerset-us'], runs: 400, seed: 3 });
      expect(r.found, r.report).toBe(false);
      expect(r.searched.map((s) => s.suite)).toEqual(['prim-contract', suite]);
    }
  });

  it('the stateful primitive leaks under TIPNI too (the reference Prim rule trusts the contract)', () => {
    const ctx = referenceCtxWith(lat, { prims: BROKEN });
    const suite = { ...suiteNamed('tipni'), arbitrary: (c: never) => injectPrimCalls(suiteNamed('tipni').arbitrary(c), ['lastSeen']) };
    const v = runSuite(suite, ctx, { runs: 2000, seed: 4, noShrink: true });
    expect(v.counterexample?.reason).toMatch(/incompatible/);
  });

  it('a primitive returning code is reported as a contract violation during evaluation', () => {
    const ctx = { ...referenceCtxWith(lat), semantics: withPrims(REFERENCE, RETURNS_CODE) };
    const suite = { ...suiteNamed('confinement'), arbitrary: (c: never) => injectPrimCalls(suiteNamed('confinement').arbitrary(c), ['remind']) };
    const v = runSuite(suite, ctx, { runs: 500, seed: 5 });
    expect(v.counterexample?.reason).toMatch(/^exception: primitive "remind" broke the primEval contract/);
  });

  it('a first-class rule for prim "declassify" is caught by TIPNI; the same primitive under the reference rule is not', async () => {
    const r = await hunt({ variant: 'examples/declassify-variant.ts', prims: DECLASSIFY_PRIMS, lattices: ['powerset-us'], seed: 1, timeMs: 20_000 });
    expect(r.found).toBe(true);
    expect(r.finding!.suite).toBe('tipni');
    expect(r.finding!.entry.programs.join(' ')).toContain('prim "declassify"');
    const ref = await hunt({ variant: 'reference', prims: DECLASSIFY_PRIMS, lattices: ['powerset-us'], runs: 400, seed: 1 });
    expect(ref.found).toBe(false);
    expect((await loadVariant('examples/declassify-variant.ts')).name).toBe('prim-declassify');
    expect(variantCtx(lat, await loadVariant('examples/declassify-variant.ts')).semantics.name).toBe('prim-declassify');
  });
});
