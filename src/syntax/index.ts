/** Public entry `llmbda-check/syntax`: the surface syntax: AST, parser, printer, syntax helpers. */
export * from './ast.ts';
export * from './errors.ts';
export * from './helpers.ts';
export * from './label-ops.ts';
export * from './lexer.ts';
export * from './parser.ts';
export * from './printer.ts';
