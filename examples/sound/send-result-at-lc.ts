/**
 * A sound rule change (docs/variants.md, "Sound variants") that shows the other half of "no false
 * alarms": `send` returns `(pc ⊔ lc):{}` instead of `pc:{}`.
 *
 * Why it cannot leak: the unit's body is always `{}`; its label is `pc ⊔ lc`, and `lc` is the label of
 * the conversation before the send — equal in two related runs when low, high on both sides otherwise
 * (then the join is high on both sides too). Confinement holds (`pc ⊑ pc ⊔ lc`).
 *
 * Send is a rule ⇓♯ changes (spec §7), and this file gives no `skippingRules.Send`: so the suites that
 * need ⇓♯ (stripping, high-blindness, lemma13) refuse it — named, they exit with "this suite needs
 * skipping rules for send-result-at-lc"; under `--suite all` they are left out and the report says so.
 *
 * Hunt it:  npx llmbda hunt --variant examples/sound/send-result-at-lc.ts --suite all --time 60s
 */
import { defineVariant } from 'llmbda-check/variants';

export default defineVariant({
  name: 'send-result-at-lc',
  description: 'Send returns (pc ⊔ lc):{} instead of pc:{} (sound: only more conservative).',
  rules: {
    Send: (ev, pc, conv, e, fuel) =>
      ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => {
        if (!ev.leq(pc, c1.label)) return ev.stuck('Send', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(c1.label)}`);
        const { label: n, plain } = ev.flatten(v);
        return ev.ret(ev.append(c1, ev.serialise(plain), ev.join(c1.label, n)), ev.unit(ev.join(pc, c1.label)) /* CHANGED: was pc */);
      }),
  },
  expected: { leaksOn: [], soundOn: ['two-point', 'powerset-us', 'chain(3)'] },
});
