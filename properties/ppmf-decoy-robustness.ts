/**
 * Decoy robustness: adding up to 20 same-domain decoy memories (trusted user memories naming other
 * targets) never turns a call that was not allowed into an allowed one. Decoys change what top-k
 * retrieval returns; the agent proposes the call only when a retrieved memory names its targets.
 */
import fc from 'fast-check';
import type { PropertySuite } from '../src/runner/suite.ts';
import { HOLDS, fails } from '../src/runner/suite.ts';
import type { DecoySpec } from '../src/ppmf/generators.ts';
import { arbDecoySpec, arbScenario, decoysFor } from '../src/ppmf/generators.ts';
import { showDecision } from '../src/ppmf/gate.ts';
import type { Branch, Scenario } from '../src/ppmf/scenario.ts';
import { allowed, runBranch } from '../src/ppmf/scenario.ts';
import type { PpmfCtx } from './ppmf-truth.ts';
import { story } from './ppmf-truth.ts';
import { Recent } from '../src/runner/recent.ts';

/** A scenario (without decoys) and the decoys to add. */
export interface DecoyCase {
  readonly scenario: Scenario;
  readonly decoys: DecoySpec;
}

/** A case's scenario with its decoys, and its branches with decoys by writer response under `system` (filled as needed). */
interface Decoyed {
  readonly scenario: Scenario;
  system: PpmfCtx['system'] | undefined;
  after: (Branch | undefined)[];
}

/**
 * The last few cases' decoyed scenarios: a case's `stats` and `check` (and `show`) share one, so its decoys are
 * made once and their stored records (`priorRecord`, cached per decoy object) built once, and the first response's
 * branch with decoys, which both run, is run once (the suite took ≈ 0.55 ms a case, most of it in these).
 */
const decoyed = new Recent<DecoyCase, Decoyed>();

function withDecoys(c: DecoyCase): Decoyed {
  let d = decoyed.get(c);
  if (d === undefined) {
    d = { scenario: { ...c.scenario, decoys: decoysFor(c.scenario, c.decoys) }, system: undefined, after: [] };
    decoyed.set(c, d);
  }
  return d;
}

/** The branch of writer response `i` with the case's decoys, run once per case. */
function afterBranch(c: DecoyCase, ctx: PpmfCtx, i: number): Branch {
  const d = withDecoys(c);
  // Branches depend on the system: a case checked under another one (a replay against a variant) starts afresh.
  if (d.system !== ctx.system) { d.system = ctx.system; d.after = []; }
  let b = d.after[i];
  if (b === undefined) {
    const r = c.scenario.writer.responses[i]!;
    b = runBranch(ctx.system, d.scenario, r.rewrite, r.weight);
    d.after[i] = b;
  }
  return b;
}

function firstFlip(c: DecoyCase, ctx: PpmfCtx): { before: Branch; after: Branch } | undefined {
  const rs = c.scenario.writer.responses;
  for (let i = 0; i < rs.length; i++) {
    const after = afterBranch(c, ctx, i);
    if (!allowed(after)) continue;
    const before = runBranch(ctx.system, c.scenario, rs[i]!.rewrite, rs[i]!.weight);
    if (!allowed(before)) return { before, after };
  }
  return undefined;
}

/** The decoy-robustness suite. */
export const ppmfDecoyRobustness: PropertySuite<DecoyCase, PpmfCtx> = {
  name: 'ppmf-decoy-robustness',
  caseKind: 'ppmf-decoys',
  title: 'PPMF decoy robustness: adding ≤ 20 same-domain decoys never turns a deny into an allow',
  arbitrary: () => fc.record({ scenario: arbScenario, decoys: arbDecoySpec }),
  check: (c, ctx) => {
    const f = firstFlip(c, ctx);
    return f === undefined ? HOLDS : fails(`without decoys: ${f.before.proposed ? showDecision(f.before.decision) : 'not proposed'}; with ${c.decoys.count} decoys: ${showDecision(f.after.decision)}`);
  },
  show: (c, ctx) => {
    const f = firstFlip(c, ctx);
    const before = f === undefined ? '' : `Without decoys the call was ${f.before.proposed ? showDecision(f.before.decision) : 'not proposed'}; with ${c.decoys.count} decoys:`;
    return story(ctx, withDecoys(c).scenario, f?.after, [before]);
  },
  stats: (c, ctx) => {
    const after = c.scenario.writer.responses.length === 0 ? undefined : afterBranch(c, ctx, 0);
    return {
      'has decoys': c.decoys.count > 0,
      'a decoy is retrieved': after !== undefined && after.retrieved.some((m) => m.id.startsWith('decoy-')),
      'attack scenario': c.scenario.kind === 'attack',
    };
  },
  thresholds: { 'has decoys': 0.5, 'a decoy is retrieved': 0.3 },
};
