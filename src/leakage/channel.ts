/**
 * From a program to a channel (docs/leakage.md): the program is run once per value of a secret drawn
 * from a finite domain, each run's denotation is pushed forward to the observer's `∼m` classes
 * (src/observe/indist.ts), and the mass missing from it (stuck, out of fuel, withheld by the model) becomes
 * one more observation, `⊥`: the observer sees that the run produced nothing, as TIPNI's termination
 * channel allows. Each row is then a full distribution, exactly.
 */
import * as Q from '../distributions/rational.ts';
import { keyedEntries, mass, weightOfKey, type SubDist } from '../distributions/subdist.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { freeVars, substMany } from '../syntax/helpers.ts';
import { evaluate } from '../semantics/evaluate.ts';
import type { PModel } from '../semantics/model.ts';
import { closeProgram, type Prelude } from '../semantics/prelude.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import { observe } from '../observe/indist.ts';
import { UserError } from '../util/absurd.ts';
import type { Channel } from './measures.ts';

/** The observation standing for "no final configuration" (stuck, out of fuel or model deficit). */
export const NO_RESULT = '⊥ (no result)';

/** One value of the secret's domain, with its prior weight. */
export interface SecretValue<L> {
  /** How the value is shown (its source text). */
  readonly text: string;
  readonly expr: Expr<L>;
  readonly weight: Q.Rational;
}

/**
 * Put `value` in for the secret `name`: if the program starts with top-level definitions and one of them
 * is `let name = rhs`, its right-hand side is replaced, keeping a static label in front of it
 * (`let secret = ["S"]:11` with value `3` becomes `let secret = ["S"]:3`); otherwise, if `name` is free in
 * the program, it is substituted. Anything else is a user error.
 */
export function substituteSecret<L>(e: Expr<L>, name: string, value: Expr<L>): Expr<L> {
  const go = (e: Expr<L>): Expr<L> | undefined => {
    if (e.kind !== 'app' || e.fn.kind !== 'lam') return undefined;
    const rhs = e.arg;
    if (e.fn.param === name) {
      const replaced = rhs.kind === 'label' ? { kind: 'label' as const, label: rhs.label, body: value } : value;
      return { kind: 'app', fn: e.fn, arg: replaced };
    }
    const body = go(e.fn.body);
    return body === undefined ? undefined : { kind: 'app', fn: { kind: 'lam', param: e.fn.param, body }, arg: rhs };
  };
  const defined = go(e);
  if (defined !== undefined) return defined;
  if (freeVars(e).has(name)) return substMany(e, new Map([[name, value]]));
  throw new UserError(`--secret ${name}: the program neither defines \`let ${name} = …\` at the top level nor uses ${name} as a free variable`);
}

/** What is needed to run the program once per secret. */
export interface ChannelSetup<L> {
  readonly lattice: Lattice<L>;
  readonly model: PModel;
  readonly prelude: Prelude<L>;
  /** The parsed (unclosed) program. */
  readonly program: Expr<L>;
  readonly secret: string;
  readonly domain: readonly SecretValue<L>[];
  /** The observer `m`. */
  readonly observer: L;
  readonly fuel: number;
  readonly semantics?: Semantics;
  /** The starting pc (default ⊥). */
  readonly pc?: L;
  /** Name used in messages (the file). */
  readonly file?: string;
}

/** A channel plus, per secret, the full observation (for display). */
export interface ProgramChannel extends Channel {
  /** Missing mass per secret (the `⊥` column, also present in `rows` when any is positive). */
  readonly missing: readonly Q.Rational[];
}

/** Build the exact channel secret → `∼m` observation (with `⊥`) of a program. */
export function programChannel<L>(s: ChannelSetup<L>): ProgramChannel {
  if (s.domain.length === 0) throw new UserError('--domain needs at least one value');
  const lat = s.lattice;
  const observed = s.domain.map((v) => {
    const e = closeProgram(substituteSecret(s.program, s.secret, v.expr), s.prelude, s.file ?? 'program');
    const r = evaluate(s.model, lat, s.pc ?? lat.bottom, { label: lat.bottom, messages: [] }, e, s.fuel, {
      prelude: s.prelude, ...(s.semantics ? { semantics: s.semantics } : {}),
    });
    return observe(lat, s.observer, r.finals);
  });
  const ch = channelOfObservations(s.domain.map((v) => v.text), observed, s.domain.map((v) => v.weight));
  return { ...ch, missing: observed.map((d) => Q.sub(Q.ONE, mass(d))) };
}

/**
 * The channel of a family of observed runs, one per secret (uniform prior unless given): columns are
 * the `∼m` classes seen anywhere plus `⊥` for each row's missing mass.
 */
export function channelOfObservations(secrets: readonly string[], observed: readonly SubDist<string>[], prior?: readonly Q.Rational[]): Channel {
  const keys = new Set<string>();
  for (const d of observed) for (const { key } of keyedEntries(d)) keys.add(key);
  const outputs = [...keys].sort();
  const missing = observed.map((d) => Q.sub(Q.ONE, mass(d)));
  if (missing.some((x) => !Q.isZero(x))) outputs.push(NO_RESULT);
  const rows = observed.map((d, i) => outputs.map((o) => (o === NO_RESULT ? missing[i]! : weightOfKey(d, o))));
  return { secrets, prior: prior ?? secrets.map(() => Q.rat(1, secrets.length)), outputs, rows };
}
