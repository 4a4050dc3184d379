/**
 * User code (a lattice, a variant's rules, primitives) runs guarded: every exported function is
 * wrapped so that an exception it throws becomes a `UserCodeError` naming the user's file, line and
 * function (a user error, exit 2, or a per-case "user code failed" outcome), a wrong return shape is
 * caught at the boundary instead of crashing the evaluator later, and a watchdog (util/heartbeat.ts)
 * can tell which user function a stuck thread is in.
 */
import { UserError } from './absurd.ts';
import { DiscardCase } from './discard.ts';
import { enterUser, leaveUser, siteId } from './heartbeat.ts';

/** An exception (or a wrong result) from the user's own code. */
export class UserCodeError extends UserError {
  readonly userCode = true;
}

/** Is `e` a failure of user code (also across a worker boundary, where only the message survives)? */
export function isUserCodeError(e: unknown): e is UserCodeError {
  return e instanceof UserCodeError;
}

/** Control-flow errors of the tool itself that pass through user code unchanged. */
function passesThrough(e: unknown): boolean {
  if (e instanceof UserError || DiscardCase.isDiscard(e)) return true;
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'StackLimitError' || name === 'NeedAnswer' || name === 'Halt' || (e instanceof RangeError && /call stack/.test(e.message));
}

/** `FILE:LINE` of the deepest frame of `e`'s stack inside the user's file, if any. */
export function userLine(e: unknown, file: string): string | undefined {
  const stack = e instanceof Error ? e.stack ?? '' : '';
  const base = file.replace(/^.*[\\/]/, '').replace(/\.(m?ts|m?js)$/, '');
  for (const line of stack.split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?[^()\s]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!m) continue;
    const f = m[1]!.replace(/^.*[\\/]/, '');
    // the file itself, or the `.NAME.llmbda-….mts` copy it is loaded through
    if (f.startsWith(`${base}.`) || f.startsWith(`.${base}.llmbda-`)) return `${file}:${m[2]}`;
  }
  return undefined;
}

/**
 * Wrap a user function: `file` and `name` say whose it is; `checkResult` (optional) returns why a
 * result has the wrong shape.
 */
export function guardUserFn<F extends (...args: never[]) => unknown>(fn: F, file: string, name: string, checkResult?: (r: unknown) => string | undefined): F {
  const id = siteId(`${file}:${name}`);
  const guarded = function (this: unknown, ...args: never[]): unknown {
    const prev = enterUser(id);
    let r: unknown;
    try {
      r = fn.apply(this, args);
    } catch (e) {
      if (passesThrough(e)) throw e;
      throw userFailure(e, file, name);
    } finally {
      leaveUser(prev);
    }
    const why = checkResult?.(r);
    if (why !== undefined) throw new UserCodeError(`user code failed in ${file} (${name}): ${why}`);
    return r;
  };
  return guarded as unknown as F;
}

/** What a user function threw, as the user's error: their file and line, the function, the first line of the message. */
function userFailure(e: unknown, file: string, name: string): UserCodeError {
  const msg = e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e);
  return new UserCodeError(`user code failed in ${userLine(e, file) ?? file} (${name}): ${msg.split('\n')[0]}`);
}

/** A description of a value for "returned X" messages. */
export function describeReturn(r: unknown): string {
  if (r === null) return 'null';
  if (Array.isArray(r)) return 'an array';
  if (typeof r === 'object') return `an object {${Object.keys(r as object).slice(0, 4).join(', ')}}`;
  return typeof r === 'string' ? `the string ${JSON.stringify(r.slice(0, 30))}` : `${typeof r} ${String(r)}`;
}

/**
 * Wrap a user function that may return a promise (a target's `run`): like `guardUserFn`, and a rejection is
 * turned into a `UserCodeError` too. The watchdog's site stays on `FILE:name` until the promise settles, so a
 * target that loops after an `await` is still named (the toolkit awaits one run at a time).
 */
export function guardUserAsyncFn<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, file: string, name: string): (...args: A) => R | Promise<R> {
  const id = siteId(`${file}:${name}`);
  const wrap = (e: unknown): unknown => {
    if (passesThrough(e) || (e as { name?: unknown } | null)?.name === 'OracleAbort') return e;
    return userFailure(e, file, name);
  };
  return (...args: A): R | Promise<R> => {
    const prev = enterUser(id);
    let r: R | Promise<R>;
    try {
      r = fn(...args);
    } catch (e) {
      leaveUser(prev);
      throw wrap(e);
    }
    if (!(r instanceof Promise)) { leaveUser(prev); return r; }
    return r.then((v) => { leaveUser(prev); return v; }, (e: unknown) => { leaveUser(prev); throw wrap(e); });
  };
}
