/**
 * Evaluator v2's deterministic fast path, fourth round (src/semantics/v2/direct.ts, issue 12 "deterministic
 * loops"): the desugared `if` fused (no Church-boolean closures), a curried function's body returning its
 * closure at once, quick code inline (variables, shared scalar literals, binops over a pair, lambdas),
 * rule applications counted in batches. Every answer is compared with the substitution evaluator (the
 * executable spec) at every fuel from 1 up and at pc ⊥, U and S, so out-of-fuel mass at each premise, every
 * label join and every stuck reason are checked; the rule-application count is compared with v2's general
 * machine (the generators of machine.ts, which the fast path does not use for these rules).
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import type { USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, standardModel } from '../src/semantics/models/index.ts';
import { STANDARD_PRIMS } from '../src/semantics/prims.ts';
import { failureKey, showConversation } from '../src/semantics/config.ts';
import { BudgetExceeded } from '../src/semantics/ev.ts';
import type { PlainValue } from '../src/syntax/ast.ts';
import { render } from './helpers/render.ts';
import { print } from '../src/syntax/printer.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
const start = { label: US.bottom, messages: [] };

type Engine = 'substitution' | 'v2' | 'v2-general';

function run(model: PModel, src: string, pc: USLabel, fuel: number, engine: Engine): { rows: string[]; steps: number; directRuns: number } {
  const e = closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource));
  const r = engine === 'substitution'
    ? evaluate(model, lat, pc, start, e, fuel, { engine: 'substitution' })
    : evaluateV2(model, lat, pc, start, e, fuel, { direct: engine === 'v2' });
  const rows = [
    // (`print`, not `render`: a closure's captured values, substituted into its body, are compared too)
    ...entries(r.finals).map(([f, w]) => `${print(f.value, lat)} @ ${showConversation(lat, f.conv)} ↦ ${Q.show(w)}`).sort(),
    ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`).sort(),
  ];
  return { rows, steps: r.steps, directRuns: (r as { readonly directRuns?: number }).directRuns ?? 0 };
}

/**
 * v2's fast path = substitution (outcomes, labels, stuck reasons, fuel mass) at every fuel 1…`upTo` and at
 * pc ⊥, U, S; and it counts the general machine's rule applications (`steps`, default; not where the general
 * machine's memo shares a sub-derivation that the fast path derives again — two paths after a branch, or two calls
 * asking the same thing — where the general machine's outcomes are compared instead). Returns how many runs the fast path finished (so a test can insist that the fast
 * path really ran).
 */
function sameAsSpec(model: PModel, src: string, upTo: number, steps = true): number {
  let ran = 0;
  for (const pc of [US.bottom, US.U, US.S] as const) {
    for (let fuel = 1; fuel <= upTo; fuel++) {
      const spec = run(model, src, pc, fuel, 'substitution');
      const fast = run(model, src, pc, fuel, 'v2');
      const general = run(model, src, pc, fuel, 'v2-general');
      expect(fast.rows, `${src} at pc ${lat.show(pc)}, fuel ${fuel}`).toEqual(spec.rows);
      if (steps) expect(fast.steps, `${src} at pc ${lat.show(pc)}, fuel ${fuel}: rule applications`).toBe(general.steps);
      else expect(general.rows, `${src} at pc ${lat.show(pc)}, fuel ${fuel}: general machine`).toEqual(spec.rows);
      ran += fast.directRuns;
    }
  }
  return ran;
}

const COUNT = 'let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in';

describe('v2 fast path (fused if, curried applications, inline quick code) = the substitution semantics', () => {
  it.each([
    // the fused if: labelled conditions of every kind, the pc joined into the branch, both branches
    'if true then 1 else 2', 'if false then 1 else 2', 'if ["S"]:true then 1 else 2', 'if ["U"]:false then "a" else ["S"]:"b"',
    'let x = ["U"]:0 in if x == 0 then x else 5', 'if 0 then 1 else 2', 'if null then 1 else 2', 'if {a: ["S"]:false} then 1 else 2',
    'if (\\x. ["S"]:x) then 1 else 2', 'if 1/3 < 1/2 then ["U"]:1 else 2', 'if 2/4 == 1/2 then 1 else 2',
    // an array condition: the branch at its deep label (found by mutation testing: arrays taken as scalars)
    'if [["S"]:false] then 1 else 2', 'if [1, ["U"]:[2]] then "a" else "b"',
    // a prim pair whose quick element is deep (its read needs fuel ≥ its depth), first or second
    'let d = [[[1]]] in d == (\\x. x) 1', 'let d = [[[1]]] in ((\\x. x) 1) == d',
    // applying a non-function under a rule run as a generator frame
    'endorse [] (1 2)', '[] ? (1 2)', 'assert [] ((\\x. 1) 0 2)',
    // a condition that is stuck or not quick (not fused), nested ifs, an if whose branch is a function
    'if 1 + "a" then 1 else 2', 'if (\\x. x) true then 1 else 2', 'if true then if ["S"]:false then 1 else 2 else 3',
    '(if ["U"]:true then \\x. x + 1 else \\x. x) 4',
    // the same term written out, with the branch reading its parameter (the unit, raised to the condition's label)
    '(prim "fromBool" (["S"]:true)) (\\u. u) (\\u. 1) {}', '(prim "fromBool" (["U"]:false)) (\\u. 1) (\\u. [u, u]) {}',
    // curried functions: the body's closure at once, labels of the function on the closure
    '(\\a. \\b. a) 1 2', '(\\a. \\b. \\c. [a, b, c]) 1 (["U"]:2) 3', 'let g = ["S"]:(\\a. \\b. a + b) in g 1 2',
    'let g = \\a. \\b. a in (g (["U"]:1)) 2', '(\\a. \\b. a) 1', '(1 2) 3', '((\\a. a) 1) 2',
    // one literal node evaluated at two pcs in one run (its shared value is per pc)
    'let f = \\x. 1 in [f 0, (["S"]:f) 0, f 0]', 'let f = \\x. x + 1 in [f 0, (["U"]:f) 0]',
    // found by mutation testing of direct.ts 507–714 (docs/mutation.md, run 7): an index frame whose index reads the
    // environment (the frame keeps it for that premise), and the index premise at its fuel boundary (an index
    // needing more fuel than the target)
    'let i = 1 in ((\\x. x) [10, 20]).[i]', '((\\x. x) [10, 20]).[(\\y. y) 1]', 'let a = [10, ["U"]:20] in ((\\x. x) a).[(\\y. y) 1]',
    '((\\x. x) [10, 20]).[(\\y. (\\z. (\\u. (\\t. (\\s. s) t) u) z) y) 1]',
  ])('%s', (src) => {
    sameAsSpec(coin, src, 16);
  });

  it('the fused fix reads a deep argument at its fuel boundary (found by mutation testing, run 7)', () => {
    // `x x v` reads v (fuel ≥ its depth: 12 for [[[[[1]]]]], whose literal needs only 6). A body that reads v again
    // runs out there anyway; this one stops on the conversation instead (the model answers 1, then 0), so only that
    // read can run out on the second call.
    const twice = standardModel('one-then-zero', (ms) => [[ms.length < 3 ? '1' : '0', Q.ONE]]);
    // The fixed function is not curried (its body is an application, not a lambda), so the fused fix keeps a frame
    // for that read (FIX_ARG); the curried form reads it on the general path.
    for (const src of ['let g = fix (\\g. (\\u. \\v. if (@"q").[1] == 1 then g v else 0) 0) in g [[[[[1]]]]]', 'let g = fix (\\g. \\v. if (@"q").[1] == 1 then g v else 0) in g [[[[[1]]]]]']) {
      expect(sameAsSpec(twice, src, 40), src).toBeGreaterThan(0);
    }
  });

  it('out of fuel at every step of a small counter loop, at three pcs', () => {
    expect(sameAsSpec(coin, `${COUNT} count 3 0`, 130)).toBeGreaterThan(0);
    expect(sameAsSpec(coin, `${COUNT} count 2 (["S"]:0)`, 90)).toBeGreaterThan(0);
  });

  it('integers overflow past 2^53 into exact big integers, in a loop and at the boundary', () => {
    expect(sameAsSpec(coin, `${COUNT} count 3 9007199254740990`, 130)).toBeGreaterThan(0);
    sameAsSpec(coin, 'let x = 9007199254740991 in [x + 1, x + 2, x * x, 0 - x - 2, x - -1, x == 9007199254740992 - 1]', 12);
    // the answer itself, against a value computed here by BigInt arithmetic
    const e = closeProgram(parse(`${COUNT} count 40 9007199254740980`, lat), loadPrelude(lat));
    const r = evaluateV2(coin, lat, US.bottom, start, e, 100_000);
    expect(entries(r.finals).map(([f]) => render(lat, f.value))).toEqual([`[]:${9007199254740980n + 40n}`]);
  });

  it('division and modulo per spec §4 (sign of the dividend, by zero stuck) and rationals in a loop', () => {
    sameAsSpec(coin, 'let p = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc / 2 + n % 3)) in p 4 1', 160);
    sameAsSpec(coin, 'let p = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc - 7 % n + -7 % 3 + 7 % -3)) in p 3 ["U"]:0', 140);
    sameAsSpec(coin, 'let p = fix (\\f. \\n. if n == 0 then 1 / n else f (n - 1)) in p 2', 90);
    sameAsSpec(coin, 'let p = fix (\\f. \\n. if n < 1/2 then n else f (n - 1/3)) in p 1', 110);
  });

  it('closures escaping the loop keep their captured values and labels', () => {
    sameAsSpec(coin, 'let mk = fix (\\f. \\n. \\g. if n == 0 then g else f (n - 1) (\\x. g x + n)) in (mk 3 (\\x. ["S"]:x)) 10', 170);
    sameAsSpec(coin, 'let mk = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) [\\y. n, acc]) in (mk 2 []).[0] 0', 130);
  });

  it('the unrolled fix (x x v) fused: labelled and deep f, hand-written shapes, fix of a non-function', () => {
    expect(sameAsSpec(coin, 'let g = fix (["S"]:(\\f. \\n. if n == 0 then 0 else f (n - 1))) in g 2', 80)).toBeGreaterThan(0);
    sameAsSpec(coin, 'let g = ["U"]:(fix (\\f. \\n. if n == 0 then n else f (n - 1))) in g (["S"]:1)', 60);
    expect(sameAsSpec(coin, 'let c = fix (["S"]:(\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1))) in c 2 0', 100)).toBeGreaterThan(0);
    // the same terms written out, f a record (deep: the read of f needs fuel ≥ its depth) or labelled
    sameAsSpec(coin, 'let f = {a: [[1]]} in let h = \\x. f (\\v. x x v) in (\\v. h h v) 1', 24);
    sameAsSpec(coin, 'let f = ["S"]:(\\g. \\n. [n, g]) in let h = ["U"]:(\\x. f (\\v. x x v)) in ((\\v. h h v) 1).[1]', 30);
    // a deep argument: its read (after f's body) needs fuel ≥ its depth
    sameAsSpec(coin, 'let f = \\g. \\n. n in let h = \\x. f (\\v. x x v) in (\\v. h h v) {a: [[1]]}', 30);
    sameAsSpec(coin, 'let h = \\x. 7 in (\\v. h h v) 1', 16);
    sameAsSpec(coin, 'let f = \\g. \\n. \\m. [n, m] in let h = ["U"]:(\\x. f (\\v. x x v)) in ((\\v. h h v) 1) 2', 30);
    sameAsSpec(coin, 'fix {a: 1} 3', 20);
    // Near misses of `x x v` and of `f (λv. x x v)`: ordinary applications, never the fused fix.
    sameAsSpec(coin, 'let f = \\g. \\n. [n] in let h = \\x. f (\\v. x v x) in (\\v. h h v) 1', 30);
    sameAsSpec(coin, 'let f = \\g. \\n. [n] in let h = \\x. f (\\v. x x x) in (\\v. h h v) 1', 30);
    sameAsSpec(coin, 'let f = \\g. \\n. [n] in let k = \\y. \\z. 3 in let h = \\x. f (\\v. k x v) in (\\v. h h v) 1', 30);
    sameAsSpec(coin, 'let f = \\g. \\n. [n] in let h = \\x. \\y. f (\\v. x x v) in (\\v. h h v) 1', 30);
    sameAsSpec(coin, 'let f = \\g. \\n. [n] in let h = \\x. f (\\v. \\w. x x v) in (\\v. h h v) 1', 30);
    sameAsSpec(coin, 'let k = \\y. \\z. [y] in let h = \\x. k (\\v. x x v) in (\\v. h k v) 1', 30);
    // `x x v` where x is not `λx. f (λv. x x v)`: a scalar, the identity, a lambda whose body is a lambda, `λx. x x`.
    sameAsSpec(coin, 'let h = 1 in (\\v. h h v) 1', 16);
    sameAsSpec(coin, 'let h = \\x. x in (\\v. h h v) 1', 16);
    sameAsSpec(coin, 'let h = \\x. \\y. [y] in (\\v. h h v) 1', 16);
    sameAsSpec(coin, 'let h = \\x. x x in (\\v. h h v) 1', 24);
    // f's body not a lambda (applied at once), and f not a function at all.
    sameAsSpec(coin, 'let f = \\g. g in let h = \\x. f (\\v. x x v) in (\\v. h h v) 1', 30);
    sameAsSpec(coin, 'let f = 3 in let h = \\x. f (\\v. x x v) in (\\v. h h v) 1', 24);
  });

  // Found by mutation testing (docs/mutation.md, "Evaluator v2"): out of fuel directly under a rule run as a
  // generator frame, and the step budget met by the fast path at every possible point.
  it('out of fuel under a generator frame (Endorse, the label test, Assert), at every fuel', () => {
    sameAsSpec(coin, 'endorse [] ((\\x. x) 1)', 12);
    sameAsSpec(coin, '[] ? ((\\x. x) ["U"]:1)', 12);
    sameAsSpec(coin, 'assert [] ((\\x. x) 1)', 12);
    // The result handed to the generator from each shortcut: a curried function's closure at once, a prim pair
    // whose quick first element (a deep value) runs out of fuel.
    sameAsSpec(coin, 'endorse [] ((\\a. \\b. a) 1)', 12);
    sameAsSpec(coin, 'let d = [[[1]]] in endorse [] (d == (\\x. x) 1)', 16);
  });

  it('the step budget: every budget below the rule applications a run needs stops it, as the general machine', () => {
    const e = closeProgram(parse(`${COUNT} count 3 0`, lat), loadPrelude(lat, coin.preludeSource));
    const need = evaluateV2(coin, lat, US.bottom, start, e, 1000, { direct: false }).steps;
    expect(evaluateV2(coin, lat, US.bottom, start, e, 1000).steps).toBe(need);
    for (let budget = 1; budget <= need; budget++) {
      const stopped = (direct: boolean): boolean => {
        try { evaluateV2(coin, lat, US.bottom, start, e, 1000, { direct, maxSteps: budget }); return false; } catch (err) { if (err instanceof BudgetExceeded) return true; throw err; }
      };
      expect(stopped(true), `budget ${budget} of ${need}`).toBe(budget < need);
      expect(stopped(false), `budget ${budget} of ${need}, general machine`).toBe(budget < need);
    }
  });

  it('a loop calling itself (SATURATED): deep, stuck and labelled arguments, 2–4 arguments, near misses', () => {
    // The read of a1 (v in `x x v`) at its fuel boundary: a literal of depth 12 whose own evaluation needs only 6,
    // so only that read runs out there (found by mutating the boundary: the counter's numbers are too shallow to reach it).
    expect(sameAsSpec(coin, 'let g = fix (\\g. \\d. \\k. if k == 0 then 0 else g [[[[[1]]]]] (k - 1)) in g 0 2', 90)).toBeGreaterThan(0);
    // after a branch (a depth-first run): each path's failure keeps its weight (outcomes only: see sameAsSpec)
    for (const src of [
      'let b = (fork @"flip").[1] in let g = fix (\\g. \\n. \\acc. if n == 0 then acc else g (n - 1) (acc + "a")) in g 2 b',
      'let b = (fork @"flip").[1] in let g = fix (\\g. \\n. \\acc. if n == 0 then acc else g (n - "a") (acc + b)) in g 2 0',
      'let b = (fork @"flip").[1] in let g = fix (\\g. \\d. \\k. if k == 0 then b else g [[[[[1]]]]] (k - 1)) in g 0 1',
    ]) expect(sameAsSpec(coin, src, 70, false), src).toBeGreaterThan(0);
    // Each case at every fuel and three pcs; `false`: outcomes only (see sameAsSpec).
    const cases: readonly (readonly [string, number, boolean?])[] = [
      // a literal needing 7: at fuel 8 it runs out itself (its premise has fuel − 2), one fuel more and it is read
      ['let g = fix (\\g. \\d. \\k. if k == 0 then 0 else g [[[[[[1]]]]]] (k - 1)) in g 0 1', 60],
      // a2 deep, a record: read in the body at its own fuel
      ['let g = fix (\\g. \\k. \\d. if k == 0 then d.a else g (k - 1) {a: [[k]]}) in g 2 {a: 0}', 90],
      // a stuck first or second argument, a stuck body
      ['let g = fix (\\g. \\n. \\acc. if n == 0 then acc else g (n - "a") (acc + 1)) in g 2 0', 60],
      ['let g = fix (\\g. \\n. \\acc. if n == 0 then acc else g (n - 1) (acc + "a")) in g 2 0', 60],
      ['let g = fix (\\g. \\n. \\acc. if n == 0 then acc 1 else g (n - 1) acc) in g 2 0', 80],
      // labels: a labelled loop called at a lower pc, labelled arguments, a labelled functional; the loop returning
      // its closure argument (captured values and labels kept)
      ['let c = ["S"]:(fix (\\f. \\n. \\acc. if n == 0 then [n, acc] else f (n - 1) (acc + 1))) in c 2 (["U"]:0)', 100],
      ['let c = fix (["U"]:(\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) [n, acc])) in c (["S"]:2) []', 100],
      ['let c = fix (\\f. \\n. \\k. if n == 0 then k else f (n - 1) (\\y. k y + n)) in (c 2 (\\y. ["S"]:y)) 10', 110],
      // the same shapes written out (not the prelude's fix): a labelled function h, a labelled x, called at a lower pc
      // (the body runs at h's label, not at the label of the function called)
      ['let f = ["S"]:(\\g. \\n. \\m. [n, m]) in let h = \\x. f (\\v. x x v) in let k = \\v. h h v in k 1 2', 40],
      ['let f = \\g. \\n. \\m. [n, m] in let h = ["U"]:(\\x. f (\\v. x x v)) in let k = \\v. h h v in k 1 (["S"]:2)', 40],
      // a fix written by the user, two loops through it: one node `λx. f (λv. x x v)`, two x's, so the closure
      // `λv. x x v` kept on that node is per x (the other loop's would run the other body)
      ['let mk = \\f. let h = \\x. f (\\v. x x v) in \\v. h h v in let a = mk (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in let b = mk (\\f. \\n. \\acc. if n == 0 then acc * 2 else f (n - 1) (acc + 10)) in [a 2 0, b 3 0]', 120, false],
      // two loops through one `fix`: the closure `λv. x x v` kept per x is not the other loop's (outcomes only: the
      // general machine's memo shares `a 1 0`'s sub-derivations with `a 2 0`'s, so it applies fewer rules)
      ['let a = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in let b = fix (\\f. \\n. \\acc. if n == 0 then acc * 2 else f (n - 1) (acc + 10)) in [a 2 0, b 3 0, a 1 0]', 200, false],
      // three and four arguments: the later arguments at their own fuel (a deep one, a stuck one), labels
      ['let c = fix (\\f. \\n. \\a. \\b. if n == 0 then [a, b] else f (n - 1) b a) in c 2 1 0', 110],
      ['let c = fix (\\f. \\n. \\a. \\b. \\d. if n == 0 then [a, b, d] else f (n - 1) b (["U"]:a) {x: [[n]]}) in c 2 1 0 0', 140],
      ['let c = fix (\\f. \\n. \\a. \\b. if n == 0 then [a, b] else f (n - 1) a (b - "s")) in c 2 1 0', 90],
      // a deep first argument of three: its read (fuel − 4) and its own evaluation (fuel − 3) at their boundaries
      ['let c = fix (\\f. \\d. \\k. \\b. if k == 0 then b else f [[[[[1]]]]] (k - 1) b) in c 0 1 0', 70],
      ['let c = fix (\\f. \\d. \\k. \\b. if k == 0 then b else f [[[[[[1]]]]]] (k - 1) b) in c 0 1 0', 70],
      ['let c = fix (["S"]:(\\f. \\n. \\a. \\b. if n == 0 then [a, b] else f (n - 1) [[[[[[1]]]]]] (b + 1))) in c 2 1 0', 110],
      // near misses: fewer arguments than the loop takes (its closure is the answer), a loop whose functional captures
      // a value, one argument not quick
      ['let c = fix (\\f. \\n. \\a. \\b. if n == 0 then [a, b] else let g = f (n - 1) b in g a) in c 2 1 0', 120],
      ['let k = ["U"]:5 in let c = fix (\\f. \\n. \\acc. if n == 0 then acc + k else f (n - 1) (acc + 1)) in c 2 0', 100],
      ['let c = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) ((\\z. z) acc)) in c 2 0', 100],
      // one argument (k = 1: B entered with fuel − 2, from the call): a non-tail recursion, a tail one, a deep argument
      // at its read and its own evaluation, a stuck one, labels on the loop, the argument and the functional
      ['let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in s 3', 90],
      ['let s = fix (\\f. \\n. if n == 0 then "end" else f (n - 1)) in s 3', 80],
      ['let g = fix (\\g. \\d. if d.[0] == 0 then 0 else g [0, [[[[1]]]]]) in g [1]', 70],
      ['let g = fix (\\g. \\d. if d.[0] == 0 then 0 else g [0, [[[[[1]]]]]]) in g [1]', 70],
      // the same shape written out, called through a `λv. x x v` less labelled than h (the body runs at h's label)
      ['let f = ["S"]:(\\g. \\n. [n]) in let h = \\x. f (\\v. x x v) in let k = \\v. h h v in k 1', 40],
      ['let f = \\g. \\n. [n] in let h = ["U"]:(\\x. f (\\v. x x v)) in let k = \\v. h h v in k (["S"]:1)', 40],
      // … and the argument's read at that closure's label kept by a closure in B (not read again there)
      ['let f = \\g. \\n. [\\y. n] in let h = \\x. f (\\v. x x v) in let k = ["U"]:(\\v. h h v) in k 1', 40],
      // h's captured values in B's environment, each in its slot
      ['let a = 10 in let b = 1 in let s = fix (\\f. \\n. if n == 0 then a else b + f (n - 1)) in s 2', 90],
      ['let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - "a")) in s 2', 60],
      ['let s = ["S"]:(fix (\\f. \\n. if n == 0 then [n] else [n, f (n - 1)])) in s (["U"]:2)', 100],
      ['let s = fix (["U"]:(\\f. \\n. if n == 0 then 0 else n + f (n - 1))) in s 2', 90],
      // near misses of one argument: a function whose body is not a lambda under λf, a loop called with a closure
      ['let s = fix (\\f. let k = 1 in \\n. if n == 0 then 0 else f (n - k)) in s 2', 90],
      ['let s = fix (\\f. \\k. if k 0 == 0 then 1 else f (\\y. y)) in s (\\y. y + 1)', 80],
    ];
    for (const [src, upTo, steps] of cases) sameAsSpec(coin, src, upTo, steps ?? true);
  });

  it('loop blocks (a loop\'s iterations at ⊥ as one update each): the same answers, fuel, budget and counts as the rules', () => {
    const prog = (src: string) => closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource));
    const v2 = (src: string, fuel: number, opts: { direct?: boolean; maxSteps?: number } = {}) => evaluateV2(coin, lat, US.bottom, start, prog(src), fuel, opts);
    const rows = (r: ReturnType<typeof v2>): string[] => [
      ...entries(r.finals).map(([f, w]) => `${render(lat, f.value)} ↦ ${Q.show(w)}`),
      ...r.missing.map((m) => `${failureKey(m.failure)} ↦ ${Q.show(m.weight)}`),
    ];
    const N = 150;
    // Loops long enough for blocks (their fuel bound is ≈ 80 above an iteration's), each way round, with rationals,
    // strings, a stuck division part-way (n = 60: by zero), three arguments and a labelled accumulator (no block).
    // The last column: of those, iterations on small integers (the numeric lane: every value read an integer at ⊥ of
    // magnitude at most 2^53 − 1; `+ − * %` and comparisons), which stops where a result is not one and leaves the
    // rest to the values (the first call's arguments are `saturated`'s, so the blocks start from acc + 1 and 3: past
    // 2^53 − 1 after 99 more additions, 3^34 after 32 more products; modulo by zero at n = 60).
    const S = 2 ** 53 - 1;
    const loops: [string, string, number, number][] = [
      ['past 2^53 − 1 part-way', `${COUNT} count ${N} ${S - 100}`, N - 1, 99],
      ['products past 2^53 − 1', `let g = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc * 3)) in g ${N} 1`, N - 1, 32],
      ['negative products, modulo with negative operands', `let g = fix (\\f. \\n. \\acc. if n <= 0 then acc else f (n - 1) ((0 - acc * 7 + n) % (0 - 13))) in g ${N} 5`, N - 1, N - 1],
      ['modulo by zero part-way (at n = 60)', `let g = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1000 % (n - 60))) in g ${N} 0`, N - 61, N - 61],
      // (the first from n = −2 to −N − 1, N blocks; the second from n = 2 to 5, four, then its condition is stuck)
      ['a comparison >=, and a condition on a number (true) stuck at n = 5 (modulo by zero)', `let g = fix (\\f. \\n. \\m. if 10 % (n - 5) then f (n + 1) (m + 1) else m) in [(fix (\\f. \\n. \\m. if n >= 0 - ${N} then f (n - 1) m else m)) 0 7, g 0 0]`, N + 4, N + 4],
      ['counter, self-call in the else-branch', `${COUNT} count ${N} 0`, N - 1, N - 1],
      ['self-call in the then-branch', `let count = fix (\\f. \\n. \\acc. if n > 0 then f (n - 1) (acc + 1) else acc) in count ${N} 0`, N - 1, N - 1],
      ['rationals and a nested binop', `let g = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1 / 3 * n)) in g ${N} 0`, N - 1, 0],
      ['strings', `let g = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + "ab")) in g ${N} ""`, N - 1, 0],
      ['stuck part-way (division by zero at n = 60)', `let g = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1 / (n - 60))) in g ${N} 0`, N - 61, 0],
      ['three arguments', `let g = fix (\\f. \\n. \\a. \\b. if n == 0 then a + b else f (n - 1) (a + 2) (b - 1)) in g ${N} 0 0`, N - 1, N - 1],
      ['a labelled accumulator', `${COUNT} count ${N} ["U"]:0`, 0, 0],
      // One loop's code run twice with different captured values (k = 1, then 2): a plan per activation.
      ['two activations of one loop', `let mk = \\k. fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + k)) in [mk 1 ${N} 0, mk 2 ${N} 0]`, 2 * (N - 1), 2 * (N - 1)],
      // The if written out (its branch reading its own parameter u, the unit `{}`, in an array argument: no block), and not.
      ['the if written out, reading its parameter', `let g = fix (\\f. \\n. \\acc. (prim "fromBool" (n == 0)) (\\u. acc) (\\u. f (n - 1) [acc, u]) {}) in g ${N} 0`, 0, 0],
      ['the if written out', `let g = fix (\\f. \\n. \\acc. (prim "fromBool" (n == 0)) (\\u. acc) (\\u. f (n - 1) (acc + 2)) {}) in g ${N} 0`, N - 1, N - 1],
    ];
    for (const [name, src, blocks, lane] of loops) {
      const general = v2(src, 100_000, { direct: false });
      const fast = v2(src, 100_000);
      expect(rows(fast), name).toEqual(rows(general));
      expect(fast.steps, `${name}: rule applications`).toBe(general.steps);
      expect(fast.fused.block, `${name}: iterations done as blocks`).toBe(blocks);
      expect(fast.fused.lane, `${name}: of those, on small integers`).toBe(lane);
      // The substitution semantics, once (the general machine is compared with it at every fuel elsewhere).
      expect(rows(fast), `${name}: the spec`).toEqual(rows(evaluate(coin, lat, US.bottom, start, prog(src), 100_000, { engine: 'substitution' }) as ReturnType<typeof v2>));
    }
    // Fuel: the least fuel that finishes the counter, found with the general machine; below it out of fuel and above it
    // the value, at every fuel from 1 to past it (blocks run from the bound on, so most of these end inside blocks'
    // range and a wrong fuel per iteration moves the boundary).
    const src = `${COUNT} count ${N} 0`;
    let least = 1;
    while (v2(src, least, { direct: false }).finals.size === 0) least++;
    for (let fuel = 1; fuel <= least + 3; fuel++) {
      const general = v2(src, fuel, { direct: false }), fast = v2(src, fuel);
      expect(rows(fast), `fuel ${fuel} (least ${least})`).toEqual(rows(general));
      expect(fast.steps, `fuel ${fuel}: rule applications`).toBe(general.steps);
    }
    expect(v2(src, least).fused.block).toBeGreaterThan(0);
    // The step budget: blocks stop where a whole iteration no longer fits, and the rules meet the budget where they would.
    const need = v2(src, 100_000, { direct: false }).steps;
    for (const budget of [need - 1, need - 18, need - 37, need - 38, Math.floor(need / 2), 1_000]) {
      const stopped = (direct: boolean): boolean => {
        try { v2(src, 100_000, { direct, maxSteps: budget }); return false; } catch (err) { if (err instanceof BudgetExceeded) return true; throw err; }
      };
      expect(stopped(true), `budget ${budget} of ${need}`).toBe(true);
      expect(stopped(false), `budget ${budget} of ${need}, general machine`).toBe(true);
    }
    expect(v2(src, 100_000, { maxSteps: need }).steps).toBe(need);
  });

  it('a non-tail recursion and a loop with a labelled counter', () => {
    sameAsSpec(coin, 'let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in s 3', 120);
    sameAsSpec(coin, `${COUNT} count (["U"]:2) 0`, 100);
  });

  it('a prim pair\'s first element kept as its number while the second runs (a small integer at ⊥) or as its value (anything else)', () => {
    const S = (first: string, base = '0'): string => `let s = fix (\\f. \\n. if n == 0 then ${base} else ${first} + f (n - 1)) in s 2`;
    // Kept as its number: n itself, its negation, zero, the largest and smallest such (2^30 − 1, −(2^30 − 1)).
    for (const first of ['n', '0 - n', 'n - n', '1073741823 - n + n', '0 - 1073741823 + n - n']) sameAsSpec(coin, S(first), 70);
    // Kept as its value: just past the bound (±2^30), a fraction, a labelled number, a string (stuck binop), a pc above ⊥.
    for (const first of ['1073741824 - n + n', '0 - 1073741824', 'n / 3', '["U"]:n', '"a"']) sameAsSpec(coin, S(first), 70);
    sameAsSpec(coin, 'let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in ["S"]:(s 2)', 70);
    sameAsSpec(coin, 'let s = fix (\\f. \\n. if n == 0 then "" else str(n) + f (n - 1)) in s 2', 70);
    // Branching under the frames: a depth-first run takes each response with the frames (numbers in them) restored.
    sameAsSpec(coin, S('n', '(fork @"flip").[1]'), 70, false);
    sameAsSpec(coin, S('n * 1073741823', '(fork @"flip").[1]'), 70, false);
  });

  it('a binop node\'s last value taken again where its variables, pc and fuel allow (reusedQuick), and only there', () => {
    const FLIP = '(fork @"flip").[1]';
    // Paths after a choice point share the values bound before it: the sum of the first flips is the previous path's.
    sameAsSpec(coin, `let x1 = ${FLIP} in let x2 = ${FLIP} in let x3 = ${FLIP} in x1 + x2 + x3`, 60, false);
    sameAsSpec(coin, `let x1 = ["U"]:${FLIP} in let x2 = ${FLIP} in let x3 = ${FLIP} in x1 * 2 + x2 + x3 - x3`, 60, false);
    // The same node, the same values in its slots, at another pc: `x + 1` of g's body under ⊥ and under S.
    sameAsSpec(coin, 'let x = 1 in let g = \\u. x + 1 in [g {}, ["S"]:(g {}), g {}]', 40);
    // … and the other quick nodes (indexing, array and record literals, field access, labelled code).
    sameAsSpec(coin, 'let x = 1 in let g = \\u. [{a: x}, ["U"]:[x]].[1] in [g {}, ["S"]:(g {}), g {}, {b: x}.b]', 50);
    // The same node, the same values in its slots, at less fuel: `k + 1` in every iteration of a loop, down to where
    // it runs out.
    sameAsSpec(coin, 'let k = 5 in let c = fix (\\f. \\n. if n == 0 then 0 else let z = k + 1 in f (n - 1)) in c 3', 90);
    // Taken again (counted in `fused.reused`) where the values are the same. A model's parsed response (`[true, 1]`:
    // closed, evaluated at the conversation's label) at every recv but the first of each response; the inner sum
    // x1 + x2 after the last flip of each pair of paths, but never `x3 + x2`, which reads x3, different between
    // consecutive paths: only the responses are reused there.
    // (The fork cache off: with it, a fork entered again with the same conversation takes its kept outcomes and
    // evaluates no response at all; see the next test.)
    const fusedOf = (src: string): Readonly<Record<string, number>> =>
      evaluateV2(coin, lat, US.bottom, start, closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource)), 100_000, { forkOutcomes: false }).fused;
    const responses = fusedOf(`let x1 = ${FLIP} in let x2 = ${FLIP} in let x3 = ${FLIP} in (x3 + x2) + x1`)['reused']!;
    expect(responses).toBeGreaterThanOrEqual(1);
    expect(fusedOf(`let x1 = ${FLIP} in let x2 = ${FLIP} in let x3 = ${FLIP} in (x1 + x2) + x3`)['reused']).toBeGreaterThan(responses);
  });

  it('a fork\'s outcomes taken again from its cache (forkOutcomes): the outcomes and rule applications of the frames, at every fuel', () => {
    const FLIP = '(fork @"flip").[1]';
    const opts = (fuel: number, pc: USLabel, src: string, forkOutcomes: boolean) =>
      evaluateV2(coin, lat, pc, start, closeProgram(parse(src, lat), loadPrelude(lat, coin.preludeSource)), fuel, { forkOutcomes });
    const programs = [
      // the same fork on every path at a level (the benchmark's strings and sums), and one after another
      `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str(${FLIP}))) in go 3 ""`,
      `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + ${FLIP})) in go 3 0`,
      `let x1 = ${FLIP} in let x2 = ${FLIP} in let x3 = ${FLIP} in x1 + x2 + x3`,
      // a body that reads a variable whose value differs between paths (no reuse there), and one whose conversation does
      `let x = if ${FLIP} == 1 then ["S"]:1 else 0 in let y = (fork (let _ = send x in recv)).[1] in [x, y]`,
      `let _ = @"a" in let x = ${FLIP} in let _ = @"b" in let y = ${FLIP} in [x, y]`,
      // a fork inside a fork's body; a fork stuck at a raised pc (recv under pc S into a ⊥ conversation)
      `let x = fork (let a = ${FLIP} in let b = ${FLIP} in [a, b]) in let y = fork (let a = ${FLIP} in a) in [x, y]`,
      `let x = ${FLIP} in if ["S"]:(x == 1) then ${FLIP} else x`,
      // the same fork node, pc and fuel in two conversations (the second labelled S by a send: its response read at S)
      `let f = \\u. ${FLIP} in [f {}, send (["S"]:"z"), f {}]`,
      // the same fork node, conversation and fuel at two pcs (⊥, then U: stuck there)
      `let f = \\u. ${FLIP} in let g = \\b. if b then f {} else f {} in [g true, g (["U"]:false)]`,
      // a fork under a label
      `let x = ${FLIP} in let y = ["U"]:(fork @"flip") in [x, y.[1]]`,
    ];
    let hits = 0;
    for (const src of programs) {
      sameAsSpec(coin, src, 45, false);
      for (const pc of [US.bottom, US.U, US.S] as const) {
        for (let fuel = 1; fuel <= 45; fuel++) {
          const on = opts(fuel, pc, src, true), off = opts(fuel, pc, src, false);
          expect(on.steps, `${src} at pc ${lat.show(pc)}, fuel ${fuel}: rule applications`).toBe(off.steps);
          expect(off.fused.fork).toBe(0);
          hits += on.fused.fork;
        }
      }
    }
    expect(hits).toBeGreaterThan(100);
    // Straight-line flips: the second fork is entered on two paths with the same conversation and fuel, the first once.
    expect(opts(100_000, US.bottom, `let x1 = ${FLIP} in let x2 = ${FLIP} in x1 + x2`, true).fused.fork).toBe(1);
    expect(opts(100_000, US.bottom, `let x1 = ${FLIP} in let x2 = ${FLIP} in let x3 = ${FLIP} in x1 + x2 + x3`, true).fused.fork).toBe(1 + 3);
  });

  it('ArrayIndex takes an index that is an integer once reduced (a deferred sum, 1/2 + 1/2), and refuses fractions', () => {
    for (const src of ['[10, 20, 30].[1/2 + 1/2]', '[10, 20, 30].[5/6 + 7/6]', '[10, 20, 30].[1/6 + 1/6]', 'let i = 1/2 in [10, 20, 30].[i + i]']) sameAsSpec(coin, src, 12);
  });

  it('strings are interned by their text per label (strId): equal strings merge, the same text at two labels does not', () => {
    const FLIP = '(fork @"flip").[1]';
    for (const src of [
      `let s = if ${FLIP} == 1 then "a" else ["S"]:"a" in [s, s + ""]`,
      `let s = if ${FLIP} == 1 then "ab" else "a" + "b" in let t = if ${FLIP} == 1 then s else ["U"]:s in t`,
      `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str(${FLIP}))) in go 3 ""`,
    ]) sameAsSpec(coin, src, 60, false);
  });

  // A fusion that stops applying (a recogniser too strict, a guard off by one kind) changes no answer and no rule-application
  // count, so the comparisons above cannot see it: only the fast path's own counters do (`fused`). The bounds come from
  // the programs (how many ifs, calls and binops they evaluate), never from a run of v2.
  it('each fused shortcut is taken where it applies, and only there', () => {
    const fused = (model: PModel, src: string, opts: { direct?: boolean } = {}): Readonly<Record<string, number>> =>
      evaluateV2(model, lat, US.bottom, start, closeProgram(parse(src, lat), loadPrelude(lat, model.preludeSource)), 100_000, opts).fused;
    const N = 40;
    // The counter: per iteration one `if n == 0` on a standard boolean, one call through the unrolled fix whose fixed
    // function is curried (`λn. λacc. …`: its `λacc.` closure at once), and three binops (==, −, +).
    // Exactly, since a run that gives up takes its shortcuts back: `n == 0` for n = N … 0, the N recursive calls
    // `f (n − 1) (acc + 1)` (the first call `count N 0` applies the fixed function itself, not `x x v`), and the
    // binops `n == 0` (N + 1), `n − 1` and `acc + 1` (N each).
    const c = fused(coin, `${COUNT} count ${N} 0`);
    expect(c['if']).toBe(N + 1);
    expect(c['fix']).toBe(N);
    expect(c['fixCurried']).toBe(N);
    // each recursive call `f (n − 1) (acc + 1)` is a saturated two-argument call, done from the call to the body
    expect(c['saturated']).toBe(N);
    // every if's branch (`acc`, the call) runs in the if's own environment: a plain run (no branch, no frontier)
    expect(c['branchIn']).toBe(N + 1);
    expect(c['lamBody']).toBeGreaterThanOrEqual(N);
    expect(c['binop']).toBe(3 * N + 1);
    // A fast-path run that gives up (here at the flip after the loop: two outcomes) has its shortcuts taken back
    // with its rule applications, so the counts are those of the runs that finished: the loop's once.
    const e = closeProgram(parse(`${COUNT} let r = count ${N} 0 in [r, fork @"flip"]`, lat), loadPrelude(lat, coin.preludeSource));
    const bailed = evaluateV2(coin, lat, US.bottom, start, e, 100_000, { afterBranch: 0 });
    expect(bailed.directBails).toBeGreaterThanOrEqual(1);
    // (Loop blocks run in plain runs only: where the loop ran in another kind of run, the shortcuts they stand for
    // are counted all the same.)
    expect(bailed.fused).toEqual({ ...c, block: bailed.fused.block, lane: bailed.fused.lane, branchIn: bailed.fused.branchIn });
    // The general machine never fuses.
    expect(Object.values(fused(coin, `${COUNT} count ${N} 0`, { direct: false })).every((x) => x === 0)).toBe(true);
    // A fixed function whose body is not a lambda: the fix fused, but with a frame (not the curried shortcut).
    const g = fused(coin, 'let g = fix (\\f. let k = 1 in \\n. if n == 0 then 0 else f (n - k)) in g 20');
    expect(g['fix']).toBeGreaterThanOrEqual(20);
    expect(g['fixCurried']).toBe(0);
    expect(g['saturated']).toBe(0);
    // One argument (k = 1): each recursive call `f (n − 1)`, in a tail position or not (in plain runs: a depth-first
    // run past a branch, or a frontier run, leaves it to the frames, as they look at the tail `x x v` it passes over).
    expect(fused(coin, 'let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in s 20')['saturated']).toBe(20);
    expect(fused(coin, 'let s = fix (\\f. \\n. if n == 0 then 0 else f (n - 1)) in s 20')['saturated']).toBe(20);
    // Saturated calls: k quick arguments to a k-argument loop (2 ≤ k ≤ 8); not fewer (a closure is the answer), not a
    // call with a non-quick argument, not nine.
    expect(fused(coin, 'let c = fix (\\f. \\n. \\a. \\b. if n == 0 then a else f (n - 1) b a) in c 20 1 0')['saturated']).toBe(20);
    expect(fused(coin, 'let c = fix (\\f. \\n. \\a. \\b. if n == 0 then a else let g = f (n - 1) b in g a) in c 20 1 0')['saturated']).toBe(0);
    const nine = 'let c = fix (\\f. \\n. \\a2. \\a3. \\a4. \\a5. \\a6. \\a7. \\a8. \\a9. if n == 0 then a9 else f (n - 1) a3 a4 a5 a6 a7 a8 a9 a2) in c 20 1 2 3 4 5 6 7 8';
    expect(fused(coin, nine)['saturated']).toBe(0);
    expect(fused(coin, nine.replace(' \\a9.', '').replace('then a9', 'then a8').replace(' a9 a2)', ' a2)').replace(' 7 8', ' 7'))['saturated']).toBe(20);
    expect(fused(coin, 'let c = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) ((\\z. z) acc)) in c 20 0')['saturated']).toBe(0);
    expect(fused(coin, 'let c = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) [n, acc]) in c 20 []')['saturated']).toBe(20);
    // A branch reading its own parameter (the desugared if written out) runs in its own environment; one that does
    // not, in the if's.
    expect(fused(coin, 'prim "fromBool" true (\\u. [u, 1]) (\\u. 2) {}')).toMatchObject({ if: 1, branchIn: 0 });
    expect(fused(coin, 'prim "fromBool" false (\\u. [u, 1]) (\\u. 2) {}')).toMatchObject({ if: 1, branchIn: 1 });
    expect(fused(coin, 'let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in s 20')).toMatchObject({ if: 21, branchIn: 21 });
    // Labelled conditions, both branches, a condition read from a labelled variable: one if each.
    for (const src of ['if ["S"]:true then 1 else 2', 'if ["U"]:false then "a" else ["S"]:"b"', 'let x = ["U"]:0 in if x == 0 then x else 5', 'if 0 then 1 else 2']) {
      expect(fused(coin, src)['if'], src).toBe(1);
    }
    // A condition that is not quick is not fused (the rules run).
    expect(fused(coin, 'if (\\x. x) true then 1 else 2')['if']).toBe(0);
    // Curried applications: the inner closure at once (from the ENTER loop, after a function premise, after an argument premise).
    for (const src of ['(\\a. \\b. a) 1 2', '((\\x. x) (\\a. \\b. a)) 1 2', '(\\a. \\b. a) ((\\x. x) 1) 2']) {
      expect(fused(coin, src)['lamBody'], src).toBeGreaterThanOrEqual(1);
    }
    // A non-tail recursion: `n == 0`, `n − 1` and `n + f (n − 1)` per level.
    expect(fused(coin, 'let s = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in s 30')['binop']).toBeGreaterThanOrEqual(90);
    // At every fuel, an if whose derivation completes was fused (here an array's element: a premise, which the fast
    // path runs); below the fuel it needs it runs out, fused or not.
    const one = closeProgram(parse('[if true then 1 else 2]', lat), loadPrelude(lat, coin.preludeSource));
    for (let fuel = 1; fuel <= 8; fuel++) {
      const r = evaluateV2(coin, lat, US.bottom, start, one, fuel);
      expect(r.fused.if, `fuel ${fuel}`).toBe(Q.eq(r.mass, Q.ONE) ? 1 : 0);
    }
    // Every rule the fast path does by hand is done by hand: App, Prim, RecordCons/ArrayCons, Fork, Send, Recv,
    // FieldAccess, ArrayIndex (a model answering once); the others (here Endorse, the label test) by their generators.
    const once = standardModel('answers-once', () => [['0', Q.ONE]]);
    const byHand = ['{a: 1, b: (\\x. x) 2}.b', '[(\\x. x) 1, 2].[(\\x. x) 0]', 'fork (send "x")', '[let u = send "q" in recv]', 'prim "toStr" ((\\x. x) 1)', `${COUNT} count ${N} 0`];
    for (const src of byHand) expect(fused(once, src)['generators'], src).toBe(0);
    for (const src of ['endorse [] ((\\x. x) 1)', '[] ? ((\\x. x) 1)']) expect(fused(coin, src)['generators'], src).toBeGreaterThanOrEqual(1);
    // Near misses of `x x v`: never the fused fix.
    for (const src of ['let h = \\x. x in (\\v. h h v) 1', 'let h = \\x. x x in (\\v. h h v) 1', 'let f = \\g. \\n. [n] in let h = \\x. f (\\v. x v x) in (\\v. h h v) 1']) {
      expect(fused(coin, src)['fix'], src).toBe(0);
    }
  });

  it('a model with its own fromBool (not a Church boolean the fast path knows) keeps it', () => {
    const lam = (src: string): PlainValue => parse(src, lat) as unknown as PlainValue;
    const shapes: readonly [string, PlainValue][] = [
      ['seven', { kind: 'num', value: Q.rat(7) }], // applying a non-function: stuck, in the table's words
      ['same-names', lam('\\t. \\t. \\u. t u')], // t = f: not the standard shape, so the frames run it
      ['swapped', lam('\\t. \\f. \\u. f u')], // for every value: the else branch
      ['ignores', lam('\\t. \\f. \\u. 5')],
      // Near misses of the Church booleans (found by mutation testing, docs/mutation.md "Evaluator v2"): each must
      // run as the ordinary closure it is; the standard shapes from a table of their own (not the standard
      // fromBool's objects) are recognised by shape.
      ['true-by-shape', lam('\\t. \\f. \\u. t u')],
      ['t-is-u', lam('\\t. \\f. \\t. t t')],
      ['f-is-u', lam('\\t. \\f. \\f. f f')],
      ['t-applied-to-t', lam('\\t. \\f. \\u. t t')],
      ['u-applied-to-u', lam('\\t. \\f. \\u. u u')],
      ['t-applied-to-f', lam('\\t. \\f. \\u. t f')],
      ['u-applied-to-t', lam('\\t. \\f. \\u. u t')],
      ['two-lambdas', lam('\\t. \\f. t')],
      ['four-lambdas', lam('\\t. \\f. \\u. \\w. t u')],
      ['applied-twice', lam('\\t. \\f. \\u. t u u')],
    ];
    // A fromBool that fails: the if is stuck with its reason.
    const failing = standardModel('own-fromBool-fails', () => [['0', Q.ONE]], { prims: { ...STANDARD_PRIMS, fromBool: () => ({ ok: false as const, reason: 'no booleans here' }) } });
    sameAsSpec(failing, 'if ["S"]:true then 1 else 2', 12);
    sameAsSpec(failing, 'endorse [] (if true then 1 else 2)', 12);
    for (const [name, value] of shapes) {
      const own = standardModel(`own-fromBool-${name}`, () => [['0', Q.ONE]], { prims: { ...STANDARD_PRIMS, fromBool: () => ({ ok: true as const, value }) } });
      sameAsSpec(own, 'if ["S"]:true then 1 else 2', 16);
      sameAsSpec(own, 'let p = fix (\\f. \\n. if n == 0 then ["U"]:n else f (n - 1)) in p 1', 70);
      // The two standard shapes (here built by the model's own table) are fused as the booleans they are; nothing else is.
      const e = closeProgram(parse('if ["S"]:true then 1 else 2', lat), loadPrelude(lat, own.preludeSource));
      expect(evaluateV2(own, lat, US.bottom, start, e, 100).fused.if, name).toBe(name === 'true-by-shape' || name === 'swapped' ? 1 : 0);
    }
  });
});
