/**
 * Evaluator v2 = the substitution semantics (issue 12). The equivalence suite holds on the shipped
 * lattices; against a v2 whose variable read joins pc into the top-level label only (the bug a real port
 * had), it finds a counterexample that replays. Plus v2's own promises: no stack limit (a million-deep
 * tail loop and a deep non-tail recursion on the default main-thread stack) and exact answers checked
 * against independent computations.
 */
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { v2Equivalence, v2EquivalenceSuite } from '../properties/v2-equivalence.ts';
import { LLMBDA_SUITES } from '../src/api/registry.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { print } from '../src/syntax/printer.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import { SKIPPING } from '../src/skipping/skipping.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const program = (src: string) => closeProgram(parse(src, lat), loadPrelude(lat));
const start = { label: US.bottom, messages: [] };

describe('v2-equivalence: v2 gives exactly the substitution semantics', () => {
  it('is registered where llmbda check picks it up', () => {
    expect(LLMBDA_SUITES.map((s) => s.name)).toContain('v2-equivalence');
  });

  it.each(SHIPPED_LATTICES)('holds and is not vacuous on %s', (name) => {
    const v = runSuite(v2Equivalence, referenceCtx(latticeByName(name)!), { runs: 300, seed: 7 });
    expect(v.error, v.error).toBeUndefined();
    expect(v.counterexample?.pretty, `${v.counterexample?.pretty}\n${v.counterexample?.reason}`).toBeUndefined();
    expect(v.vacuous).toEqual([]);
    expect(v.ok).toBe(true);
  });

  it('catches a v2 whose variable read joins pc into the top-level label only, and the counterexample replays', () => {
    const broken = v2EquivalenceSuite({ brokenVarRead: true });
    const ctx = referenceCtx(latticeByName('powerset-us')!);
    const v = runSuite(broken, ctx, { runs: 2000, seed: 1 });
    expect(v.ok).toBe(false);
    expect(v.error, v.error).toBeUndefined();
    const cx = v.counterexample!;
    expect(cx.reason).toMatch(/differ/);
    const again = runSuite(broken, ctx, { runs: 2000, seed: cx.seed, path: cx.path });
    expect(again.counterexample?.testsToFailure).toBe(1);
    expect(again.counterexample?.pretty).toBe(cx.pretty);
    // docs/evaluator-v2.md quotes this counterexample (a test-only suite option, so the doc test cannot run it)
    expect(readFileSync('docs/evaluator-v2.md', 'utf8'), `docs/evaluator-v2.md should quote:\n${cx.pretty}\n${cx.reason}`).toContain(`\n${cx.pretty}\n${cx.reason}\n`);
  });

  it('the nested-label case by hand: reading r at pc ["U"] raises the nested field to ["U","S"]… as substitution does', () => {
    // r = ["S"]:{a: ⊥:{b: ⊥:1}} read under ["U"]:(…): Labelled joins pc into every nested label.
    const e = program('let r = {a: {b: 1}} in ["U"]:(r)');
    const spec = evaluate(coin, lat, US.bottom, start, e, 50, { engine: 'substitution' });
    const good = evaluateV2(coin, lat, US.bottom, start, e, 50);
    const bad = evaluateV2(coin, lat, US.bottom, start, e, 50, { brokenVarRead: true });
    const [[f]] = entries(spec.finals) as unknown as [[{ value: Parameters<typeof print>[0] }]];
    expect(print(f.value, lat)).toBe('["U"]:{a: ["U"]:{b: ["U"]:1}}');
    expect(entries(good.finals).map(([x]) => print(x.value, lat))).toEqual([print(f.value, lat)]);
    expect(entries(bad.finals).map(([x]) => print(x.value, lat))).not.toEqual([print(f.value, lat)]);
  });
});

describe('which engine runs: v2 only for the reference table', () => {
  const e = program('\\x. x');
  const at = (opts: Parameters<typeof evaluate>[6]) =>
    entries(evaluate(coin, lat, US.S, start, e, 10, opts).finals).map(([f]) => print(f.value, lat));

  it('a variant replacing Lam is run by its own rule (the substitution engine), not silently by v2', () => {
    expect(at({})).toEqual(['["S"]:\\x. x']);
    expect(at({ semantics: variantSemantics(variantByName('lam-bottom')!) })).toEqual(['[]:\\x. x']);
  });

  it('engine v2 refuses any semantics but the reference; engine substitution runs the reference by its rules', () => {
    expect(() => at({ engine: 'v2', semantics: SKIPPING, observer: US.bottom })).toThrow(/only the reference/);
    expect(at({ engine: 'substitution' })).toEqual(at({ engine: 'v2' }));
  });
});

describe('v2 has no stack limit', () => {
  // 10^5 here (a few seconds); the 10^6 run and its timing are in bench:eval (docs/benchmarks.md).
  it('a tail-recursive counter to 10^5 finishes on the main thread with the exact answer', () => {
    const n = 100_000;
    const e = program(`let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count ${n} 0`);
    const r = evaluate(coin, lat, US.bottom, start, e, 100 * n, { engine: 'v2' });
    expect(Q.show(r.mass)).toBe('1');
    expect(entries(r.finals).map(([x]) => print(x.value, lat))).toEqual([`[]:${n}`]);
  });

  it('the same loop with too little fuel ends cleanly as out-of-fuel mass, not a crash', () => {
    const e = program('let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count 1000000 0');
    const r = evaluate(coin, lat, US.bottom, start, e, 20_000, { engine: 'v2' });
    expect(r.finals.size).toBe(0);
    expect(r.missing.map((m) => [m.failure.kind, Q.show(m.weight)])).toEqual([['fuel', '1']]);
  });

  it('a non-tail recursion 20,000 deep (sum 1..n) gives n(n+1)/2 (the substitution evaluator overflows the stack here)', () => {
    const n = 20_000;
    // (The call nested under two binops: frames per level, where `n + f (n - 1)` would run in the recursion lane.)
    const e = program(`let sum = fix (\\f. \\n. if n == 0 then 0 else n + (f (n - 1) + 0)) in sum ${n}`);
    const r = evaluate(coin, lat, US.bottom, start, e, 100 * n, { engine: 'v2' });
    expect(entries(r.finals).map(([x]) => print(x.value, lat))).toEqual([`[]:${(n * (n + 1)) / 2}`]);
  });

  it('a flip at the bottom of a 5,000-deep recursion: both outcomes, each 1/2 (frames past the doubling threshold, then a branch)', () => {
    const n = 5_000, s = (n * (n + 1)) / 2;
    const e = program(`let sum = fix (\\f. \\n. if n == 0 then (fork @"flip").[1] else n + f (n - 1)) in sum ${n}`);
    const r = evaluate(coin, lat, US.bottom, start, e, 100 * n, { engine: 'v2' });
    expect(entries(r.finals).map(([x, w]) => `${print(x.value, lat)} ${Q.show(w)}`).sort()).toEqual([`[]:${s} 1/2`, `[]:${s + 1} 1/2`].sort());
    expect(Q.show(r.mass)).toBe('1');
  });
});
