/** Errors shared by the evaluator and `peval` (kept apart so `peval` imports no evaluator code). */
import { DiscardCase } from '../util/discard.ts';

/** Which evaluation limit was reached: rule applications, or distinct outcomes in one distribution. */
export type LimitKind = 'steps' | 'outcomes';

/**
 * Raised when an evaluation exceeds one of its limits (`EvalOptions.maxSteps`, `EvalOptions.maxOutcomes`):
 * the evaluation stops, since a truncated distribution is not a denotation. The message says which
 * limit, its value and what to do. Property runners treat it as a discarded case (it is a `DiscardCase`),
 * never as a verdict; the CLI reports the message as a user-facing error.
 */
export class BudgetExceeded extends DiscardCase {
  override readonly name = 'BudgetExceeded';
  constructor(
    message: string,
    /** The limit that was reached (`steps` when not said). */
    readonly limit: LimitKind = 'steps',
    /** Its value. */
    readonly value: number = NaN,
  ) {
    super(message);
  }
  /** Typed guard: `BudgetExceeded.is(e)`. */
  static is(e: unknown): e is BudgetExceeded {
    return e instanceof BudgetExceeded;
  }
}

/** The message of a reached step limit. */
export function stepLimitMessage(maxSteps: number): string {
  return `evaluation stopped: step limit reached (more than ${maxSteps} rule applications, option maxSteps / --max-steps); raise the limit, or lower --fuel to cut deep branches short`;
}

/** The message of a reached outcome limit. */
export function outcomeLimitMessage(maxOutcomes: number): string {
  return `evaluation stopped: outcome limit reached (a distribution grew past ${maxOutcomes} distinct outcomes, option maxOutcomes / --max-outcomes); raise the limit, or make the program branch less (fork or fewer recv)`;
}

/** Raised (as a clear user-facing error) when derivations nest deeper than the JavaScript stack allows. */
export class StackLimitError extends Error {
  override readonly name = 'StackLimitError';
  static is(e: unknown): e is StackLimitError {
    return e instanceof StackLimitError;
  }
}
