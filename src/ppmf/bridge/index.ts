/** The PPMF ↔ LLMbda bridge: memory pipelines as LLMbda programs on the `ppmf` lattice. */
export * from './check.ts';
export * from './encode.ts';
export * from './generators.ts';
export * from './scenario.ts';
export * from './variants.ts';
