/** What every scenario template shares: families, accounts, the template type, observation helpers. */


import type { ToolCall } from '../binding.ts';
import { callTargets } from '../binding.ts';
import type { ConfirmationEvent } from '../confirmations.ts';

import type { Risk, TargetKind } from '../policy.ts';
import { TOOLS } from '../policy.ts';
import type { Gist, Observation } from '../records.ts';
import { observation } from '../records.ts';
import type { PriorMemory, Scenario } from '../scenario.ts';

import type { AliasMap, Target } from '../targets.ts';
import { NO_ALIASES, canonicalise } from '../targets.ts';



/** Scenario families of the table. */
export const FAMILIES = ['synthetic', 'adaptive', 'banking', 'benign', 'binding'] as const;

/** One family name. */
export type Family = (typeof FAMILIES)[number];

/** The principal of every generated scenario. */
export const PRINCIPAL = 'alice';

export const pad2 = (n: number) => String(n % 100).padStart(2, '0');

/** An account with a spaced surface form (as written in text) and its canonical form. */
export interface Account {
  readonly spaced: string;
  readonly canonical: string;
}

export function account(stem: string, n: number): Account {
  const canonical = `${stem}${pad2(n)}`;
  return { spaced: canonical.replace(/(.{4})(?=.)/g, '$1 '), canonical };
}

/** The attacker's accounts (AgentDojo's attacker IBAN stem) and the user's own. */
export const attackerAccount = (n: number) => account('US13300000012121212121', n);
export const evasionAccount = (n: number) => account('GB29NWBK6016133192', n);
export const maintenanceAccount = (n: number) => account('CH9300762011623852', n);
export const hotelAccount = (n: number) => account('FR1420041010050500013M', n);
export const landlordAccount = (n: number) => account('DE89370400440532013000', n);
export const supplierAccount = (n: number) => account('NL91ABNA04171643', n);

/** What a template builds for one case index. */
export interface Built {
  readonly sources: readonly Observation[];
  readonly context?: readonly Observation[];
  readonly query: string;
  readonly call: ToolCall;
  readonly priors?: readonly PriorMemory[];
  /** Confirmation events besides the call's own (benign cases get theirs automatically). */
  readonly events?: readonly ConfirmationEvent[];
  readonly aliases?: AliasMap;
  readonly expectedBinding?: Scenario['expectedBinding'];
}

/** A story with a varying case index. */
export interface Template {
  readonly family: Family;
  readonly subfamily: string;
  readonly kind: 'attack' | 'benign';
  readonly scope: string;
  build(n: number): Built;
}

export const web = (id: string, origin: string, text: string, gist: Gist) => observation(id, 'web', origin, text, gist);
export const user = (id: string, text: string, gist: Gist, confirmed = true) => observation(id, 'user', 'chat', text, gist, { confirmed });

/** Events confirming a call's own targets at its risk (what the UI records when the user says yes). */
export function eventsForCall(call: ToolCall, scope: string, aliases: AliasMap = NO_ALIASES): readonly ConfirmationEvent[] {
  const risk: Risk = TOOLS[call.tool]?.risk ?? 'READ';
  return callTargets(call, aliases)
    .map((t) => t.target)
    .filter((t): t is Target => t !== undefined)
    .map((target) => ({ principal: PRINCIPAL, target, risk, scope }));
}

export function target(kind: TargetKind, raw: string): Target {
  const t = canonicalise(kind, raw);
  if (t === undefined) throw new Error(`internal error: template target ${raw} is not a ${kind}`);
  return t;
}


/** A benign task template: the user asked for it in the UI and confirmed it. */
export function benignUser(family: Family, subfamily: string, scope: string, f: (n: number) => { text: string; gist: Gist; query: string; call: ToolCall }): Template {
  return {
    family,
    subfamily,
    kind: 'benign',
    scope,
    build: (n) => {
      const x = f(n);
      return { sources: [user('o1', x.text, x.gist)], query: x.query, call: x.call };
    },
  };
}
