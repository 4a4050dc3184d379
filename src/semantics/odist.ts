/**
 * The evaluator's working distributions: exact weights over outcomes of a derivation attempt, keyed by
 * per-evaluation interned ids (cheap) — final configurations and, for diagnostics, failures.
 * Bind (`Ev.then`) never normalises; equal outcomes merge on insertion.
 */
import * as Q from '../distributions/rational.ts';
import type { Value } from '../syntax/ast.ts';
import type { Failure } from './config.ts';

/** An interned message list (a persistent snoc-list). */
export interface Msgs {
  readonly id: number;
  readonly prev: Msgs | null;
  readonly last: string;
  readonly length: number;
}

/** A conversation inside the evaluator: label plus interned message list (`null` = ε). */
export interface Conv<L> {
  readonly label: L;
  readonly msgs: Msgs | null;
}

export type Outcome<L> =
  | { readonly kind: 'ok'; readonly conv: Conv<L>; readonly value: Value<L> }
  | Failure;

export interface Weighted<L> {
  readonly outcome: Outcome<L>;
  weight: Q.Rational;
}

/** A finite map from outcome keys to weighted outcomes. */
export class ODist<L> {
  readonly map = new Map<string, Weighted<L>>();

  /** Add `w` to the outcome with key `key`. */
  push(key: string, outcome: Outcome<L>, w: Q.Rational): void {
    const cur = this.map.get(key);
    if (cur) cur.weight = Q.add(cur.weight, w);
    else this.map.set(key, { outcome, weight: w });
  }

  get size(): number {
    return this.map.size;
  }

  /** The only entry, when the distribution is a point mass of weight 1 (the common, fast case). */
  single(): Weighted<L> | undefined {
    if (this.map.size !== 1) return undefined;
    const [w] = this.map.values();
    return w && Q.eq(w.weight, Q.ONE) ? w : undefined;
  }
}
