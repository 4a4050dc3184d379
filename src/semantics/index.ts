/** Public entry `llmbda-check/semantics`: the exact evaluator, its rule table and helpers, models, peval. */
export * from './config.ts';
export * from './errors.ts';
export * from './ev.ts';
export * from './evaluate.ts';
export * from './model.ts';
export * from './odist.ts';
export * from './oracle-tree.ts';
export * from './peval.ts';
export * from './prelude.ts';
export * from './prims.ts';
export * from './rules-types.ts';
export * from './rules.ts';
export * from './serialise.ts';
export * from './values.ts';
export * from './models/index.ts';
export * from './decisions.ts';
export * from './trace.ts';
