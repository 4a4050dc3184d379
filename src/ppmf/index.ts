/** Public entry `llmbda-check/ppmf`: the provenance-preserving memory firewall, its scenarios, hunt, table and bridge into LLMbda. */
export * from './binding.ts';
export * from './confirmations.ts';
export * from './consolidate.ts';
export * from './context.ts';
export * from './gate.ts';
export * from './generators.ts';
export * from './hunt.ts';
export * from './policy.ts';
export * from './records.ts';
export * from './retrieval.ts';
export * from './scenario.ts';
export * from './systems.ts';
export * from './table.ts';
export * from './targets.ts';
export * from './variants.ts';
export * from './writer.ts';
export * as bridge from './bridge/index.ts';
