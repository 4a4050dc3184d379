/**
 * Adding primitives, and checking them before shipping (docs/variants.md, "Your own primitive").
 *
 * A primitive is an entry of the model's primitive table `primEval` (spec §4): it receives the
 * argument with every label stripped and returns a label-free value, or fails (the run is stuck). The
 * Prim rule then labels the result `pc ⊔ deepLabel(V)`, so a primitive that keeps this contract cannot
 * leak. These two do: `strlen` and `max`.
 *
 * Check them:   npx llmbda hunt --variant reference --prims examples/my-primitive.ts --suite all --time 60s
 * (the hunt first checks the primEval contract, then runs the theorem suites with generated programs
 *  that call `strlen` and `max`; a clean bill means no counterexample was found.)
 *
 * Programmatically: `withPrims(semantics, prims)` (src/llmbda/prims.ts) adds the table to every model.
 */
import { Q } from 'llmbda-check/distributions';
import type { PlainValue } from 'llmbda-check/syntax';
import type { PrimResult, PrimTable } from 'llmbda-check/semantics';

const ok = (value: PlainValue): PrimResult => ({ ok: true, value });
const fail = (reason: string): PrimResult => ({ ok: false, reason });

/** The primitives to add: `prim "strlen" s` and `prim "max" [a, b]`. */
export const prims: PrimTable = {
  strlen: (v) => (v.kind === 'str' ? ok({ kind: 'num', value: Q.rat([...v.value].length) }) : fail(`strlen expects a string, got ${v.kind}`)),
  max: (v) => {
    if (v.kind !== 'array' || v.elems.length !== 2) return fail('max expects [a, b]');
    const [a, b] = v.elems as [PlainValue, PlainValue];
    if (a.kind !== 'num' || b.kind !== 'num') return fail('max expects two numbers');
    return ok(Q.lt(a.value, b.value) ? b : a);
  },
};
