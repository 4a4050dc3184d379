// A consumer project's own test file, written against the installed package only (no path into it).
// test/package.test.ts copies it into a fresh folder that installs the packed tarball, typechecks it
// with a default-strict tsconfig, and runs it under vitest.
import { describe, expect, it } from 'vitest';
import {
  assertNoLeak, assertSuite, defineVariant, finiteLattice, PropertyFailure, referenceCtx, REFERENCE_RULES, variantCtx, type PrimTable,
} from 'llmbda-check';
import { tipni } from 'llmbda-check/properties';
import { Q } from 'llmbda-check/distributions';
import { sendAfter } from 'llmbda-check/variants';

/** A user's 4-element diamond: ⊥ ⊑ a, b ⊑ ⊤ (a and b incomparable). */
const diamond = finiteLattice({ name: 'diamond', elements: ['bot', 'a', 'b', 'top'], order: [['bot', 'a'], ['bot', 'b'], ['a', 'top'], ['b', 'top']] });

/** A user's primitive: the absolute value of a number (label-free in, label-free out). */
const prims: PrimTable = {
  abs: (v) => (v.kind === 'num' ? { ok: true, value: { kind: 'num', value: Q.lt(v.value, Q.ZERO) ? Q.neg(v.value) : v.value } } : { ok: false, reason: 'abs expects a number' }),
};

/** A user's rule change: Send forgets the no-sensitive-upgrade check (sends at pc ⊔ C's label only). */
const sendNoCheck = defineVariant({
  name: 'my-send-no-check',
  description: 'Send appends the message without requiring pc to flow to the conversation label.',
  rules: {
    Send: (ev, pc, conv, e, fuel) => ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => sendAfter(ev, ev.lat.bottom, c1, v)),
  },
});

describe('llmbda-check from a consumer project', () => {
  it('TIPNI holds on a user lattice', () => {
    expect(() => assertSuite(tipni, referenceCtx(diamond), { runs: 150, seed: 7 })).not.toThrow();
  });

  it('a user primitive is clean', async () => {
    await expect(assertNoLeak({ variant: 'reference', prims, lattices: ['powerset-us'], suite: 'tipni', runs: 150, seed: 3 })).resolves.toBeUndefined();
  });

  it('a user variant leaks, with a minimised readable report', async () => {
    expect(REFERENCE_RULES.Send).toBeTypeOf('function');
    const err = await assertNoLeak({ variant: sendNoCheck, lattices: ['powerset-us'], suite: 'tipni', runs: 2000, seed: 1 }).then(() => undefined, (e: unknown) => e);
    expect(PropertyFailure.is(err)).toBe(true);
    const msg = (err as Error).message;
    expect(msg).toMatch(/LEAK FOUND/);
    expect(msg).toMatch(/my-send-no-check/);
    expect(msg).toMatch(/run 0/);
    // The variant context works directly too.
    expect(variantCtx(diamond, sendNoCheck).semantics.name).toBe('my-send-no-check');
  });
});
