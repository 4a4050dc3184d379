/**
 * Broken semantics for the bridge's suites to catch (each a one-rule change against the reference,
 * marked `// CHANGED`, with one sentence saying what it breaks; src/variants/variant.ts).
 */
import type { Variant } from '../../variants/variant.ts';
import { pairOf, integrityOf, confidentialityOf } from '../../lattice/lattice.ts';
import { decodeLabel } from '../../semantics/rules.ts';

/**
 * Laundering: the consolidated memory is labelled by the writer's own claim. Recv runs the response at
 * the caller's pc instead of the conversation label lc, so nothing of the sources' (least) trust is joined
 * into the result: a writer answering `["USER_CONFIRMED"]:"User workflow memory: …"` after reading an
 * EXTERNAL page produces a USER_CONFIRMED memory. (The same rule change as the catalogue's `recv-at-pc`,
 * named here for what it does to a memory firewall.)
 */
export const consolidationTrustsWriter: Variant = {
  name: 'consolidation-trusts-writer',
  description: 'Recv runs the writer\'s response at pc, not at the conversation label: the memory carries whatever label the writer claims (memory provenance laundering).',
  rules: {
    Recv: (ev, pc, conv, _e, fuel) => {
      if (!ev.leq(pc, conv.label)) return ev.stuck('Recv', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
      return ev.sum(ev.responses(conv).map(([r, p]) => [p, ev.eval(pc /* CHANGED: was lc, the join of the sources */, ev.append(conv, r, conv.label), ev.parse(r), fuel)] as const));
    },
  },
};

/**
 * Confirmations ignored: Endorse keeps the value's own integrity, so a confirmed call stays blocked
 * (fail-closed, but benign confirmed work is lost).
 */
export const endorseKeepsIntegrity: Variant = {
  name: 'endorse-keeps-integrity',
  description: 'Endorse keeps the value\'s integrity instead of the endorsing label\'s: a same-target confirmation never upgrades (benign confirmed calls are blocked).',
  rules: {
    Endorse: (ev, pc, conv, e, fuel) =>
      ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
        const { n, l: l1, text } = decodeLabel(ev, v1);
        if (l1 === undefined) return ev.stuck('Endorse', `${text} is not a label of ${ev.lat.name}`);
        return ev.then(ev.eval(ev.join(pc, n), c1, e.body, fuel), (c2, v2) => {
          const kept = pairOf(ev.lat, integrityOf(ev.lat, v2.label) /* CHANGED: was l1← */, confidentialityOf(ev.lat, v2.label));
          return ev.ret(c2, ev.value(ev.join(pc, kept), v2.body));
        });
      }),
  },
};

/** The bridge's variants. */
export const BRIDGE_VARIANTS: readonly Variant[] = [consolidationTrustsWriter, endorseKeepsIntegrity];
