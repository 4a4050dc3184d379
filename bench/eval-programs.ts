/**
 * The exact-evaluation benchmark programs, written once in LLMbda and once in WebPPL.
 *
 * The LLMbda sources are plain recursive loops: no hand-written caching. Every random choice is a
 * forked model call `(fork @"…").[1]`, so the conversation is the same on every path and equal
 * intermediate states can merge. WebPPL gets the same loop under plain `enumerate`, and its
 * hand-written dynamic-programming idiom (`dp.cache` + nested `Infer`), which marginalises per step.
 */
import { fileURLToPath } from 'node:url';

/** A benchmark family: one program per size `n`, in both languages. */
export interface Family {
  /** Short name used in tables and on the command line. */
  readonly name: string;
  /** One sentence: what the program computes. */
  readonly description: string;
  /** The model the LLMbda side runs under, as `llmbda run --model` spells it. */
  readonly model: string;
  /** LLMbda source for size `n`. */
  llmbda(n: number): string;
  /** WebPPL source, plain exact enumeration over all paths (absent for LLMbda-only families). */
  webpplEnumerate?(n: number): string;
  /** WebPPL source, the hand-cached dynamic-programming idiom. */
  webpplCached?(n: number): string;
}

/** The three-way model of family (b): every conversation answers 0, 1, 2 with weights 1/2, 1/3, 1/6. */
export const THREE_WAY_MODEL_FILE: string = fileURLToPath(new URL('./models/three-way.json', import.meta.url));

/** Issue 3's benchmark: N forked fair flips summed mod 5 (paths grow as 2^N, outcomes stay 5). */
export const ISSUE3: Family = {
  name: 'flips-mod-5',
  description: 'sum of N forked fair flips mod 5 (the program of issue 3)',
  model: 'coin:1/2',
  llmbda: (n) =>
    `let step = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) ((acc + (fork @"flip").[1]) % 5)) in step ${n} 0`,
};

/** (a) The sum of N fair coin flips: N + 1 outcomes, 2^N paths. */
export const COINS: Family = {
  name: '(a) sum of N flips',
  description: 'sum of N fair coin flips (forked `@`s in LLMbda, `flip(0.5)` in WebPPL)',
  model: 'coin:1/2',
  llmbda: (n) =>
    `let step = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + (fork @"flip").[1])) in step ${n} 0`,
  webpplEnumerate: (n) =>
    `var loop = function(n, acc) { return n === 0 ? acc : loop(n - 1, acc + (flip(0.5) ? 1 : 0)); };\n` +
    `Infer({method: 'enumerate'}, function() { return loop(${n}, 0); });`,
  webpplCached: (n) =>
    `var step = dp.cache(function(n) {\n` +
    `  return Infer({method: 'enumerate'}, function() {\n` +
    `    if (n === 0) { return 0; }\n` +
    `    return sample(step(n - 1)) + (flip(0.5) ? 1 : 0);\n` +
    `  });\n` +
    `});\n` +
    `step(${n});`,
};

/** (b) A Markov chain of N three-way choices over a state mod 5: `s ← (s + c) mod 5`, c ∈ {0,1,2} w.p. 1/2, 1/3, 1/6. */
export const CHAIN: Family = {
  name: '(b) 3-way chain mod 5',
  description: 'Markov chain of N three-way choices (weights 1/2, 1/3, 1/6) over a state mod 5; 3^N paths, 5 outcomes',
  model: `table:${THREE_WAY_MODEL_FILE}`,
  llmbda: (n) =>
    `let step = fix (\\loop. \\n. \\s. if n == 0 then s else loop (n - 1) ((s + (fork @"step").[1]) % 5)) in step ${n} 0`,
  webpplEnumerate: (n) =>
    `var loop = function(n, s) { return n === 0 ? s : loop(n - 1, (s + categorical({ps: [1/2, 1/3, 1/6], vs: [0, 1, 2]})) % 5); };\n` +
    `Infer({method: 'enumerate'}, function() { return loop(${n}, 0); });`,
  webpplCached: (n) =>
    `var step = dp.cache(function(n) {\n` +
    `  return Infer({method: 'enumerate'}, function() {\n` +
    `    if (n === 0) { return 0; }\n` +
    `    return (sample(step(n - 1)) + categorical({ps: [1/2, 1/3, 1/6], vs: [0, 1, 2]})) % 5;\n` +
    `  });\n` +
    `});\n` +
    `step(${n});`,
};

/** Families by name (the worker receives names, not functions). */
export const FAMILIES: Readonly<Record<string, Family>> = { issue3: ISSUE3, coins: COINS, chain: CHAIN };
