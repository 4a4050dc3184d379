/**
 * A user-written variant (see docs/variants.md, "Writing your own variant"): what if a static label
 * `l:e` labelled only the VALUE of `e`, instead of running `e` at `pc ⊔ l`? It is a tempting
 * shortcut ("the label is about the data"), and it is wrong: effects inside `e` — a send, a clear —
 * now happen at the outer pc, so they are not checked against the label, and the conversation shows
 * what the labelled computation did.
 *
 * Hunt it:      npx llmbda hunt --variant examples/my-variant.ts
 * Run with it:  npx llmbda run examples/fenton-denning.lam --variant examples/my-variant.ts
 */
import { defineVariant } from 'llmbda-check/variants';

export default defineVariant({
  name: 'labelled-value-only',
  description: 'Labelled runs e at pc and labels only its result with l (instead of running e at pc ⊔ l).',
  rules: {
    // The reference rule is `pc ⊔ l ⊢ C, e ⇓ C', V  ⟹  pc ⊢ C, l:e ⇓ C', V` (src/semantics/rules.ts, ruleLabelled).
    Labelled: (ev, pc, conv, e, fuel) =>
      ev.then(ev.eval(pc /* CHANGED: was pc ⊔ l */, conv, e.body, fuel), (c1, v) => ev.ret(c1, ev.raise(e.label, v))),
  },
  // What we expect, so `llmbda hunt` knows which suite and lattices to try first.
  expected: { leaksOn: ['two-point', 'powerset-us', 'chain(3)'], soundOn: [], caughtBy: 'tipni' },
});
