/**
 * A primitive that must NOT ship, and how the checks catch it (docs/variants.md, "Your own primitive").
 *
 * `lastSeen` is a "cache" tool: it returns the argument of its PREVIOUS call and remembers the current
 * one. Its result does not depend on its argument alone, so the label the Prim rule gives it
 * (`pc ⊔ deepLabel(argument)`) is too low: `[lastSeen(secret), lastSeen(0)]` hands the secret back
 * labelled with the label of `0`.
 *
 *   npx llmbda hunt --variant reference --prims examples/broken-primitive.ts
 *
 * finds it twice over: the primEval contract check sees that the same argument gives different results,
 * and the theorem suites find a leak in programs that call it.
 */
import type { PlainValue } from 'llmbda-check/syntax';
import type { PrimTable } from 'llmbda-check/semantics';

let previous: PlainValue = { kind: 'null' };

/** The broken table. */
export const prims: PrimTable = {
  lastSeen: (v) => {
    const out = previous;
    previous = v;
    return { ok: true, value: out };
  },
};
