/**
 * Exact quantitative leakage (src/leakage): the measures on hand-computed channels, channels of
 * programs (a one-bit channel is exactly 1 bit, ignoring the secret is exactly 0), the CaMeL retry loop
 * for small k against hand-derived figures, and the `leakage` suite: it holds on the reference
 * semantics and a rule change that breaks TIPNI makes it fail.
 */
import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import * as Q from '../src/distributions/rational.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import { loadPrelude } from '../src/semantics/prelude.ts';
import { constModel, coinModel } from '../src/semantics/models/index.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { variantCtx } from '../src/llmbda/variant-ctx.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import { retryLoopFuel, retryLoopSource } from '../src/llmbda/camel.ts';
import { leakage } from '../properties/leakage.ts';
import { channelProblem, log2Rational, minEntropyLeakage, multiplicativeCapacity, shannonLeakage, type Channel } from '../src/leakage/measures.ts';
import { NO_RESULT, programChannel, substituteSecret } from '../src/leakage/channel.ts';
import { parseDomain, splitValues } from '../src/leakage/domain.ts';
import { print } from '../src/syntax/printer.ts';
import { UserError } from '../src/util/absurd.ts';

const r = (s: string): Q.Rational => Q.parseRational(s)!;
const chan = (prior: string[], rows: string[][]): Channel => ({
  secrets: prior.map((_, i) => `s${i}`), prior: prior.map(r), outputs: rows[0]!.map((_, j) => `o${j}`), rows: rows.map((row) => row.map(r)),
});

describe('the measures on hand-computed channels', () => {
  it('identity channel on a uniform bit: exactly 1 bit by every measure', () => {
    const c = chan(['1/2', '1/2'], [['1', '0'], ['0', '1']]);
    expect(shannonLeakage(c)).toBe(1);
    expect(Q.show(minEntropyLeakage(c).ratio)).toBe('2');
    expect(minEntropyLeakage(c).bits).toBe(1);
    expect(Q.show(multiplicativeCapacity(c).sum)).toBe('2');
  });
  it('a constant channel leaks exactly 0 bits', () => {
    const c = chan(['1/3', '2/3'], [['1/4', '3/4'], ['1/4', '3/4']]);
    expect(shannonLeakage(c)).toBe(0);
    expect(Q.show(minEntropyLeakage(c).ratio)).toBe('1');
    expect(Q.show(multiplicativeCapacity(c).sum)).toBe('1');
  });
  it('binary symmetric channel with crossover 1/4: I = 1 − h(1/4), V ratio 3/2, capacity 3/2', () => {
    const c = chan(['1/2', '1/2'], [['3/4', '1/4'], ['1/4', '3/4']]);
    // h(1/4) = 1/4·2 + 3/4·log2(4/3) = 0.811278…
    expect(shannonLeakage(c)).toBeCloseTo(1 - (0.5 + 0.75 * Math.log2(4 / 3)), 12);
    expect(Q.show(minEntropyLeakage(c).posteriorVulnerability)).toBe('3/4');
    expect(Q.show(minEntropyLeakage(c).ratio)).toBe('3/2');
    expect(Q.show(multiplicativeCapacity(c).sum)).toBe('3/2');
  });
  it('identity channel under a skewed prior (3/4, 1/4): I = H(S) = h(1/4), min-entropy ratio 4/3', () => {
    const c = chan(['3/4', '1/4'], [['1', '0'], ['0', '1']]);
    expect(shannonLeakage(c)).toBeCloseTo(0.5 + 0.75 * Math.log2(4 / 3), 12);
    expect(Q.show(minEntropyLeakage(c).ratio)).toBe('4/3');
    expect(Q.show(multiplicativeCapacity(c).sum)).toBe('2'); // the capacity ignores the prior
  });
  it('log2 of rationals: exact on powers of two, huge integers included', () => {
    expect(log2Rational(r('8'))).toBe(3);
    expect(log2Rational(r('1/1024'))).toBe(-10);
    expect(log2Rational(Q.rat(2n ** 3000n))).toBe(3000);
    expect(log2Rational(Q.rat(3n ** 2000n, 1n))).toBeCloseTo(2000 * Math.log2(3), 6);
  });
  it('rejects matrices that are not channels', () => {
    expect(channelProblem(chan(['1/2', '1/2'], [['1', '0'], ['1/2', '1/4']]))).toMatch(/sums to 3\/4/);
    expect(channelProblem(chan(['1/2', '1/3'], [['1'], ['1']]))).toMatch(/prior sums to 5\/6/);
    expect(() => shannonLeakage(chan(['1'], [['1/2']]))).toThrow(/not a channel/);
  });
});

const lat = latticeByName('powerset-us')!;
const S = lat.toLabel({ kind: 'array', elems: [{ kind: 'str', value: 'S' }] } as never);

function leak(src: string, domain: string, opts: { observer?: unknown; model?: ReturnType<typeof constModel>; fuel?: number; variant?: string } = {}) {
  const model = opts.model ?? constModel('"ok"');
  return programChannel({
    lattice: lat, model, prelude: loadPrelude(lat, model.preludeSource), program: parse(src, lat), secret: 'secret',
    domain: parseDomain(lat, domain), observer: opts.observer ?? lat.bottom, fuel: opts.fuel ?? 200,
    ...(opts.variant ? { semantics: variantSemantics(variantByName(opts.variant)!) } : {}),
  });
}

describe('channels of programs', () => {
  it('`if secret then "1" else "0"` seen by ["S"]: exactly 1 bit under a uniform prior', () => {
    const c = leak('let secret = ["S"]:true\nif secret then "1" else "0"', 'true,false', { observer: S });
    expect(c.rows.map((row) => row.map(Q.show))).toEqual([['0', '1'], ['1', '0']]);
    expect(shannonLeakage(c)).toBe(1);
    expect(minEntropyLeakage(c).bits).toBe(1);
    expect(multiplicativeCapacity(c).bits).toBe(1);
  });
  it('the same program seen by the public observer: 0 bits (the result is hidden)', () => {
    const c = leak('let secret = ["S"]:true\nif secret then "1" else "0"', 'true,false');
    expect(c.outputs).toHaveLength(1);
    expect(shannonLeakage(c)).toBe(0);
    expect(multiplicativeCapacity(c).bits).toBe(0);
  });
  it('a program that ignores the secret leaks exactly 0 bits even to the top observer', () => {
    const c = leak('let secret = ["S"]:0\nlet x = @"hi" in x.[1]', '0..7', { observer: lat.top, model: coinModel(r('1/3')) });
    expect(c.outputs).toHaveLength(2);
    expect(shannonLeakage(c)).toBe(0);
    expect(Q.show(minEntropyLeakage(c).ratio)).toBe('1');
    expect(Q.show(multiplicativeCapacity(c).sum)).toBe('1');
  });
  it('a secret sent to a public conversation is stuck (reference): only termination leaks', () => {
    // secret 0 sends nothing and terminates; 1 and 2 are stuck at the send under pc ["S"].
    const c = leak('let secret = ["S"]:0\nif secret == 0 then {} else send "x"', '0,1,2');
    expect(c.outputs.at(-1)).toBe(NO_RESULT);
    expect(c.rows.map((row) => row.map(Q.show))).toEqual([['1', '0'], ['0', '1'], ['0', '1']]);
    expect(Q.show(multiplicativeCapacity(c).sum)).toBe('2');
    // I = H(O) = h(1/3) = log2 3 − 2/3
    expect(shannonLeakage(c)).toBeCloseTo(Math.log2(3) - 2 / 3, 12);
  });
  it('secrets given as a free variable are substituted; unknown names are a user error', () => {
    const c = leak('if ["S"]:secret then 1 else 2', 'true,false', { observer: S });
    expect(shannonLeakage(c)).toBe(1);
    expect(() => substituteSecret(parse('1 + 2', lat), 'secret', parse('3', lat))).toThrow(UserError);
  });
  it('substitution keeps the static label of the definition', () => {
    const e = substituteSecret(parse('let k = 1\nlet secret = ["S"]:11\nk + secret', lat), 'secret', parse('3', lat));
    expect(print(e, lat)).toContain('["S"]:3');
    expect(print(e, lat)).not.toContain('11');
  });
  it('domains: ranges, top-level commas, closed values only', () => {
    expect(splitValues('[1, 2], "a,b", {x: 1}, 3')).toEqual(['[1, 2]', '"a,b"', '{x: 1}', '3']);
    expect(parseDomain(lat, '2..4').map((v) => v.text)).toEqual(['2', '3', '4']);
    expect(() => parseDomain(lat, 'x, 1')).toThrow(/free name/);
    expect(() => parseDomain(lat, '1,1')).toThrow(/twice/);
  });
});

describe('the CaMeL retry loop (examples/camel/retry-loop.lam), small k by hand', () => {
  const loop = (k: number, variant?: string) => leak(retryLoopSource(k, 0), `0..${2 ** k - 1}`, { fuel: retryLoopFuel(k), ...(variant ? { variant } : {}) });
  it('reference, k = 2: only secret 0 terminates; capacity 2 (1 bit), Shannon h(1/4)', () => {
    const c = loop(2);
    expect(c.rows.map((row) => row.map(Q.show))).toEqual([['1', '0'], ['0', '1'], ['0', '1'], ['0', '1']]);
    expect(multiplicativeCapacity(c).bits).toBe(1);
    expect(shannonLeakage(c)).toBeCloseTo(0.5 + 0.75 * Math.log2(4 / 3), 12);
  });
  it('send-no-nsu, k = 2: every secret gives its own observation, exactly 2 bits', () => {
    const c = loop(2, 'send-no-nsu');
    expect(c.outputs).toHaveLength(4);
    expect(shannonLeakage(c)).toBe(2);
    expect(minEntropyLeakage(c).bits).toBe(2);
  });
});

describe('the leakage suite (capacity ≤ 1 + max divergence)', () => {
  it('holds on the reference semantics on powerset-us and is not vacuous', () => {
    const v = runSuite(leakage, referenceCtx(lat), { runs: 300, seed: 7 });
    expect(v.counterexample?.reason).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.stats['positive bits (termination channel)']).toBeGreaterThan(0);
  });
  it('fails under send-no-nsu (a rule change that breaks TIPNI)', () => {
    const v = runSuite(leakage, variantCtx(lat, variantByName('send-no-nsu')!), { runs: 3000, seed: 1, noShrink: true });
    expect(v.counterexample?.reason).toMatch(/exceeds 1 \+ max divergence/);
  });
});

describe('llmbda leak (end to end)', () => {
  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => new Promise((resolve) => {
    execFile(process.execPath, ['bin/llmbda.js', 'leak', ...args], { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
  it('prints the channel matrix and the three measures; bad input is a one-line error (exit 2)', async () => {
    const [ok, json, noSecret, badDomain, badObserver] = await Promise.all([
      run(['examples/endorse/bounded.lam', '--lattice', 'powerset-use', '--secret', 'x', '--domain', '0..5', '--observer', '["S"]']),
      run(['examples/endorse/bounded.lam', '--lattice', 'powerset-use', '--secret', 'x', '--domain', '0,1', '--observer', '["S"]', '--json']),
      run(['examples/endorse/bounded.lam', '--domain', '0..3']),
      run(['examples/endorse/bounded.lam', '--lattice', 'powerset-use', '--secret', 'x', '--domain', 'y + 1']),
      run(['examples/endorse/bounded.lam', '--lattice', 'powerset-use', '--secret', 'x', '--domain', '0,1', '--observer', '["Q"]']),
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/secret\s+prior\s+o1\s+o2\s+o3\s+o4\s+o5/);
    expect(ok.stdout).toContain('⊥ (no result)');
    expect(ok.stdout).toMatch(/multiplicative capacity\s+2\.321928 bits\s+= log2 5/);
    expect(ok.stdout).toMatch(/min-entropy leakage\s+2\.321928 bits\s+= log2\(5\/6 \/ 1\/6\) = log2 5/);
    const j = JSON.parse(json.stdout) as { matrix: string[][]; capacity: { sum: string }; shannonBits: number };
    expect(j.matrix).toEqual([['1', '0'], ['0', '1']]);
    expect(j.capacity.sum).toBe('2');
    expect(j.shannonBits).toBe(1);
    for (const [r, msg] of [[noSecret, /needs --secret/], [badDomain, /free name/], [badObserver, /not a label of powerset-use/]] as const) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }
  }, 60_000);
});
