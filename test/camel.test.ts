/**
 * The two leaks the LLMbda paper found in CaMeL, with exact distributions (examples/camel/*.lam).
 * Untaken branch: under send-no-nsu the public observer tells a rich balance from a poor one with
 * certainty; under the reference the rich run is stuck, so the observations are compatible.
 * Retry loop: for k = 1, 2, 4, 8, under send-no-nsu all 2^k secrets give pairwise incompatible
 * observations (the whole secret leaks); under the reference every pair is compatible and the
 * statistical distance stays within Lemma 5's bound (only termination differs).
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import * as Q from '../src/distributions/rational.ts';
import { entries, mass } from '../src/distributions/subdist.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { REFERENCE } from '../src/semantics/rules.ts';
import { failureKey } from '../src/semantics/config.ts';
import { compare, observe } from '../src/observe/indist.ts';
import { modelOf } from '../src/generators/models.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import { comparePairwise, OK_MODEL, retryLoopObservations, retryLoopSource } from '../src/llmbda/camel.ts';
import type { Semantics } from '../src/semantics/rules-types.ts';

const lat = latticeByName('powerset-us')!;
const m = lat.bottom; // the public observer
const SEND_NO_NSU = variantSemantics(variantByName('send-no-nsu')!);
const model = modelOf(OK_MODEL);
const prelude = loadPrelude(lat, model.preludeSource);

function run(src: string, semantics: Semantics, fuel = 100) {
  return evaluate(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, closeProgram(parse(src, lat), prelude), fuel, { semantics, prelude });
}

describe('CaMeL untaken-branch leak (tmp/rich)', () => {
  const source = readFileSync('examples/camel/untaken-branch.lam', 'utf8');
  const rich = source, poor = source.replace('["S"]:1500', '["S"]:500');

  it('reference: the rich run is stuck at the secret assignment; the poor run reads tmp back; compatible', () => {
    const r = run(rich, REFERENCE), p = run(poor, REFERENCE);
    expect(Q.show(r.mass)).toBe('0');
    expect(r.missing.map((x) => failureKey(x.failure))).toEqual(['stuck Send: pc ["S"] does not flow to conversation label []']);
    expect(Q.show(p.mass)).toBe('1');
    expect(entries(p.finals).map(([f]) => f.conv.messages)).toEqual([['print tmp', '"ok"']]);
    const c = compare(observe(lat, m, r.finals), observe(lat, m, p.finals));
    expect(c.compatible).toBe(true);
    expect(Q.show(c.maxSum)).toBe('1');
  });

  it('send-no-nsu: both runs terminate and the public observer tells them apart (Σ max = 2)', () => {
    const r = observe(lat, m, run(rich, SEND_NO_NSU).finals), p = observe(lat, m, run(poor, SEND_NO_NSU).finals);
    expect([Q.show(mass(r)), Q.show(mass(p))]).toEqual(['1', '1']);
    const c = compare(r, p);
    expect(c.compatible).toBe(false);
    expect(Q.show(c.maxSum)).toBe('2');
    expect(Q.show(c.distance)).toBe('1');
  });
});

describe('CaMeL retry loop: a one-bit leak iterated into the whole k-bit secret', () => {
  it('the loop writes the secret\'s bits, least significant first, under send-no-nsu', () => {
    const r = run(retryLoopSource(4, 11), SEND_NO_NSU, 500);
    // 11 = 0b1011; each round sends whether its sub-conversation came back tainted, i.e. the bit.
    expect(entries(r.finals).map(([f, w]) => [f.conv.messages, Q.show(w)])).toEqual([[['true', 'true', 'false', 'true'], '1']]);
  });

  for (const k of [1, 2, 4, 8]) {
    it(`k = ${k}: send-no-nsu separates all ${2 ** k} secrets; the reference keeps every pair compatible within Lemma 5`, () => {
      const n = 2 ** k, pairs = (n * (n - 1)) / 2;
      const leaky = retryLoopObservations(lat, m, k, SEND_NO_NSU);
      expect(leaky.every((o) => Q.eq(mass(o.observed), Q.ONE))).toBe(true);
      const l = comparePairwise(leaky);
      expect(l.pairs).toBe(pairs);
      expect(l.incompatible).toBe(pairs);

      const safe = retryLoopObservations(lat, m, k, REFERENCE);
      // Only the all-zero secret terminates: the first 1-bit's send is stuck (the termination channel).
      expect(safe.map((o) => Q.show(mass(o.observed)))).toEqual(safe.map((o) => (o.secret === 0 ? '1' : '0')));
      const s = comparePairwise(safe);
      expect(s.pairs).toBe(pairs);
      expect(s.incompatible).toBe(0);
      expect(s.overBound).toBe(0);
      expect(Q.show(s.maxDistance)).toBe('1/2'); // secret 0 against any other: Δ = 1/2 = (0 + 1)/2, the bound exactly
    });
  }
});
