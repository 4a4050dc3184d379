/**
 * A sound rule change (docs/variants.md, "Sound variants"): `clear` empties the conversation but keeps
 * its label `lc` instead of resetting it to `pc` (recall `pc ⊑ lc` is checked, so `lc` is the higher).
 *
 * Why it cannot leak: if `lc ⊑ m` the two related runs have the same conversation, so the same `lc`; if
 * `lc ⋢ m` on both sides the cleared conversations are both high and empty, which m cannot tell apart,
 * and stay high (only more conservative than the reference, which may make them visible at pc).
 * Confinement holds as `pc ⊑ lc`. Clear is a rule ⇓♯ changes (spec §7: a high conversation is cleared
 * without the check), so the variant gives its ⇓♯ rule itself, the same change made to Clear♯.
 *
 * Hunt it:  npx llmbda hunt --variant examples/sound/clear-keeps-label.ts --suite all --time 60s
 */
import { defineVariant } from 'llmbda-check/variants';

export default defineVariant({
  name: 'clear-keeps-label',
  description: 'Clear empties the conversation but keeps its label lc instead of resetting it to pc (sound: lc ⊒ pc).',
  rules: {
    Clear: (ev, pc, conv) => {
      if (!ev.leq(pc, conv.label)) return ev.stuck('Clear', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
      return ev.ret({ label: conv.label /* CHANGED: was pc */, msgs: null }, ev.unit(pc));
    },
  },
  skippingRules: {
    // Clear♯ (spec §7, rule 5) with the same change: lc ⋢ m ⟹ lc:ε, pc:{} with no check.
    Clear: (ev, pc, conv) => {
      const high = ev.observer !== undefined && !ev.leq(conv.label, ev.observer);
      if (!high && !ev.leq(pc, conv.label)) return ev.stuck('Clear', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
      return ev.ret({ label: conv.label, msgs: null }, ev.unit(pc));
    },
  },
  expected: { leaksOn: [], soundOn: ['two-point', 'powerset-us', 'chain(3)'] },
});
