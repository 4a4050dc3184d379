/** Exhaustiveness check: a `switch` over a discriminated union ends in `default: return absurd(x)`. */
export function absurd(x: never): never {
  throw new Error(`internal error: unhandled case ${JSON.stringify(x)}`);
}

/** An error caused by user input (bad file, bad flag): the CLI prints its message, never a stack trace. */
export class UserError extends Error {
  override readonly name = 'UserError';
}
