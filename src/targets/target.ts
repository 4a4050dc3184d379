/**
 * The target interface: an interpreter of the calculus written elsewhere, run by the toolkit (issue 13).
 *
 * A target is deterministic given its oracle (Theorem 3): the toolkit runs it with a scripted oracle and,
 * by re-running along every branch of the `recv` tree, obtains its exact sub-distribution of final states
 * (`enumerate.ts`). A target receives the program as a core AST (and its surface syntax, for targets with
 * a parser), runs it at `pc` from a starting conversation, and asks `oracle(messages)` at every `recv`:
 * the answer is the model's response string together with `parse(r)[prelude]` already built (parsing is
 * part of the model, spec §4, so targets without a parser need none).
 */
import type { Expr, ExprKind, Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import type { Conversation } from '../semantics/config.ts';

/** One program run. */
export interface RunRequest<L> {
  readonly pc: L;
  readonly conv: Conversation<L>;
  /** The closed program, as the core AST. */
  readonly program: Expr<L>;
  /** The same program in surface syntax (core form, parseable by `src/syntax/parser.ts`). */
  readonly source: string;
  /** Derivation depth, as in the reference evaluator (`fuel`); a target may ignore it. */
  readonly fuel: number;
  /** Aborted when the toolkit gives up on the run (timeout): long-running in-process targets should check it. */
  readonly signal?: AbortSignal;
}

/** What the oracle answers at a `recv`: the response `r` and the expression `parse(r)[prelude]`. */
export interface OracleAnswer<L> {
  readonly response: string;
  /** `[true, e]` or `[false, "parse error: …"]`, exactly what the Recv rule evaluates (at `ℓ(C)`). */
  readonly code: Expr<L>;
}

/**
 * The oracle: called with the conversation's messages at a `recv` (before the response is appended).
 * It may throw `OracleAbort` to end the run (the toolkit has what it needs from it): a target must let
 * that exception propagate (whatever the run returns afterwards is ignored).
 */
export type TargetOracle<L> = (messages: readonly string[]) => OracleAnswer<L>;

/** Thrown by the oracle to stop a run; never a property violation. */
export class OracleAbort extends Error {
  override readonly name = 'OracleAbort';
}

/** The outcome a target reports for one run. */
export type TargetResult<L> =
  /** A final configuration `(C', V)`. */
  | { readonly kind: 'ok'; readonly value: Value<L>; readonly conv: Conversation<L> }
  /** No rule applies (a runtime error of the program: the reference's stuck). */
  | { readonly kind: 'stuck'; readonly reason: string }
  /** The run ran out of fuel. */
  | { readonly kind: 'fuel' };

/** How a run can fail on the toolkit's side of the boundary: the target's fault, reported, never fatal. */
export type TransportFailure =
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'crash'; readonly reason: string }
  | { readonly kind: 'garbage'; readonly reason: string };

/** The outcome of one run as the enumerator sees it. */
export type RunOutcome<L> = TargetResult<L> | TransportFailure;

/** Constructs a target cannot express: the generators' cases using them are skipped and counted. */
export interface FeatureMask {
  /** Core constructs the target does not implement. */
  readonly kinds?: readonly ExprKind[];
  /** Primitives (`prim p e`, including `binop_+`) the target does not implement. */
  readonly prims?: readonly string[];
}

/** An implementation under test. */
export interface Target<L> {
  /** Shown in reports. */
  readonly name: string;
  /** The toolkit lattice the target's labels are mapped to. */
  readonly lattice: Lattice<L>;
  readonly features?: FeatureMask;
  /** Run one program. May be synchronous; must not throw for a program's own errors (report `stuck`). */
  run(req: RunRequest<L>, oracle: TargetOracle<L>): RunOutcome<L> | Promise<RunOutcome<L>>;
  /** Release resources (child processes); called once when the toolkit is done with the target. */
  close?(): void | Promise<void>;
}

/** A target of unknown label type (what loaders and the CLI pass around). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTarget = Target<any>;
