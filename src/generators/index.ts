/** Public entry `llmbda-check/generators`: fast-check generators of programs, labels, models, low-equivalent pairs and skeletons with high holes. */
export * from './ast.ts';
export * from './labels.ts';
export * from './models.ts';
export * from './pairs.ts';
export * from './programs.ts';
export * from './skeleton.ts';
