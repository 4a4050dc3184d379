import { describe, it, expect } from 'vitest';
import { UserError } from '../src/util/absurd.ts';
import { rat } from '../src/distributions/rational.ts';
import { array, bool, lam, num, nul, record, str, v } from '../src/syntax/ast.ts';
import type { PlainValue } from '../src/syntax/ast.ts';
import { isIMaximal, joinAll } from '../src/lattice/lattice.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import {
  TRUST_LEVELS,
  US,
  chain,
  powersetUS,
  ppmfLabel,
  ppmfTrustSecrecy,
  product,
  secrecyOf,
  trustAtLeast,
  trustOf,
  twoPoint,
  usLabel,
} from '../src/lattice/instances.ts';
import { finiteLattice, showPlain } from '../src/lattice/define.ts';

const strs = (...xs: string[]): PlainValue => array(xs.map(str)) as PlainValue;
const ints = (...ks: number[]): PlainValue => array(ks.map((k) => num(rat(k)))) as PlainValue;
const decodeShow = <L>(lat: Lattice<L>, val: PlainValue): string | undefined => {
  const l = lat.toLabel(val);
  return l === undefined ? undefined : lat.show(l);
};

describe('two-point (spec §1: L ⊑ H, encoded [] and ["H"])', () => {
  it('orders L below H and joins to the higher', () => {
    expect(twoPoint.leq('L', 'H')).toBe(true);
    expect(twoPoint.leq('H', 'L')).toBe(false);
    expect(twoPoint.join('L', 'H')).toBe('H');
    expect(twoPoint.join('L', 'L')).toBe('L');
  });
  it('encodes as [] and ["H"] and decodes nothing else', () => {
    expect(twoPoint.show('L')).toBe('[]');
    expect(twoPoint.show('H')).toBe('["H"]');
    expect(showPlain(twoPoint.fromLabel('H'))).toBe('["H"]');
    expect(twoPoint.toLabel(strs())).toBe('L');
    expect(twoPoint.toLabel(strs('H'))).toBe('H');
    for (const bad of [strs('L'), strs('H', 'H'), str('H'), ints(1), nul]) expect(twoPoint.toLabel(bad)).toBeUndefined();
  });
});

describe('powerset-us (spec §1: subsets of {U,S})', () => {
  it('joins by union and orders by inclusion', () => {
    expect(powersetUS.join(US.U, US.S)).toBe(US.top);
    expect(powersetUS.leq(US.U, US.S)).toBe(false);
    expect(powersetUS.leq(US.S, US.U)).toBe(false);
    expect(powersetUS.leq(US.S, US.top)).toBe(true);
    expect(powersetUS.leq(US.bottom, US.U)).toBe(true);
    expect(usLabel('S', 'U')).toBe(US.top);
  });
  it('shows the canonical encodings', () => {
    expect([US.bottom, US.U, US.S, US.top].map(powersetUS.show)).toEqual(['[]', '["U"]', '["S"]', '["U","S"]']);
  });
  it('decodes the two-element form in either order', () => {
    expect(powersetUS.toLabel(strs('U', 'S'))).toBe(US.top);
    expect(powersetUS.toLabel(strs('S', 'U'))).toBe(US.top);
    expect(powersetUS.toLabel(strs('S'))).toBe(US.S);
    expect(powersetUS.toLabel(strs())).toBe(US.bottom);
  });
  it('rejects duplicates, unknown atoms and non-arrays', () => {
    for (const bad of [strs('U', 'U'), strs('X'), strs('U', 'S', 'U'), strs('u'), str('U'), ints(0), record([]), array([strs('U')])]) {
      expect(powersetUS.toLabel(bad as PlainValue)).toBeUndefined();
    }
  });
  it('factors as I = {∅,{U}}, S = {∅,{S}}; the I-maximal observers are ["U"] and ["U","S"]', () => {
    const f = powersetUS.factoring!;
    expect(f.toI(US.top)).toBe(US.U);
    expect(f.toS(US.top)).toBe(US.S);
    expect(f.pair(US.U, US.S)).toBe(US.top);
    expect(f.pair(US.S, US.U)).toBe(US.bottom);
    const imax = [US.bottom, US.U, US.S, US.top].filter((m) => isIMaximal(powersetUS, m)).map(powersetUS.show);
    expect(imax).toEqual(['["U"]', '["U","S"]']);
  });
});

describe('chain(n) (spec §1: 0 ⊑ 1 ⊑ … ⊑ n-1, encoded [k])', () => {
  const c3 = chain(3);
  it('is a total order with ⊥ = 0 and ⊤ = n-1', () => {
    expect(c3.name).toBe('chain(3)');
    expect([c3.bottom, c3.top]).toEqual([0, 2]);
    expect(c3.join(1, 2)).toBe(2);
    expect(c3.leq(2, 1)).toBe(false);
    expect(c3.elements).toEqual([0, 1, 2]);
  });
  it('encodes [k], shows [k], and decodes [] as ⊥', () => {
    expect(showPlain(c3.fromLabel(1))).toBe('[1]');
    expect(c3.show(2)).toBe('[2]');
    expect(c3.toLabel(ints(2))).toBe(2);
    expect(c3.toLabel(strs())).toBe(0);
  });
  it('rejects out-of-range, non-integer and malformed encodings', () => {
    const half = array([num(rat(1, 2))]) as PlainValue;
    for (const bad of [ints(3), ints(-1), half, ints(0, 1), strs('1'), num(rat(1)), array([bool(true)])]) {
      expect(c3.toLabel(bad as PlainValue)).toBeUndefined();
    }
  });
  it('rejects n < 1 and non-integers with a UserError', () => {
    expect(() => chain(0)).toThrow(UserError);
    expect(() => chain(2.5)).toThrow(UserError);
  });
});

describe('product(A, B)', () => {
  const p = product(twoPoint, chain(3));
  it('is componentwise, named A×B, encoded [encA, encB]', () => {
    expect(p.name).toBe('two-point×chain(3)');
    expect(p.join(['H', 0], ['L', 2])).toEqual(['H', 2]);
    expect(p.leq(['H', 0], ['L', 2])).toBe(false);
    expect(p.show(['H', 1])).toBe('[["H"],[1]]');
    expect(showPlain(p.fromLabel(['L', 2]))).toBe('[[],[2]]');
    expect(p.elements).toHaveLength(6);
  });
  it('decodes [] as ⊥ and rejects wrong arities', () => {
    expect(p.toLabel(strs())).toEqual(['L', 0]);
    expect(p.toLabel(array([strs('H'), ints(2)]) as PlainValue)).toEqual(['H', 2]);
    expect(p.toLabel(array([strs('H')]) as PlainValue)).toBeUndefined();
    expect(p.toLabel(array([strs('H'), ints(3)]) as PlainValue)).toBeUndefined();
  });
  it('is trivially factored unless asked; factored, A is integrity and B confidentiality', () => {
    expect(p.factoring).toBeUndefined();
    const f = product(twoPoint, chain(3), { factored: true }).factoring!;
    expect(f.toI(['H', 2])).toEqual(['H', 0]);
    expect(f.toS(['H', 2])).toEqual(['L', 2]);
    expect(f.pair(['H', 0], ['L', 1])).toEqual(['H', 1]);
  });
  it('parenthesises nested products in the name', () => {
    expect(product(product(twoPoint, twoPoint), chain(2)).name).toBe('(two-point×two-point)×chain(2)');
  });
});

describe('ppmf (ppmf.md: trust chain as distrust × secrecy)', () => {
  it('has SYSTEM/public as ⊥ and UNKNOWN/secret as ⊤', () => {
    expect(ppmfTrustSecrecy.bottom).toBe(ppmfLabel('SYSTEM'));
    expect(ppmfTrustSecrecy.top).toBe(ppmfLabel('UNKNOWN', 'secret'));
    expect(ppmfTrustSecrecy.elements).toHaveLength(12);
  });
  it('joins sources to the least trusted one', () => {
    const j = joinAll(ppmfTrustSecrecy, [ppmfLabel('USER_CONFIRMED'), ppmfLabel('EXTERNAL'), ppmfLabel('TRUSTED_TOOL', 'secret')]);
    expect(trustOf(j)).toBe('EXTERNAL');
    expect(secrecyOf(j)).toBe('secret');
    expect(ppmfTrustSecrecy.leq(ppmfLabel('SYSTEM'), ppmfLabel('UNKNOWN'))).toBe(true);
    expect(ppmfTrustSecrecy.leq(ppmfLabel('EXTERNAL'), ppmfLabel('USER_HISTORY'))).toBe(false);
  });
  it('encodes with defaults omitted', () => {
    const S = ppmfTrustSecrecy.show;
    expect(S(ppmfLabel('SYSTEM'))).toBe('[]');
    expect(S(ppmfLabel('EXTERNAL'))).toBe('["EXTERNAL"]');
    expect(S(ppmfLabel('SYSTEM', 'secret'))).toBe('["secret"]');
    expect(S(ppmfLabel('UNKNOWN', 'secret'))).toBe('["UNKNOWN","secret"]');
  });
  it('decodes either order and explicit defaults; rejects duplicates, two trusts and unknown atoms', () => {
    const dec = (...xs: string[]) => decodeShow(ppmfTrustSecrecy, strs(...xs));
    expect(dec('secret', 'EXTERNAL')).toBe('["EXTERNAL","secret"]');
    expect(dec('SYSTEM', 'public')).toBe('[]');
    expect(dec('USER_HISTORY')).toBe('["USER_HISTORY"]');
    for (const bad of [['secret', 'secret'], ['EXTERNAL', 'SYSTEM'], ['public', 'secret'], ['external'], ['U'], ['EXTERNAL', 'secret', 'public']]) {
      expect(dec(...bad)).toBeUndefined();
    }
  });
  it('factors into trust and secrecy; I-maximal observers are exactly the UNKNOWN ones', () => {
    const f = ppmfTrustSecrecy.factoring!;
    const l = ppmfLabel('EXTERNAL', 'secret');
    expect(f.toI(l)).toBe(ppmfLabel('EXTERNAL'));
    expect(f.toS(l)).toBe(ppmfLabel('SYSTEM', 'secret'));
    expect(f.pair(ppmfLabel('USER_HISTORY', 'secret'), ppmfLabel('UNKNOWN', 'public'))).toBe(ppmfLabel('USER_HISTORY'));
    const imax = ppmfTrustSecrecy.elements!.filter((m) => isIMaximal(ppmfTrustSecrecy, m)).map(ppmfTrustSecrecy.show);
    expect(imax).toEqual(['["UNKNOWN"]', '["UNKNOWN","secret"]']);
  });
  it('compares trust levels along the chain', () => {
    expect(TRUST_LEVELS[0]).toBe('UNKNOWN');
    expect(trustAtLeast('USER_CONFIRMED', 'USER_HISTORY')).toBe(true);
    expect(trustAtLeast('EXTERNAL', 'USER_HISTORY')).toBe(false);
  });
});

describe('finiteLattice (define.ts)', () => {
  it('builds joins from the covering relation', () => {
    const d = finiteLattice({ name: 'd', elements: ['bot', 'a', 'b', 'top'], order: [['bot', 'a'], ['bot', 'b'], ['a', 'top'], ['b', 'top']] });
    expect(d.join('a', 'b')).toBe('top');
    expect(d.leq('bot', 'top')).toBe(true);
    expect(d.show('bot')).toBe('[]');
    expect(d.toLabel(strs('a'))).toBe('a');
    expect(d.toLabel(strs('bot'))).toBeUndefined();
  });
  it('rejects orders that are not lattices', () => {
    // a and b have two minimal upper bounds c and d.
    const spec = { name: 'w', elements: ['0', 'a', 'b', 'c', 'd', '1'], order: [['0', 'a'], ['0', 'b'], ['a', 'c'], ['b', 'c'], ['a', 'd'], ['b', 'd'], ['c', '1'], ['d', '1']] as [string, string][] };
    expect(() => finiteLattice(spec)).toThrow(/no least upper bound/);
    expect(() => finiteLattice({ name: 'cyc', elements: ['x', 'y'], order: [['x', 'y'], ['y', 'x']] })).toThrow(/both ways/);
  });
});

describe('showPlain', () => {
  it('prints label-free values in surface syntax', () => {
    expect(showPlain(array([str('U'), num(rat(1, 2)), nul, record([{ name: 'a', expr: bool(false) }])]) as PlainValue)).toBe(
      '["U",1/2,null,{a: false}]',
    );
    expect(showPlain(lam('x', v('x')) as PlainValue)).toBe('\\x. …');
  });
});
