/**
 * Configurations of the big-step judgement `pc ⊢ C, e ⇓ C', V ▷ w, s` (spec §3): conversations and the
 * outcomes of a derivation attempt (final configuration, stuck with a reason, or out of fuel).
 */
import type { Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';

/** A conversation `lc:c`: a list of message strings with a label (the join of everything sent into it). */
export interface Conversation<L> {
  readonly label: L;
  readonly messages: readonly string[];
}

/** A final configuration `(C', V)`. */
export interface Final<L> {
  readonly conv: Conversation<L>;
  readonly value: Value<L>;
}

/** Names of the reference rules, exactly as in the paper (spec §3), plus `Var` for open terms. */
export const RULE_NAMES = [
  'Var', 'Lam', 'App', 'Send', 'Recv', 'Fork', 'Clear',
  'Labelled', 'LabelFlow', 'LabelTest', 'LabelAssert', 'Endorse',
  'ScalarLit', 'Prim', 'RecordNil', 'RecordCons', 'ArrayNil', 'ArrayCons', 'FieldAccess', 'ArrayIndex',
] as const;
export type RuleName = (typeof RULE_NAMES)[number];

/** Where a unit of missing mass went. */
export type Failure =
  | { readonly kind: 'stuck'; readonly rule: string; readonly reason: string }
  | { readonly kind: 'fuel' };

/** The empty conversation `⊥:[]`. */
export function emptyConversation<L>(lat: Lattice<L>): Conversation<L> {
  return { label: lat.bottom, messages: [] };
}

/** Canonical key of a conversation (label by `show`, messages as JSON). */
export function conversationKey<L>(lat: Lattice<L>, c: Conversation<L>): string {
  return `${lat.show(c.label)}:${JSON.stringify(c.messages)}`;
}

/** Human rendering `["S"]:["msg1", "msg2"]`. */
export function showConversation<L>(lat: Lattice<L>, c: Conversation<L>): string {
  return `${lat.show(c.label)}:[${c.messages.map((m) => JSON.stringify(m)).join(', ')}]`;
}

/** Canonical key of a failure (stuck reasons are kept apart per rule and reason). */
export function failureKey(f: Failure): string {
  return f.kind === 'fuel' ? 'fuel' : `stuck ${f.rule}: ${f.reason}`;
}
