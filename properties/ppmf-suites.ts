/** The PPMF property suites, in the order `huntPpmf` runs them (the end-to-end story first). */
import type { PropertySuite } from '../src/check/suite.ts';
import { ppmfBenignCompleteness } from './ppmf-benign-completeness.ts';
import { ppmfDecoyRobustness } from './ppmf-decoy-robustness.ts';
import { ppmfFailClosed } from './ppmf-fail-closed.ts';
import { ppmfGateSoundness } from './ppmf-gate-soundness.ts';
import { ppmfNonAmplification } from './ppmf-non-amplification.ts';
import type { PpmfCtx } from './ppmf-truth.ts';
import { ppmfUnrelatedConfirmation } from './ppmf-unrelated-confirmation.ts';

/** A PPMF suite of any case type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPpmfSuite = PropertySuite<any, PpmfCtx>;

/** Every PPMF suite. */
export const PPMF_SUITES: readonly AnyPpmfSuite[] = [
  ppmfGateSoundness,
  ppmfNonAmplification,
  ppmfUnrelatedConfirmation,
  ppmfDecoyRobustness,
  ppmfFailClosed,
  ppmfBenignCompleteness,
];
