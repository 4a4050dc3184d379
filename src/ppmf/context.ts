/** The context every PPMF suite runs in, and the type of such a suite. */
import type { PropertySuite } from '../runner/suite.ts';
import type { MemorySystem } from './systems.ts';

/** The context of a PPMF suite: the memory system under test. */
export interface PpmfCtx {
  readonly system: MemorySystem;
}

/** A PPMF suite of any case type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyPpmfSuite = PropertySuite<any, PpmfCtx>;
