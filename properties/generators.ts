/**
 * Meta-properties of the pair generator (QuickChick's "test the generators"): every generated pair is
 * `∼m`-related (programs and conversations), and the programs are not vacuous — every construct of the
 * core grammar (and the derived shapes let / if / @) appears in at least 5 % of generated programs.
 * (That shrinking keeps pairs related is checked in test/generators*.test.ts, where the shrink tree is walked.)
 */
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, programOf, conversationOf, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { eraseExpr, indistConversation } from '../src/observe/indist.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { ALL_KINDS, forEachChild } from '../src/syntax/helpers.ts';

/** The constructs a program uses: expression kinds plus the derived shapes the parser produces. */
export function constructsOf<L>(e: Expr<L>): Set<string> {
  const seen = new Set<string>();
  const go = (e: Expr<L>): void => {
    seen.add(e.kind);
    if (e.kind === 'app') {
      if (e.fn.kind === 'lam' && e.fn.param !== '_') seen.add('let');
      if (e.fn.kind === 'lam' && e.fn.body.kind === 'recv' && e.arg.kind === 'send') seen.add('@');
      if (e.fn.kind === 'app' && e.fn.fn.kind === 'app' && e.fn.fn.fn.kind === 'prim' && e.fn.fn.fn.name === 'fromBool') seen.add('if');
    }
    forEachChild(e, go);
  };
  go(e);
  return seen;
}

const CONSTRUCTS = [...ALL_KINDS, 'let', 'if', '@'];

export const generators: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'generators',
  caseKind: 'pair',
  title: 'Generator meta-properties: pairs are ∼m-related; every construct in ≥ 5 % of programs',
  // endorse on: this suite covers every construct
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: true, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const e0 = eraseExpr(ctx.lat, c.obs, programOf(c, 0));
    const e1 = eraseExpr(ctx.lat, c.obs, programOf(c, 1));
    if (e0 !== e1) return fails(`programs are not ∼m-related:\n  ${e0}\n  ${e1}`);
    if (!indistConversation(ctx.lat, c.obs, conversationOf(c, 0), conversationOf(c, 1))) return fails('conversations are not ∼m-related');
    return HOLDS;
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c) => {
    const seen = constructsOf(programOf(c, 0));
    return Object.fromEntries(CONSTRUCTS.map((k) => [k, seen.has(k)]));
  },
  thresholds: Object.fromEntries(CONSTRUCTS.map((k) => [k, 0.05])),
};
