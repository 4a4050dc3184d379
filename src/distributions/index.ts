/** Public entry `llmbda-check/distributions`: exact rationals (as the namespace `Q`) and sub-distributions. */
export * as Q from './rational.ts';
export type { Rational } from './rational.ts';
export * from './subdist.ts';
export { CommonSum, sumAll } from './common.ts';
