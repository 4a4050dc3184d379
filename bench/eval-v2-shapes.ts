/**
 * Shapes of `npm run bench:eval-v2` (issue 12), each in LLMbda and WebPPL, with an INDEPENDENT exact
 * answer (computed here by plain arithmetic, never by an evaluator) as `[value, "p/q"]` rows.
 * Merging shapes (a loop over a small state) beside non-merging ones (every path its own outcome or
 * state), a deterministic loop and a non-tail recursion.
 */
import * as Q from '../src/distributions/rational.ts';
import { COINS, CHAIN } from './eval-programs.ts';

export interface Shape {
  readonly name: string;
  readonly description: string;
  /** `llmbda run --model` spelling. */
  readonly model: string;
  llmbda(n: number): string;
  webppl(n: number): string;
  webpplCached?(n: number): string;
  /** The exact distribution, or undefined when too large to list (then `check` is used). */
  exact?(n: number): readonly (readonly [string, string])[];
  /** Exact check of a distribution too large to list: returns a failure description or undefined. */
  check?(n: number, dist: readonly (readonly [string, string])[]): string | undefined;
  /** Merges equal states (so polynomial), or not (exponential in principle). */
  readonly merging: boolean;
}

const FLIP = '(fork @"flip").[1]';

function binomial(n: number): [string, string][] {
  const out: [string, string][] = [];
  let c = 1n;
  for (let k = 0; k <= n; k++) {
    out.push([String(k), Q.show(Q.rat(c, 2n ** BigInt(n)))]);
    c = (c * BigInt(n - k)) / BigInt(k + 1);
  }
  return out;
}

function chainExact(n: number): [string, string][] {
  const ps = [Q.rat(1, 2), Q.rat(1, 3), Q.rat(1, 6)];
  let d = [Q.ONE, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO];
  for (let i = 0; i < n; i++) {
    const nx = [Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO];
    d.forEach((p, s) => ps.forEach((q, c) => { nx[(s + c) % 5] = Q.add(nx[(s + c) % 5]!, Q.mul(p, q)); }));
    d = nx;
  }
  return d.flatMap((p, s) => (Q.isZero(p) ? [] : [[String(s), Q.show(p)] as [string, string]]));
}

export const SHAPES: Readonly<Record<string, Shape>> = {
  empty: {
    name: 'empty run (baseline)', merging: true, model: 'coin:1/2',
    description: 'the program `0`: what a process of each side costs before any work (Node, tsx or WebPPL\'s compiler, the prelude)',
    llmbda: () => '0',
    webppl: () => `Infer({method: 'enumerate'}, function() { return 0; });`,
    exact: () => [['0', '1']],
  },
  counter: {
    name: 'deterministic counter', merging: true, model: 'coin:1/2',
    description: 'tail-recursive counter `count N 0` (one outcome, no randomness)',
    llmbda: (n) => `let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count ${n} 0`,
    webppl: (n) => `var count = function(n, acc) { return n === 0 ? acc : count(n - 1, acc + 1); };\nInfer({method: 'enumerate'}, function() { return count(${n}, 0); });`,
    exact: (n) => [[String(n), '1']],
  },
  thenflip: {
    name: 'deterministic loop, then a flip', merging: true, model: 'coin:1/2',
    description: '`(count N 0) + flip`: the counter as an operand, a branch after it (the fast path keeps the loop\'s work past the branch)',
    llmbda: (n) => `let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in (count ${n} 0) + ${FLIP}`,
    webppl: (n) => `var count = function(n, acc) { return n === 0 ? acc : count(n - 1, acc + 1); };\nInfer({method: 'enumerate'}, function() { return count(${n}, 0) + (flip(0.5) ? 1 : 0); });`,
    exact: (n) => [[String(n), '1/2'], [String(n + 1), '1/2']],
  },
  sumrec: {
    name: 'non-tail recursion', merging: true, model: 'coin:1/2',
    description: '`sum N = N + sum (N − 1)` (depth N on the evaluator\'s stack)',
    llmbda: (n) => `let sum = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in sum ${n}`,
    webppl: (n) => `var sum = function(n) { return n === 0 ? 0 : n + sum(n - 1); };\nInfer({method: 'enumerate'}, function() { return sum(${n}); });`,
    exact: (n) => [[String((BigInt(n) * BigInt(n + 1)) / 2n), '1']],
  },
  coins: {
    name: '(a) sum of N flips (loop)', merging: true, model: COINS.model,
    description: COINS.description,
    llmbda: COINS.llmbda, webppl: COINS.webpplEnumerate!, webpplCached: COINS.webpplCached!,
    exact: binomial,
  },
  chain: {
    name: '(b) 3-way chain mod 5', merging: true, model: CHAIN.model,
    description: CHAIN.description,
    llmbda: CHAIN.llmbda, webppl: CHAIN.webpplEnumerate!, webpplCached: CHAIN.webpplCached!,
    exact: chainExact,
  },
  straight: {
    name: 'straight-line flips', merging: false, model: 'coin:1/2',
    description: '`let x_i = flip` for i = 1..N, then `x1 + … + xN` (no two states equal until the sum)',
    llmbda: (n) => `${Array.from({ length: n }, (_, i) => `let x${i + 1} = ${FLIP} in`).join(' ')} ${Array.from({ length: n }, (_, i) => `x${i + 1}`).join(' + ')}`,
    webppl: (n) => `Infer({method: 'enumerate'}, function() {\n${Array.from({ length: n }, (_, i) => `  var x${i + 1} = flip(0.5) ? 1 : 0;`).join('\n')}\n  return ${Array.from({ length: n }, (_, i) => `x${i + 1}`).join(' + ')};\n});`,
    exact: binomial,
  },
  strings: {
    name: 'flips into a string (2^N outcomes)', merging: false, model: 'coin:1/2',
    description: 'N forked flips concatenated into a string: every path its own outcome',
    llmbda: (n) => `let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str(${FLIP}))) in go ${n} ""`,
    webppl: (n) => `var go = function(n, acc) { return n === 0 ? acc : go(n - 1, acc + (flip(0.5) ? '1' : '0')); };\nInfer({method: 'enumerate'}, function() { return go(${n}, ''); });`,
    check: (n, dist) => {
      const want = Q.show(Q.rat(1n, 2n ** BigInt(n)));
      if (dist.length !== 2 ** n) return `${dist.length} outcomes, want ${2 ** n}`;
      const bad = dist.find(([v, p]) => p !== want || !new RegExp(`^"[01]{${n}}"$`).test(v));
      return bad ? `outcome ${bad[0]} has ${bad[1]}, want ${want}` : undefined;
    },
  },
};
