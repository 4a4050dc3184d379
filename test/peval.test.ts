/**
 * `peval`, the oracle-driven deterministic interpreter (spec §6), and Theorem 3 on fixed programs: the
 * exact oracle-tree distribution, and a sampled version whose empirical frequencies must lie within a
 * Hoeffding bound of the exact distribution. (The generated-program Theorem 3 suite runs in
 * test/suites-reference.test.ts.)
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import * as Q from '../src/distributions/rational.ts';
import { entries, equals, keyedEntries } from '../src/distributions/subdist.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, finalKey } from '../src/semantics/evaluate.ts';
import { peval, type Oracle } from '../src/semantics/peval.ts';
import { pevalDistribution } from '../src/semantics/oracle-tree.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, constModel, randomModel } from '../src/semantics/models/index.ts';
import type { Conversation } from '../src/semantics/config.ts';
import { makeRng, sampledOracle } from '../src/semantics/sampling.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const EMPTY: Conversation<USLabel> = { label: US.bottom, messages: [] };
const prog = (src: string, model: PModel = constModel('0')): Expr<USLabel> =>
  closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));


const always = (r: string): Oracle => () => r;

describe('peval: an ordinary deterministic interpreter driven by an oracle', () => {
  const m = constModel('unused');

  it('answers each recv with the oracle, appends it, and returns the trace and the next index', () => {
    const r = peval(m, lat, always('1'), 0, 100, US.bottom, EMPTY, prog('@"q"'));
    expect(r.kind).toBe('ok');
    if (r.kind !== 'ok') return;
    expect(render(lat, r.value)).toBe('[]:[[]:true, []:1]');
    expect(r.conv).toEqual({ label: US.bottom, messages: ['q', '1'] });
    expect(r.trace).toEqual(['1']);
    expect(r.next).toBe(1);
  });

  it('asks the oracle o(i, c) with consecutive indices from `start` and the messages so far', () => {
    const calls: [number, readonly string[]][] = [];
    const oracle: Oracle = (i, c) => { calls.push([i, [...c]]); return i === 5 ? '"x"' : '"y"'; };
    const r = peval(m, lat, oracle, 5, 100, US.bottom, EMPTY, prog('let a = @"a" in let b = @"b" in [a.[1], b.[1]]'));
    expect(calls).toEqual([[5, ['a']], [6, ['a', '"x"', 'b']]]);
    expect(r.kind === 'ok' && render(lat, r.value)).toBe('[]:[[]:"x", []:"y"]');
    expect(r.next).toBe(7);
    expect(r.trace).toEqual(['"x"', '"y"']);
  });

  it('follows the same label rules: the response runs at lc, tests answer at pc ⊔ n ⊔ l, endorse keeps secrecy', () => {
    const at = (src: string, conv = EMPTY): string => {
      const r = peval(m, lat, always('1'), 0, 100, US.bottom, conv, prog(src));
      return r.kind === 'ok' ? render(lat, r.value) : r.kind;
    };
    expect(at('recv', { label: US.S, messages: [] })).toBe('["S"]:[["S"]:true, ["S"]:1]');
    expect(at('["S"] ? 1')).toBe('["S"]:true');
    expect(at('endorse [] (["U","S"]:1)')).toBe('["S"]:1');
    expect(at('(["S"]:\\x. 0) 1')).toBe('["S"]:0');
    expect(at('fork (send (["S"]:"x"))')).toBe('[]:{}');
  });

  it('fork restores the conversation', () => {
    const r = peval(m, lat, always('0'), 0, 100, US.bottom, EMPTY, prog('let _ = fork @"a" in send "b"'));
    expect(r.kind === 'ok' && r.conv).toEqual({ label: US.bottom, messages: ['b'] });
  });

  it('reports a stuck run as a runtime error with a reason, and out of fuel separately', () => {
    const stuck = peval(m, lat, always('0'), 0, 100, US.bottom, EMPTY, prog('if ["S"]:true then send "x" else {}'));
    expect(stuck.kind).toBe('error');
    expect(stuck.kind === 'error' && stuck.reason).toMatch(/send/);
    expect(peval(m, lat, always('0'), 0, 100, US.bottom, EMPTY, prog('1 / 0')).kind).toBe('error');
    // (\x. x) 1 has derivation depth 3 (see test/semantics-rules.test.ts)
    expect(peval(m, lat, always('0'), 0, 2, US.bottom, EMPTY, prog('(\\x. x) 1')).kind).toBe('fuel');
    expect(peval(m, lat, always('0'), 0, 3, US.bottom, EMPTY, prog('(\\x. x) 1')).kind).toBe('ok');
  });

  it('a label operand that is not a label (here a number) is a runtime error, not a crash', () => {
    // Regression: the reason was built with JSON.stringify, which throws on the BigInt rationals.
    for (const src of ['let l = 1 in l:2', '(1/2) ? 1', 'endorse 3 1']) {
      const r = peval(m, lat, always('0'), 0, 100, US.bottom, EMPTY, prog(src));
      expect(r.kind, src).toBe('error');
    }
  });

  it('is a separate implementation: peval.ts imports none of the evaluator\'s rule code', () => {
    const src = readFileSync('src/semantics/peval.ts', 'utf8');
    const imports = [...src.matchAll(/from '([^']+)'/g)].map((x) => x[1]);
    for (const forbidden of ['./rules.ts', './ev.ts', './evaluate.ts', './odist.ts', '../skipping/skipping.ts']) {
      expect(imports).not.toContain(forbidden);
    }
  });
});

describe('Theorem 3 (Oracular correctness) on fixed programs', () => {
  const coin = coinModel(Q.rat(3, 10));

  it('exactly: the oracle tree of the two flips has the spec\'s distribution, equal to evaluate\'s', () => {
    const e = prog('let x = @"flip" in let y = @"again" in x.[1] + y.[1]', coin);
    const tree = pevalDistribution(coin, lat, US.bottom, EMPTY, e, 200)!;
    expect(tree.paths).toBe(4);
    expect(entries(tree.finals).map(([f, w]) => `${render(lat, f.value)} ${f.conv.messages.join(',')} ${Q.show(w)}`).sort()).toEqual([
      '[]:0 flip,0,again,0 49/100',
      '[]:1 flip,0,again,1 21/100',
      '[]:1 flip,1,again,0 21/100',
      '[]:2 flip,1,again,1 9/100',
    ]);
    expect(equals(tree.finals, evaluate(coin, lat, US.bottom, EMPTY, e, 200).finals)).toBe(true);
  });

  /**
   * Sampled: N runs of peval, each with a fresh oracle drawn from μ_M (seeded). For each of the k
   * categories (final configurations, stuck, out of fuel) Hoeffding gives
   * P(|freq − p| ≥ ε) ≤ 2·exp(−2Nε²); with a union bound over the k categories and failure
   * probability δ = 1e-9 this is ε = sqrt(ln(2k/δ) / (2N)). With N = 4000 and k ≤ 8 categories, ε ≤ 0.055.
   */
  const N = 4000;
  const DELTA = 1e-9;

  function sampledAgainstExact(src: string, model: PModel, seed: number, expected?: Record<string, string>): void {
    const e = prog(src, model);
    const exact = evaluate(model, lat, US.bottom, EMPTY, e, 200);
    const key = finalKey(lat);
    const p = new Map<string, number>();
    for (const { key: k, weight } of keyedEntries(exact.finals)) p.set(k, Q.toNumber(weight));
    for (const m of exact.missing) {
      const k = m.failure.kind === 'fuel' ? '(out of fuel)' : '(stuck)';
      p.set(k, (p.get(k) ?? 0) + Q.toNumber(m.weight));
    }
    if (expected) {
      // the exact side is pinned to hand-computed values too
      expect(Object.fromEntries(entries(exact.finals).map(([f, w]) => [`${render(lat, f.value)} ${f.conv.messages.join(',')}`, Q.show(w)]))).toEqual(expected);
    }
    const rng = makeRng(seed);
    const counts = new Map<string, number>();
    for (let i = 0; i < N; i++) {
      const r = peval(model, lat, sampledOracle(model, rng), 0, 200, US.bottom, EMPTY, e);
      const k = r.kind === 'ok' ? key({ conv: r.conv, value: r.value }) : r.kind === 'fuel' ? '(out of fuel)' : '(stuck)';
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    // nothing sampled outside the exact support
    for (const k of counts.keys()) expect(p.has(k), `sampled outcome ${k} has probability 0`).toBe(true);
    const kCats = p.size;
    const eps = Math.sqrt(Math.log((2 * kCats) / DELTA) / (2 * N));
    for (const [k, pk] of p) {
      const freq = (counts.get(k) ?? 0) / N;
      expect(Math.abs(freq - pk), `${k}: frequency ${freq} vs exact ${pk} (ε = ${eps.toFixed(4)})`).toBeLessThan(eps);
    }
  }

  it('sampled: the two flips (spec values) within the Hoeffding bound', () => {
    sampledAgainstExact('let x = @"flip" in let y = @"again" in x.[1] + y.[1]', coin, 1, {
      '[]:0 flip,0,again,0': '49/100', '[]:1 flip,0,again,1': '21/100', '[]:1 flip,1,again,0': '21/100', '[]:2 flip,1,again,1': '9/100',
    });
  });

  it('sampled: a program with stuck mass and merged forked outcomes within the Hoeffding bound', () => {
    // x = 1 (1/3): stuck at the send under pc ["S"]; x = 0 (2/3): sum of two forked 1/3-coins
    sampledAgainstExact(
      'let x = (@"a").[1] in if x == 1 then (if ["S"]:true then send "leak" else 0) else (fork @"b").[1] + (fork @"c").[1]',
      coinModel(Q.rat(1, 3)), 2,
      { '[]:0 a,0': '8/27', '[]:1 a,0': '8/27', '[]:2 a,0': '2/27' },
    );
  });

  it('sampled: a conversation-dependent model whose responses are code, within the Hoeffding bound', () => {
    sampledAgainstExact('let a = @"q" in let b = @"r" in [a.[0], b.[0]]', randomModel(7), 3);
  });
});
