/**
 * A first-class rule for a primitive (docs/variants.md): the parser has no syntax for new constructs,
 * but a variant can give `prim "name" e` a rule of its own by replacing the Prim rule and delegating
 * every other primitive to the reference rule.
 *
 * Here `prim "declassify" e` returns e's value labelled with the pc only — the label too low. In the
 * primitive table (`prims`, used by --prims so that generated programs call it) `declassify` is the
 * identity: under the reference Prim rule it is harmless, under this rule it is a declassifier.
 *
 *   npx llmbda hunt --variant examples/declassify-variant.ts --prims examples/declassify-variant.ts
 */
import { REFERENCE_RULES } from 'llmbda-check/semantics';
import type { PrimTable } from 'llmbda-check/semantics';
import { defineVariant } from 'llmbda-check/variants';

/** `declassify` as a primitive: the identity on label-free values. */
export const prims: PrimTable = {
  declassify: (v) => ({ ok: true, value: v }),
};

export default defineVariant({
  name: 'prim-declassify',
  description: 'prim "declassify" e returns the value of e labelled pc only (a declassifier); other primitives keep the reference Prim rule.',
  rules: {
    Prim: (ev, pc, conv, e, fuel) => {
      if (e.name !== 'declassify') return REFERENCE_RULES.Prim(ev, pc, conv, e, fuel);
      // Declassify:  pc ⊢ C, e ⇓ C', V  ⟹  pc ⊢ C, prim "declassify" e ⇓ C', pc:wrapValues(stripLabels(V))
      return ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => ev.ret(c1, ev.value(pc, ev.wrap(ev.strip(v)))));
    },
  },
  expected: { leaksOn: ['two-point', 'powerset-us', 'chain(3)'], soundOn: [], caughtBy: 'tipni' },
});
