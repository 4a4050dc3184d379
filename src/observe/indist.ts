/**
 * Indistinguishability `∼n` (spec §5) by erasure [ours]: erase every `l:e` with `l ⋢ n` to a hole `•`
 * and every conversation with `ℓ(C) ⋢ n` to `•`, then compare syntactically. The erasure is also the
 * canonical key of a `∼n` class, so pushforwards and compatibility work on strings.
 */
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import * as Q from '../distributions/rational.ts';
import { absurd } from '../util/absurd.ts';
import type { Conversation, Final } from '../semantics/config.ts';
import { compatible, distance, mass, maxSum, pushforward, type SubDist } from '../distributions/subdist.ts';

/** What an erased (unobservable) value shows as. */
const ERASED = '•';

/** The erasure of `e` at observer `n`, as a canonical string. */
export function eraseExpr<L>(lat: Lattice<L>, n: L, e: Expr<L>): string {
  const go = (e: Expr<L>): string => {
    switch (e.kind) {
      case 'var': return e.name;
      case 'lam': return `(\\${e.param}.${go(e.body)})`;
      case 'app': return `(${go(e.fn)} ${go(e.arg)})`;
      case 'send': return `(send ${go(e.arg)})`;
      case 'recv': return 'recv';
      case 'fork': return `(fork ${go(e.body)})`;
      case 'clear': return 'clear';
      case 'label': return lat.leq(e.label, n) ? `(${lat.show(e.label)}:${go(e.body)})` : ERASED;
      case 'dynlabel': return `(${go(e.label)}:${go(e.body)})`;
      case 'test': return `(${go(e.label)}?${go(e.body)})`;
      case 'assert': return `(assert ${go(e.label)} ${go(e.body)})`;
      case 'endorse': return `(endorse ${go(e.label)} ${go(e.body)})`;
      case 'num': return Q.show(e.value);
      case 'str': return JSON.stringify(e.value);
      case 'bool': return String(e.value);
      case 'null': return 'null';
      case 'prim': return `(prim ${JSON.stringify(e.name)} ${go(e.arg)})`;
      case 'record': return `{${e.fields.map((f) => `${JSON.stringify(f.name)}:${go(f.expr)}`).join(',')}}`;
      case 'array': return `[${e.elems.map(go).join(',')}]`;
      case 'field': return `${go(e.target)}.${JSON.stringify(e.name)}`;
      case 'index': return `${go(e.target)}.[${go(e.index)}]`;
      default: return absurd(e);
    }
  };
  return go(e);
}

/** The erasure of a conversation at observer `n`. */
export function eraseConversation<L>(lat: Lattice<L>, n: L, c: Conversation<L>): string {
  return lat.leq(c.label, n) ? `${lat.show(c.label)}:${JSON.stringify(c.messages)}` : ERASED;
}

/** `e0 ∼n e1` on expressions (and values). */
export function indistExpr<L>(lat: Lattice<L>, n: L, a: Expr<L>, b: Expr<L>): boolean {
  return eraseExpr(lat, n, a) === eraseExpr(lat, n, b);
}

/** `C0 ∼n C1`. */
export function indistConversation<L>(lat: Lattice<L>, n: L, a: Conversation<L>, b: Conversation<L>): boolean {
  return eraseConversation(lat, n, a) === eraseConversation(lat, n, b);
}

/** The canonical key of the `∼n` class of a final configuration. */
export function classKey<L>(lat: Lattice<L>, n: L): (f: Final<L>) => string {
  return (f) => `${eraseConversation(lat, n, f.conv)} ⊢ ${eraseExpr(lat, n, f.value)}`;
}

/** `μₙ`: the pushforward of a denotation to `∼n` classes. */
export function observe<L>(lat: Lattice<L>, n: L, mu: SubDist<Final<L>>): SubDist<string> {
  return pushforward(mu, classKey(lat, n));
}

/** The outcome of comparing two observed denotations (TIPNI's conclusion). */
export interface Comparison {
  readonly compatible: boolean;
  /** `Σ_q max(μ(q), ν(q))`. */
  readonly maxSum: Q.Rational;
  readonly distance: Q.Rational;
  /** Lemma 5's bound `(div μ + div ν) / 2`. */
  readonly bound: Q.Rational;
}

/** Compare two observed distributions: compatibility, total variation and Lemma 5's bound. */
export function compare(mu: SubDist<string>, nu: SubDist<string>): Comparison {
  const div = (d: SubDist<string>): Q.Rational => Q.sub(Q.ONE, mass(d));
  return {
    compatible: compatible(mu, nu),
    maxSum: maxSum(mu, nu),
    distance: distance(mu, nu),
    bound: Q.div(Q.add(div(mu), div(nu)), Q.rat(2)),
  };
}
