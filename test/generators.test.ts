/**
 * Meta-properties of the generators (QuickChick's "test the generators"): generated pairs are
 * `∼m`-related, shrinking keeps them related (every value fast-check shows the predicate, shrink
 * candidates included), every construct appears often enough, the pairs are not vacuous (raw outcomes
 * differ, runs have mass), and shrunk counterexamples are small.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { equals } from '../src/distributions/subdist.ts';
import type { Expr } from '../src/syntax/ast.ts';
import type { AnyLattice, Lattice } from '../src/lattice/lattice.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { pairArb, singleArb, programOf, conversationOf, type PairCase } from '../src/generators/pairs.ts';
import { hasHole } from '../src/generators/programs.ts';
import { eraseExpr, indistConversation } from '../src/observe/indist.ts';
import { referenceCtx, runSide } from '../src/llmbda/context.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import { ALL_KINDS, size } from '../src/syntax/helpers.ts';
import { llmbdaSuiteByName } from '../src/api/registry.ts';
import { runSuite } from '../src/runner/suite.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import { absurd } from '../src/util/absurd.ts';

const lattices = SHIPPED_LATTICES.map((n) => [n, latticeByName(n)!] as const);

/**
 * `e0 ∼n e1` straight from the spec's definition (independent of the erasure procedure):
 * `l:e0 ∼n m:e1` when `l ⋢ n` and `m ⋢ n`; otherwise structural congruence.
 */
function related<L>(lat: Lattice<L>, n: L, a: Expr<L>, b: Expr<L>): boolean {
  if (a.kind === 'label' && b.kind === 'label' && !lat.leq(a.label, n) && !lat.leq(b.label, n)) return true;
  if (a.kind !== b.kind) return false;
  const r = (x: Expr<L>, y: Expr<L>): boolean => related(lat, n, x, y);
  switch (a.kind) {
    case 'var': return a.name === (b as typeof a).name;
    case 'lam': return a.param === (b as typeof a).param && r(a.body, (b as typeof a).body);
    case 'app': return r(a.fn, (b as typeof a).fn) && r(a.arg, (b as typeof a).arg);
    case 'send': return r(a.arg, (b as typeof a).arg);
    case 'recv': case 'clear': return true;
    case 'fork': return r(a.body, (b as typeof a).body);
    case 'label': return lat.equals(a.label, (b as typeof a).label) && r(a.body, (b as typeof a).body);
    case 'dynlabel': case 'test': case 'assert': case 'endorse': {
      const bb = b as typeof a;
      return r(a.label, bb.label) && r(a.body, bb.body);
    }
    case 'num': return Q.eq(a.value, (b as typeof a).value);
    case 'str': return a.value === (b as typeof a).value;
    case 'bool': return a.value === (b as typeof a).value;
    case 'null': return true;
    case 'prim': return a.name === (b as typeof a).name && r(a.arg, (b as typeof a).arg);
    case 'record': {
      const bf = (b as typeof a).fields;
      return a.fields.length === bf.length && a.fields.every((f, i) => f.name === bf[i]!.name && r(f.expr, bf[i]!.expr));
    }
    case 'array': {
      const be = (b as typeof a).elems;
      return a.elems.length === be.length && a.elems.every((x, i) => r(x, be[i]!));
    }
    case 'field': return a.name === (b as typeof a).name && r(a.target, (b as typeof a).target);
    case 'index': return r(a.target, (b as typeof a).target) && r(a.index, (b as typeof a).index);
    default: return absurd(a);
  }
}

/** Both relations the project uses agree that the pair's programs and conversations are related. */
function pairRelated(lat: AnyLattice, c: PairCase<unknown>): boolean {
  const p0 = programOf(c, 0), p1 = programOf(c, 1);
  return related(lat, c.obs, p0, p1)
    && eraseExpr(lat, c.obs, p0) === eraseExpr(lat, c.obs, p1)
    && indistConversation(lat, c.obs, conversationOf(c, 0), conversationOf(c, 1));
}

/** The constructs of a program: core kinds plus the derived shapes let / if / @ as the parser expands them. */
function constructs<L>(e: Expr<L>): Set<string> {
  const seen = new Set<string>();
  const stack: Expr<L>[] = [e];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    seen.add(x.kind);
    switch (x.kind) {
      case 'var': case 'recv': case 'clear': case 'num': case 'str': case 'bool': case 'null': break;
      case 'lam': stack.push(x.body); break;
      case 'app': {
        const f = x.fn;
        if (f.kind === 'lam' && f.param !== '_') seen.add('let');                                     // (λx. e2) e1
        if (f.kind === 'lam' && f.param === '_' && f.body.kind === 'recv' && x.arg.kind === 'send') seen.add('@'); // (λ_. recv) (send e)
        if (f.kind === 'app' && f.fn.kind === 'app' && f.fn.fn.kind === 'prim' && f.fn.fn.name === 'fromBool') seen.add('if');
        stack.push(x.fn, x.arg);
        break;
      }
      case 'send': stack.push(x.arg); break;
      case 'fork': case 'label': stack.push(x.body); break;
      case 'dynlabel': case 'test': case 'assert': case 'endorse': stack.push(x.label, x.body); break;
      case 'prim': stack.push(x.arg); break;
      case 'record': for (const f of x.fields) stack.push(f.expr); break;
      case 'array': stack.push(...x.elems); break;
      case 'field': stack.push(x.target); break;
      case 'index': stack.push(x.target, x.index); break;
      default: absurd(x);
    }
  }
  return seen;
}

describe.each(lattices)('pair generator on %s', (_name, lat) => {
  it('generated pairs are ∼m-related (programs by the spec\'s definition and by erasure; conversations)', () => {
    for (const endorse of [false, true]) {
      fc.assert(fc.property(pairArb({ lat, endorse }), (c) => pairRelated(lat, c)), { numRuns: 300, seed: 7 });
    }
  });

  it('shrinking keeps pairs related: every value the predicate sees, shrink candidates included', () => {
    let seen = 0;
    const unrelated: PairCase<unknown>[] = [];
    // The predicate fails on every pair with a hole, so fast-check shrinks, showing it each candidate.
    const details = fc.check(fc.property(pairArb({ lat, endorse: true }), (c) => {
      seen++;
      if (!pairRelated(lat, c)) unrelated.push(c);
      return !hasHole(c.skeleton);
    }), { numRuns: 200, seed: 11 });
    expect(details.failed).toBe(true);
    expect(details.numShrinks).toBeGreaterThan(0);
    expect(seen).toBeGreaterThan(details.numRuns); // shrink candidates were shown too
    expect(unrelated).toEqual([]);
  });
});

describe('generated programs are not vacuous', () => {
  const CONSTRUCTS = [...ALL_KINDS, 'let', 'if', '@'];
  const N = 400;

  it.each(lattices)('every construct (each Expr kind, and let / if / @) is in ≥ 1/20 of programs on %s', (_n, lat) => {
    const generators = {
      'pairs (endorse on)': fc.sample(pairArb({ lat, endorse: true }), { numRuns: N, seed: 3 }).map((c) => programOf(c, 0)),
      'single programs': fc.sample(singleArb({ lat, endorse: true }), { numRuns: N, seed: 3 }).map((c) => c.expr),
    };
    for (const [which, programs] of Object.entries(generators)) {
      const count = new Map<string, number>();
      for (const p of programs) for (const k of constructs(p)) count.set(k, (count.get(k) ?? 0) + 1);
      for (const k of CONSTRUCTS) {
        expect((count.get(k) ?? 0) / N, `${which}: ${k}`).toBeGreaterThanOrEqual(0.05);
      }
    }
  });

  it.each(lattices)('on %s: ≥ 1/3 of pairs have differing raw outcome distributions, ≥ 1/2 of runs end with positive mass', (_n, lat) => {
    const ctx = referenceCtx(lat);
    const cases = fc.sample(pairArb({ lat, endorse: !lat.factoring }), { numRuns: 300, seed: 5 });
    let judged = 0, differ = 0, positive = 0, runs = 0;
    for (const c of cases) {
      let e0, e1;
      try {
        e0 = runSide(ctx, c, 0);
        e1 = runSide(ctx, c, 1);
      } catch (e) {
        if (e instanceof BudgetExceeded) continue; // the suites discard these too
        throw e;
      }
      judged++;
      if (!equals(e0.finals, e1.finals)) differ++;
      for (const e of [e0, e1]) { runs++; if (Q.lt(Q.ZERO, e.mass)) positive++; }
    }
    expect(judged).toBeGreaterThan(cases.length * 0.9);
    expect(differ / judged).toBeGreaterThanOrEqual(1 / 3);
    expect(positive / runs).toBeGreaterThanOrEqual(1 / 2);
  });
});

describe('shrunk counterexamples are small and readable', () => {
  it.each([
    ['tipni', 'powerset-us', 'test-bare-pc'],
    ['tipni', 'chain(3)', 'test-bare-pc'],
    ['tipni', 'two-point', 'send-no-nsu'],
    ['lemma5', 'powerset-us', 'app-at-pc'],
  ] as const)('%s on %s against %s: ≤ 40 AST nodes per program', (suiteName, latName, variantName) => {
    const lat = latticeByName(latName)!;
    const v = runSuite(llmbdaSuiteByName(suiteName)!, referenceCtx(lat, { semantics: variantSemantics(variantByName(variantName)!) }), { runs: 2000, seed: 1 });
    const c = v.counterexample?.value as PairCase<unknown> | undefined;
    expect(c).toBeDefined();
    for (const side of [0, 1] as const) expect(size(programOf(c!, side)), v.counterexample!.pretty).toBeLessThanOrEqual(40);
    // readable: the report is a handful of lines, not a wall of text
    expect(v.counterexample!.pretty.split('\n').length).toBeLessThanOrEqual(6);
  });
});
