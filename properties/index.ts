/**
 * The registry of property suites: what `llmbda check` runs and what the tests import. One theorem per
 * file; the LLMbda suites run on every shipped lattice in a `LlmbdaCtx`.
 */
import type { PropertySuite } from '../src/check/suite.ts';
import type { LlmbdaCtx } from '../src/check/context.ts';
import { confinement } from './confinement.ts';
import { lemma2 } from './lemma2.ts';
import { tipni } from './tipni.ts';
import { insulatedTipni } from './insulated-tipni.ts';
import { stripping } from './stripping.ts';
import { highBlindness } from './high-blindness.ts';
import { lemma13 } from './lemma13.ts';
import { lemma3 } from './lemma3.ts';
import { lemma4 } from './lemma4.ts';
import { lemma5 } from './lemma5.ts';
import { theorem3 } from './theorem3.ts';
import { generators } from './generators.ts';
import { adapterTheorem3 } from './adapter-theorem3.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LlmbdaSuite = PropertySuite<any, LlmbdaCtx<unknown>>;

/** The theorem suites, in the order `llmbda check` prints them. */
export const LLMBDA_SUITES: readonly LlmbdaSuite[] = [
  confinement, lemma2, tipni, insulatedTipni, stripping, highBlindness, lemma13, lemma3, lemma4, lemma5, theorem3, generators,
  adapterTheorem3,
];

/** Suites that are not per-lattice theorem suites (run once, or on a user lattice). */
export const OTHER_SUITES = ['lattice-laws', 'distributions'] as const;

export function llmbdaSuiteByName(name: string): LlmbdaSuite | undefined {
  return LLMBDA_SUITES.find((s) => s.name === name);
}
