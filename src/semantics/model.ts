/**
 * The model `M` the semantics is parametric in (spec §4): response distributions, parsing of responses
 * into code, serialisation of sent values, the primitive table and the prelude.
 */
import type { PlainValue } from '../syntax/ast.ts';
import type { Rational } from '../distributions/rational.ts';

/** A finite sub-distribution over response strings (exact weights, total ≤ 1). */
export type ResponseDist = readonly (readonly [response: string, weight: Rational])[];

/** Result of a primitive: a label-free value, or failure (the run is stuck with this reason). */
export type PrimResult = { readonly ok: true; readonly value: PlainValue } | { readonly ok: false; readonly reason: string };

/** The primitive table: `primEval(p, v)`. Must return label-free values or fail. */
export type PrimTable = Readonly<Record<string, (v: PlainValue) => PrimResult>>;

/**
 * A probabilistic model (spec §4). `parse`, `serialise`, `primEval` and `prelude` have standard
 * implementations (see `standardModel`); a model usually only supplies `weight`.
 */
export interface PModel {
  /** How the model is named on the command line, e.g. `coin:3/10`. */
  readonly name: string;
  /** `weight(c)`: the response distribution given the message list `c`. */
  weight(messages: readonly string[]): ResponseDist;
  /** `serialise(v)`: label-free value → message. */
  serialise(v: PlainValue): string;
  /** The primitive table. */
  readonly prims: PrimTable;
  /** Source of the prelude (`let name = …` definitions), parsed per lattice at load. */
  readonly preludeSource: string;
  /**
   * True when every `weight(c)` is a point mass or empty (Lemma 3's deterministic models).
   * Informational: suites that need it check the actual distributions too.
   */
  readonly deterministic?: boolean;
}
