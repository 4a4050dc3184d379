/**
 * bounded_endorse lets at most log2 n bits cross (paper, Appendix E; src/endorse). On `powerset-use`:
 *
 *   let x = ["U"]:v                       v drawn uniformly from a domain D of small integers
 *   let y = bounded_endorse [d1, …, dn] x
 *   C[y]                                  C generated over y: arithmetic, arrays, branches, conversations
 *
 * The channel v → the `["S"]` observer's view (clean data only: no U, no E; non-termination is one more
 * observation) has multiplicative capacity `Σ_o max_v P(o|v) ≤ |D ∩ dom| + [D ⊄ dom]`: y takes one value per
 * domain element hit plus "refused", and C only post-processes y. So the min-entropy leakage is at most
 * log2 n bits when D ⊆ dom (the paper's setting), log2(n + 1) counting the refusal. Checked exactly.
 */
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { powersetUSE, USE } from '../src/lattice/instances.ts';
import { observe } from '../src/observe/indist.ts';
import { channelOfObservations } from '../src/leakage/channel.ts';
import { multiplicativeCapacity, type Capacity } from '../src/leakage/measures.ts';
import { contextArb, runSource, type EndorseCtx, type ModelName } from '../src/endorse/cases.ts';

export interface BoundedCase {
  readonly dom: readonly number[];
  /** The secret's domain (uniform prior). */
  readonly secrets: readonly number[];
  readonly context: string;
  readonly model: ModelName;
}

/** The observer: clean data of any confidentiality. */
const OBSERVER = USE.S;

export function boundedSource(c: BoundedCase, v: number): string {
  return `let x = ["U"]:${v}\nlet y = bounded_endorse [${c.dom.join(', ')}] x\n${c.context}\n`;
}

/** `|D ∩ dom| + [D ⊄ dom]`: how many outcomes bounded_endorse can have on D. */
export function boundedOutcomes(c: BoundedCase): number {
  const hit = c.secrets.filter((s) => c.dom.includes(s)).length;
  return hit + (hit < c.secrets.length ? 1 : 0);
}

const cache = new WeakMap<BoundedCase, Map<string, Capacity>>();
function capacity(c: BoundedCase, ctx: EndorseCtx): Capacity {
  let m = cache.get(c);
  if (!m) { m = new Map(); cache.set(c, m); }
  const hit = m.get(ctx.prelude);
  if (hit) return hit;
  const observed = c.secrets.map((v) => observe(powersetUSE, OBSERVER, runSource(ctx, c.model, boundedSource(c, v), 160).finals));
  const cap = multiplicativeCapacity(channelOfObservations(c.secrets.map(String), observed));
  m.set(ctx.prelude, cap);
  return cap;
}

const distinctInts = (min: number, max: number) => fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: min, maxLength: max });

export const endorseBounded: PropertySuite<BoundedCase, EndorseCtx> = {
  name: 'endorse-bounded',
  caseKind: 'endorse-bounded',
  title: 'Appendix E: bounded_endorse over n values leaks at most log2 n bits (capacity ≤ |D ∩ dom| + [D ⊄ dom])',
  arbitrary: () =>
    fc.record({
      dom: distinctInts(1, 4),
      secrets: distinctInts(2, 6),
      context: contextArb(['y'], false),
      model: fc.constantFrom<ModelName>('echo', 'coin'),
    }),
  check: (c, ctx) => {
    const cap = capacity(c, ctx);
    const bound = boundedOutcomes(c);
    if (Q.le(cap.sum, Q.rat(bound))) return HOLDS;
    return fails(`capacity ${Q.show(cap.sum)} (${cap.bits.toFixed(6)} bits) exceeds ${bound} outcomes (${Math.log2(bound).toFixed(6)} bits) for dom [${c.dom.join(', ')}] and secrets {${c.secrets.join(', ')}}`);
  },
  show: (c) => `model ${c.model}; secret v uniform over {${c.secrets.join(', ')}}\n${boundedSource(c, c.secrets[0]!).replace(/^let x = \["U"\]:\d+/, 'let x = ["U"]:v')}`,
  stats: (c, ctx) => {
    const cap = capacity(c, ctx);
    return {
      'leaks some bits': Q.lt(Q.ONE, cap.sum),
      'bound reached': Q.eq(cap.sum, Q.rat(boundedOutcomes(c))),
      'secrets outside the domain': c.secrets.some((s) => !c.dom.includes(s)),
    };
  },
  thresholds: { 'leaks some bits': 0.2 },
};
