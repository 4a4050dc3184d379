/** Errors shared by the evaluator and `peval` (kept apart so `peval` imports no evaluator code). */
import { DiscardCase } from '../util/discard.ts';

/**
 * Raised when an evaluation exceeds its step budget (`EvalOptions.maxSteps`). Property runners treat it
 * as a discarded case (it is a `DiscardCase`), never as a verdict.
 */
export class BudgetExceeded extends DiscardCase {
  override readonly name = 'BudgetExceeded';
  /** Typed guard: `BudgetExceeded.is(e)`. */
  static is(e: unknown): e is BudgetExceeded {
    return e instanceof BudgetExceeded;
  }
}

/** Raised (as a clear user-facing error) when derivations nest deeper than the JavaScript stack allows. */
export class StackLimitError extends Error {
  override readonly name = 'StackLimitError';
  static is(e: unknown): e is StackLimitError {
    return e instanceof StackLimitError;
  }
}
