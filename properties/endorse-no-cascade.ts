/**
 * robust_endorse never cascades (paper, Appendix E; src/endorse). On `powerset-use`:
 *
 *   let a  = robust_endorse (["U"]:V1)      the one legitimate endorsement
 *   let x2 = ["U"]:V2                       more untrusted data
 *   robust_endorse C[a, x2]                 C generated: arithmetic, arrays, branches, conversations,
 *                                           label tests, further robust_endorse calls
 *
 * Claim: the final (twice-endorsed) value never depends on `a`: for V1 ≠ V1', the two runs' final values,
 * observed at `["S","E"]` (endorsed and clean data, no untrusted parts), are compatible (⌣, TIPNI's
 * conclusion, so only termination may differ). Why it should hold: `a` carries E, E is only ever added
 * (joins, pc, conversations), robust_endorse refuses anything with E inside it or in the pc, so whatever
 * the second call endorses was computed without looking at `a` (Theorem 1 at the E-blind observer
 * `["U","S"]`). A robust_endorse that forgets the E check, or does not mark E, launders `a + x2`.
 */
import fc from 'fast-check';
import { compatible, pushforward, type SubDist } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { powersetUSE, USE } from '../src/lattice/instances.ts';
import { eraseExpr } from '../src/observe/indist.ts';
import { showObserved } from '../src/llmbda/observed.ts';
import { contextArb, runSource, type EndorseCtx, type ModelName } from '../src/endorse/cases.ts';

export interface NoCascadeCase {
  readonly v1: number;
  readonly v1b: number;
  readonly v2: number;
  readonly context: string;
  readonly model: ModelName;
}

/** The observer of the final value: endorsed or clean, secret or not, never untrusted. */
const OBSERVER = USE.S | USE.E;

export function noCascadeSource(c: NoCascadeCase, side: 0 | 1): string {
  return `let a = robust_endorse (["U"]:${side === 0 ? c.v1 : c.v1b})\nlet x2 = ["U"]:${c.v2}\nrobust_endorse ${c.context}\n`;
}

function finals(c: NoCascadeCase, ctx: EndorseCtx, side: 0 | 1): SubDist<string> {
  const r = runSource(ctx, c.model, noCascadeSource(c, side));
  return pushforward(r.finals, (f) => eraseExpr(powersetUSE, OBSERVER, f.value));
}

const cache = new WeakMap<NoCascadeCase, Map<string, readonly [SubDist<string>, SubDist<string>]>>();
function both(c: NoCascadeCase, ctx: EndorseCtx): readonly [SubDist<string>, SubDist<string>] {
  let m = cache.get(c);
  if (!m) { m = new Map(); cache.set(c, m); }
  const hit = m.get(ctx.prelude);
  if (hit) return hit;
  const out = [finals(c, ctx, 0), finals(c, ctx, 1)] as const;
  m.set(ctx.prelude, out);
  return out;
}

export const endorseNoCascade: PropertySuite<NoCascadeCase, EndorseCtx> = {
  name: 'endorse-no-cascade',
  caseKind: 'endorse-no-cascade',
  title: 'Appendix E: robust_endorse never cascades (a twice-endorsed value does not depend on the first endorsement)',
  arbitrary: () =>
    fc.record({
      v1: fc.integer({ min: 0, max: 3 }),
      v1b: fc.integer({ min: 0, max: 3 }),
      v2: fc.integer({ min: 0, max: 3 }),
      context: contextArb(['a', 'x2'], true),
      model: fc.constantFrom<ModelName>('echo', 'coin'),
    }).filter((c) => c.v1 !== c.v1b),
  check: (c, ctx) => {
    const [mu, nu] = both(c, ctx);
    if (compatible(mu, nu)) return HOLDS;
    return fails(`the twice-endorsed result depends on the first endorsement (a = ${c.v1} vs ${c.v1b}): observations at ["S","E"] are incompatible\n${showObserved(mu, nu)}`);
  },
  show: (c) => `model ${c.model}\n--- run 0 ---\n${noCascadeSource(c, 0)}--- run 1 ---\n${noCascadeSource(c, 1)}`,
  stats: (c, ctx) => {
    const [mu, nu] = both(c, ctx);
    return {
      'second endorsement succeeds': !isEmpty(mu) && !isEmpty(nu),
      'context mentions a': /\ba\b/.test(c.context),
      'context mentions a and succeeds': /\ba\b/.test(c.context) && !isEmpty(mu),
    };
  },
  thresholds: { 'second endorsement succeeds': 0.2, 'context mentions a and succeeds': 0.03 },
};

function isEmpty(d: SubDist<string>): boolean {
  return d.size === 0;
}
