/** Public entry `llmbda-check/variants`: variant semantics: define your own, and the catalogue of rule changes. */
export * from './catalogue.ts';
export * from './variant.ts';
// The rule helpers a variant reuses ("the rest of the rule": sendAfter, appBody, decodeLabel, …), the
// rule table types, and the evaluator handle `Ev` a rule receives.
export * from '../semantics/rules.ts';
export * from '../semantics/rules-types.ts';
export type { Ev } from '../semantics/ev.ts';
export * from '../semantics/decisions.ts';
export * from './mutants.ts';
