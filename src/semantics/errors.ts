/** Errors shared by the evaluator and `peval` (kept apart so `peval` imports no evaluator code). */

/**
 * Raised when an evaluation exceeds its step budget (`EvalOptions.maxSteps`). Property runners treat it
 * as a discarded case (`discard`), never as a verdict.
 */
export class BudgetExceeded extends Error {
  override readonly name = 'BudgetExceeded';
  readonly discard = true;
}

/** Raised (as a clear user-facing error) when derivations nest deeper than the JavaScript stack allows. */
export class StackLimitError extends Error {
  override readonly name = 'StackLimitError';
}
