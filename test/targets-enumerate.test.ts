/**
 * Exact enumeration through the oracle (issue 13): hand-computed distributions of small programs, limits
 * and transport failures as missing mass, nondeterminism detected, and Theorem 3 through the adapter
 * (the reference as a target equals `evaluate`), shown able to fail.
 */
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { twoPoint, powersetUS, type TwoPoint } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { print } from '../src/syntax/printer.ts';
import { emptyConversation } from '../src/semantics/config.ts';
import { modelOf } from '../src/generators/models.ts';
import { enumerate, enumerateSync, lostKey, lostMass, type TargetDistribution } from '../src/targets/enumerate.ts';
import { referenceTarget } from '../src/targets/reference.ts';
import type { Target } from '../src/targets/target.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { variantCtx } from '../src/llmbda/variant-ctx.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { adapterTheorem3 } from '../properties/adapter-theorem3.ts';
import { latticeByName } from '../src/lattice/registry.ts';

const lat = twoPoint;
const coin = modelOf({ kind: 'constant', responses: [['1', '1/3'], ['0', '1/2']] });
const ask = parse('(\\_. recv) (send "q")', lat);
const rows = (d: TargetDistribution<TwoPoint>) =>
  entries(d.finals).map(([f, w]) => `${JSON.stringify(f.conv.messages)} ${print(f.value, lat)} ${Q.show(w)}`).sort();

describe('exact enumeration of a target through the oracle', () => {
  it('one recv under a sub-distribution model: two finals with the model\'s weights, 1/6 withheld', () => {
    const d = enumerateSync(referenceTarget(lat), coin, 'L', emptyConversation(lat), ask, 20);
    expect(rows(d)).toEqual([
      '["q","0"] []:[[]:true, []:0] 1/2',
      '["q","1"] []:[[]:true, []:1] 1/3',
    ]);
    expect(Q.show(d.modelDeficit)).toBe('1/6');
    expect(d.missing).toEqual([]);
    expect(d.runs).toBe(2);
  });

  it('two recvs: four paths, weights multiply along each', () => {
    const two = parse('(\\a. (\\b. [a.[1], b.[1]]) ((\\_. recv) (send "r"))) ((\\_. recv) (send "q"))', lat);
    const d = enumerateSync(referenceTarget(lat), coin, 'L', emptyConversation(lat), two, 40);
    const ws = entries(d.finals).map(([, w]) => Q.show(w)).sort();
    expect(ws).toEqual(['1/4', '1/6', '1/6', '1/9']);
    expect(Q.show(d.modelDeficit)).toBe('11/36'); // 1/6 at the first recv + 5/6 · 1/6 at the second
  });

  it('the run budget turns the unexplored branch into limit mass, like fuel', () => {
    const d = enumerateSync(referenceTarget(lat), coin, 'L', emptyConversation(lat), ask, 20, { maxRuns: 1 });
    expect(d.finals.size).toBe(1);
    expect(d.missing.map((m) => `${lostKey(m.lost)} ${Q.show(m.weight)}`)).toEqual(['limit: more than 1 runs 1/2'] /* the first run takes the first response ("1", 1/3); "0" is left */);
  });

  it('too many oracle calls in one run is limit mass; a throwing target is crash mass; the enumeration continues', async () => {
    const loop = parse('(\\f. f f) (\\f. (\\_. f f) ((\\_. recv) (send "q")))', lat);
    const d = enumerateSync(referenceTarget(lat), modelOf({ kind: 'constant', responses: [['0', '1']] }), 'L', emptyConversation(lat), loop, 10_000, { maxOracleCalls: 5 });
    expect(d.missing.map((m) => `${lostKey(m.lost)} ${Q.show(m.weight)}`)).toEqual(['limit: more than 5 oracle calls in one run 1']);
    let n = 0;
    const flaky: Target<'L' | 'H'> = {
      name: 'flaky', lattice: lat,
      run: async (req, oracle) => {
        const a = oracle(['q']);
        if (a.response === '0' && n++ >= 0) throw new Error('boom');
        return { kind: 'ok', value: { kind: 'label', label: 'L', body: { kind: 'num', value: Q.ONE } }, conv: req.conv };
      },
    };
    const e = await enumerate(flaky, coin, 'L', emptyConversation(lat), ask, 20);
    expect(Q.show(e.mass)).toBe('1/3');
    expect(e.missing.map((m) => `${lostKey(m.lost)} ${Q.show(m.weight)}`)).toEqual(['crash: the target threw: boom 1/2']);
  });

  it('an in-process async run over its time limit is timeout mass, its signal aborted, and enumeration goes on', async () => {
    let aborted = 0;
    const slow: Target<'L' | 'H'> = {
      name: 'slow', lattice: lat,
      run: (req, oracle) => {
        const a = oracle(['q']);
        if (a.response === '1') return { kind: 'stuck', reason: 'fast' };
        return new Promise((resolve) => req.signal?.addEventListener('abort', () => { aborted++; resolve({ kind: 'fuel' }); }));
      },
    };
    const d = await enumerate(slow, coin, 'L', emptyConversation(lat), ask, 20, { timeoutMs: 50 });
    expect(d.missing.map((m) => `${lostKey(m.lost)} ${Q.show(m.weight)}`).sort()).toEqual(['stuck: fast 1/3', 'timeout after 50 ms 1/2']);
    expect(aborted).toBe(1);
  });

  it('a target asking different questions along the same answers is reported nondeterministic', () => {
    let k = 0;
    const nondet: Target<'L' | 'H'> = {
      name: 'nondet', lattice: lat,
      run: (req, oracle) => { oracle([`call ${k++}`]); return { kind: 'stuck', reason: 'done' }; },
    };
    const d = enumerateSync(nondet, coin, 'L', emptyConversation(lat), ask, 20);
    expect(d.missing.map((m) => m.lost.kind).sort()).toEqual(['nondeterministic', 'stuck']);
    expect(Q.show(lostMass(d, ['nondeterministic']))).toBe('1/2');
  });
});

describe('Theorem 3 through the adapter: the reference as a target, enumerated, equals ⟦·⟧', () => {
  for (const name of ['two-point', 'powerset-us', 'chain(3)']) {
    it(`holds on ${name} (700 generated programs, through the JSON codec)`, () => {
      const v = runSuite(adapterTheorem3, referenceCtx(latticeByName(name)!), { runs: 700, seed: 7 });
      expect(v.counterexample?.reason).toBeUndefined();
      expect(v.vacuous).toEqual([]);
      expect(v.ok).toBe(true);
    });
  }
  it('fails when ⟦·⟧ is a broken semantics (lam-bottom): the comparison is not vacuous', () => {
    const v = runSuite(adapterTheorem3, variantCtx(powersetUS, variantByName('lam-bottom')!), { runs: 700, seed: 7, noShrink: true });
    expect(v.counterexample?.reason).toMatch(/final distributions differ/);
  });
});
