/**
 * Signalling "this generated case cannot be judged" (too expensive, out of a budget) from deep inside
 * the code under test. The property runner discards such a case (`fc.pre(false)`) and counts it; it is
 * never a verdict. Lives at the bottom of the dependency order so the evaluator can raise it and the
 * generic runner can recognise it without either importing the other.
 */
export class DiscardCase extends Error {
  override readonly name: string = 'DiscardCase';
  /** Typed guard: is `e` a discard signal (of any subclass)? */
  static isDiscard(e: unknown): e is DiscardCase {
    return e instanceof DiscardCase;
  }
}
