/**
 * A sound rule change (docs/variants.md, "Sound variants"): an array literal is labelled with the join of
 * pc and its elements' top labels, `pc ⊔ ℓ(V1) ⊔ … ⊔ ℓ(Vk)`, instead of `pc`.
 *
 * Why it cannot leak: the new label is a join of labels the observer already relates. For two related
 * runs in a low context the elements are `∼m`-related, so each pair of element labels is either equal
 * and low or both high, and a join with a high label is high: the two arrays get equal low labels, or both
 * get high ones (contents irrelevant). In a high context the array is high either way. Raising a label
 * only makes later checks more conservative. ArrayCons is a rule the skipping semantics ⇓♯ leaves
 * unchanged (spec §7), so the toolkit lifts this rule into ⇓♯ as it is: `--suite all` runs every suite.
 *
 * Hunt it:  npx llmbda hunt --variant examples/sound/array-joins-elements.ts --suite all --time 60s
 */
import { defineVariant } from 'llmbda-check/variants';

export default defineVariant({
  name: 'array-joins-elements',
  description: 'ArrayCons labels the array pc ⊔ ℓ(V1) ⊔ … ⊔ ℓ(Vk) instead of pc (sound: only more conservative).',
  rules: {
    ArrayCons: (ev, pc, conv, e, fuel) => {
      const go = (i: number, c: typeof conv, acc: readonly ReturnType<typeof ev.unit>[]): ReturnType<typeof ev.ret> =>
        i === e.elems.length
          ? ev.ret(c, ev.value(acc.reduce((l, v) => ev.join(l, v.label), pc) /* CHANGED: was pc */, { kind: 'array', elems: acc }))
          : ev.then(ev.eval(pc, c, e.elems[i]!, fuel), (c2, v) => go(i + 1, c2, [...acc, v]));
      return go(0, conv, []);
    },
  },
  expected: { leaksOn: [], soundOn: ['two-point', 'powerset-us', 'chain(3)'] },
});
