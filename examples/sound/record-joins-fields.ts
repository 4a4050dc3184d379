/**
 * A sound rule change (docs/variants.md, "Sound variants"): a record literal is labelled with the join of
 * pc and its fields' top labels, `pc ⊔ ℓ(V1) ⊔ … ⊔ ℓ(Vk)`, instead of `pc`.
 *
 * Why it cannot leak: as for array-joins-elements — related fields have equal low labels or high ones
 * on both sides, so the records' labels are equal and low or both high; a high context makes the record
 * high anyway. RecordCons is unchanged by ⇓♯'s construction (spec §7), so the rule is lifted into ⇓♯.
 *
 * Hunt it:  npx llmbda hunt --variant examples/sound/record-joins-fields.ts --suite all --time 60s
 */
import { defineVariant } from 'llmbda-check/variants';

export default defineVariant({
  name: 'record-joins-fields',
  description: 'RecordCons labels the record pc ⊔ ℓ(V1) ⊔ … ⊔ ℓ(Vk) instead of pc (sound: only more conservative).',
  rules: {
    RecordCons: (ev, pc, conv, e, fuel) => {
      const go = (i: number, c: typeof conv, acc: readonly ReturnType<typeof ev.unit>[]): ReturnType<typeof ev.ret> =>
        i === e.fields.length
          ? ev.ret(c, ev.value(acc.reduce((l, v) => ev.join(l, v.label), pc) /* CHANGED: was pc */,
            { kind: 'record', fields: acc.map((v, j) => ({ name: e.fields[j]!.name, expr: v })) }))
          : ev.then(ev.eval(pc, c, e.fields[i]!.expr, fuel), (c2, v) => go(i + 1, c2, [...acc, v]));
      return go(0, conv, []);
    },
  },
  expected: { leaksOn: [], soundOn: ['two-point', 'powerset-us', 'chain(3)'] },
});
