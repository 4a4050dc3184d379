/**
 * The append-only confirmation log (spec ppmf.md "The gate", step 3): platform records of the user
 * confirming one action, bound to (principal, canonical target, risk class, scope).
 *
 * Only the platform appends (`appendConfirmation`, called by the UI flow when the gate asks and the
 * user says yes). Memory writers have no handle on the log: consolidation neither receives nor
 * returns one, so text such as "user-confirmed" cannot create an event. Stored fields are `unknown`
 * and read fail-closed, like memory metadata.
 */
import type { Risk } from './policy.ts';
import { parseRisk } from './policy.ts';
import type { Target } from './targets.ts';
import { parseTargetKey, sameTarget, targetKey } from './targets.ts';

/** A confirmation event: the user confirmed `risk` actions on `target`, for `principal`, within `scope`. */
export interface ConfirmationEvent {
  readonly principal: string;
  readonly target: Target;
  readonly risk: Risk;
  /** [ours] A task domain such as `banking`; an event only counts in its own scope. */
  readonly scope: string;
}

/** One stored entry: a sequence number and the fields as they come back from the store. */
export interface StoredConfirmation {
  readonly seq: number;
  readonly fields: {
    readonly principal?: unknown;
    readonly target?: unknown;
    readonly risk?: unknown;
    readonly scope?: unknown;
  };
}

/** The log: entries in append order. Treat as immutable; `appendConfirmation` returns a new log. */
export interface ConfirmationLog {
  readonly entries: readonly StoredConfirmation[];
}

/** The empty log. */
export const EMPTY_LOG: ConfirmationLog = Object.freeze({ entries: Object.freeze([]) });

/** Append one event (platform only). The old log is unchanged: append-only by construction. */
export function appendConfirmation(log: ConfirmationLog, e: ConfirmationEvent): ConfirmationLog {
  const entry: StoredConfirmation = Object.freeze({
    seq: log.entries.length,
    fields: Object.freeze({ principal: e.principal, target: targetKey(e.target), risk: e.risk, scope: e.scope }),
  });
  return Object.freeze({ entries: Object.freeze([...log.entries, entry]) });
}

/** A log holding these events, in order. */
export function logOf(events: readonly ConfirmationEvent[]): ConfirmationLog {
  return events.reduce(appendConfirmation, EMPTY_LOG);
}

/** Decode one stored entry; `undefined` when any field is missing or malformed (fail closed). */
export function readConfirmation(s: StoredConfirmation): ConfirmationEvent | undefined {
  const { principal, scope } = s.fields;
  const target = parseTargetKey(s.fields.target);
  const risk = parseRisk(s.fields.risk);
  if (typeof principal !== 'string' || principal === '' || typeof scope !== 'string' || scope === '') return undefined;
  if (target === undefined || risk === undefined) return undefined;
  return { principal, target, risk, scope };
}

/** The readable events of a log, in order (corrupted entries are skipped). */
export function readableEvents(log: ConfirmationLog): readonly ConfirmationEvent[] {
  return log.entries.map(readConfirmation).filter((e): e is ConfirmationEvent => e !== undefined);
}

/** Is there an event for exactly this principal, target, risk class and scope? */
export function hasConfirmation(log: ConfirmationLog, principal: string, target: Target, risk: Risk, scope: string): boolean {
  return readableEvents(log).some(
    (e) => e.principal === principal && sameTarget(e.target, target) && e.risk === risk && e.scope === scope,
  );
}

/** Human rendering of an event. */
export function showConfirmation(e: ConfirmationEvent): string {
  return `${e.principal} confirmed ${e.risk} on ${targetKey(e.target)} (scope ${e.scope})`;
}
