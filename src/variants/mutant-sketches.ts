/**
 * Soundness sketches of the generated mutants that the suites do not (and must not) catch: each says
 * why the weakening cannot make two related runs distinguishable. Reviewed in docs/variants.md.
 * A survivor without a sketch is reported as UNEXPLAINED by `llmbda mutants`, and test/mutants.test.ts
 * fails on it; a mutant with a sketch that a suite catches with a leak fails that test too.
 */
export const MUTANT_SKETCHES: Readonly<Record<string, string>> = {};
