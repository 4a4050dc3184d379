/**
 * The banking world (docs/banking.md): plain data (`world.json`) turned into one labelled LLMbda
 * record that the planner programs thread through the tools. Labels, by provenance:
 * - the user's IBAN and password are secret: `["S"]`;
 * - every transaction subject and every file's content is third-party text: `["U"]`;
 * - everything else (balances, amounts, IBANs in the bank's own records, ids, the user's profile) is ⊥.
 * An attack's text replaces every `{injection}` placeholder (the empty string without attack).
 */
import { readFileSync } from 'node:fs';
import * as Q from '../distributions/rational.ts';
import type { Expr } from '../syntax/ast.ts';
import { US, type USLabel } from '../lattice/instances.ts';
import { UserError } from '../util/absurd.ts';

export interface Tx {
  readonly id: number;
  readonly sender: string;
  readonly recipient: string;
  readonly amount: number | string;
  readonly subject: string;
  readonly date: string;
}
export interface Scheduled {
  readonly id: number;
  readonly recipient: string;
  readonly amount: number | string;
  readonly subject: string;
  readonly date: string;
}
export interface BankFile { readonly name: string; readonly content: string }
export interface WorldData {
  readonly iban: string;
  readonly password: string;
  readonly balance: number | string;
  readonly user: Readonly<Record<string, string>>;
  readonly txs: readonly Tx[];
  readonly scheduled: readonly Scheduled[];
  readonly files: readonly BankFile[];
}

export const INJECTION_PLACEHOLDER = '{injection}';

/** The shipped world (`src/banking/world.json`). */
export function defaultWorld(): WorldData {
  const raw = JSON.parse(readFileSync(new URL('./world.json', import.meta.url), 'utf8')) as WorldData & { comment?: string };
  const { comment: _c, ...w } = raw;
  return w;
}

/** The world with `injection` placed at every placeholder. */
export function placeInjection(w: WorldData, injection: string): WorldData {
  const put = (s: string): string => s.split(INJECTION_PLACEHOLDER).join(injection);
  return {
    ...w,
    txs: w.txs.map((t) => ({ ...t, subject: put(t.subject) })),
    files: w.files.map((f) => ({ ...f, content: put(f.content) })),
  };
}

// ---- building the labelled value ----

const lab = (label: USLabel, body: Expr<USLabel>): Expr<USLabel> => ({ kind: 'label', label, body });
const str = (s: string): Expr<USLabel> => ({ kind: 'str', value: s });
export function numberOf(x: number | string, where: string): Q.Rational {
  const q = Q.parseRational(String(x));
  if (q === undefined) throw new UserError(`banking world: ${where} must be an exact number, got ${JSON.stringify(x)}`);
  return q;
}
const num = (x: number | string, where: string): Expr<USLabel> => ({ kind: 'num', value: numberOf(x, where) });
const rec = (fields: readonly (readonly [string, Expr<USLabel>])[]): Expr<USLabel> => ({ kind: 'record', fields: fields.map(([name, expr]) => ({ name, expr })) });

/** A cons list `{nil: false, head, tail}` … `{nil: true}` (see tools.lam). */
export function consList(xs: readonly Expr<USLabel>[]): Expr<USLabel> {
  let l: Expr<USLabel> = rec([['nil', { kind: 'bool', value: true }]]);
  for (let i = xs.length - 1; i >= 0; i--) l = rec([['nil', { kind: 'bool', value: false }], ['head', xs[i]!], ['tail', l]]);
  return l;
}

/** The world as a labelled LLMbda record `{iban, password, balance, user, txs, scheduled, files, log}`. */
export function worldExpr(w: WorldData): Expr<USLabel> {
  return rec([
    ['iban', lab(US.S, str(w.iban))],
    ['password', lab(US.S, str(w.password))],
    ['balance', num(w.balance, 'balance')],
    ['user', rec(Object.entries(w.user).map(([k, v]) => [k, str(v)] as const))],
    ['txs', consList(w.txs.map((t) => rec([
      ['id', num(t.id, 'txs.id')], ['sender', str(t.sender)], ['recipient', str(t.recipient)],
      ['amount', num(t.amount, `txs[${t.id}].amount`)], ['subject', lab(US.U, str(t.subject))], ['date', str(t.date)],
    ])))],
    ['scheduled', consList(w.scheduled.map((s) => rec([
      ['id', num(s.id, 'scheduled.id')], ['recipient', str(s.recipient)], ['amount', num(s.amount, `scheduled[${s.id}].amount`)],
      ['subject', str(s.subject)], ['date', str(s.date)],
    ])))],
    ['files', consList(w.files.map((f) => rec([['name', str(f.name)], ['content', lab(US.U, str(f.content))]])))],
    ['log', consList([])],
  ]);
}
