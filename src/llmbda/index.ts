/** Public entry `llmbda-check/llmbda`: LLMbda as a subject: suite contexts, pair evaluation, minimiser, corpus, reports. */
export * from './camel.ts';
export * from './context.ts';
export * from './corpus.ts';
export * from './hunt.ts';
export * from './minimise.ts';
export * from './observed.ts';
export * from './pair-eval.ts';
export * from './prims.ts';
export * from './report.ts';
export * from './variant-ctx.ts';
export * from './explain.ts';
