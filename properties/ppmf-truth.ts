/**
 * Ground truth for the PPMF properties, written independently of the firewall's own code: the true
 * trust of observations and memories comes from the intact platform facts in a scenario (channel,
 * UI confirmation, tool inputs) through the policy's channel table, never from what a system stored.
 * Shared infrastructure (canonical targets, the pipeline) is imported; authority judgements are not.
 */
import type { Channel, Risk, Trust } from '../src/ppmf/policy.ts';
import { HOLDS, fails } from '../src/runner/suite.ts';
import { arbScenario } from '../src/ppmf/generators.ts';
import { CHANNEL_TRUST, CHANNELS, REQUIRED_TRUST, TRUST_LEVELS } from '../src/ppmf/policy.ts';
import type { ConfirmationLog } from '../src/ppmf/confirmations.ts';
import type { Observation, ObservationPool } from '../src/ppmf/records.ts';
import { poolOf } from '../src/ppmf/records.ts';
import type { Branch, Scenario } from '../src/ppmf/scenario.ts';
import { CONSOLIDATED_ID, narrate, priorObservation, runScenario } from '../src/ppmf/scenario.ts';
import type { PpmfCtx } from '../src/ppmf/context.ts';
import type { AliasMap, Target } from '../src/ppmf/targets.ts';
import { extractTargets, targetKey } from '../src/ppmf/targets.ts';

export type { PpmfCtx } from '../src/ppmf/context.ts';

/** A case of a relational PPMF property: a scenario plus whatever the property varies. */
export interface WithScenario {
  readonly scenario: Scenario;
}

const rank = (t: Trust) => TRUST_LEVELS.indexOf(t);

/** `a ⪯ b`. */
export function atMost(a: Trust, b: Trust): boolean {
  return rank(a) <= rank(b);
}

/** Least of a list; UNKNOWN for none. */
export function least(ts: readonly Trust[]): Trust {
  return ts.length === 0 ? 'UNKNOWN' : ts.reduce((a, t) => (rank(t) < rank(a) ? t : a));
}

/**
 * True trust of an observation: its channel's trust (USER_CONFIRMED for a UI-confirmed user
 * observation) and no more than any input it was computed from. Unreadable facts count as UNKNOWN.
 */
export function trueTrust(o: Observation, pool: ObservationPool, depth = 0): Trust {
  const ch = o.meta.channel;
  if (depth > 8 || typeof ch !== 'string' || !(CHANNELS as readonly string[]).includes(ch)) return 'UNKNOWN';
  if (typeof o.meta.confirmed !== 'boolean' || !Array.isArray(o.meta.inputs)) return 'UNKNOWN';
  const base: Trust = ch === 'user' && o.meta.confirmed ? 'USER_CONFIRMED' : CHANNEL_TRUST[ch as Channel];
  const inputs = (o.meta.inputs as unknown[]).map((id) => {
    const i = typeof id === 'string' ? pool.get(id) : undefined;
    return i === undefined ? 'UNKNOWN' : trueTrust(i, pool, depth + 1);
  });
  return least([base, ...inputs]);
}

/** True trust of every memory a scenario's store can hold, by id (consolidated: least of its sources). */
export function truthOf(sc: Scenario): ReadonlyMap<string, Trust> {
  const pool = poolOf([...sc.sources, ...sc.context]);
  const m = new Map<string, Trust>();
  m.set(CONSOLIDATED_ID, least(sc.sources.map((o) => trueTrust(o, pool))));
  for (const p of [...sc.priors, ...sc.decoys]) {
    const o = priorObservation(p);
    m.set(p.id, trueTrust(o, poolOf([o])));
  }
  return m;
}

/** Does a text name a target, exactly or through a unique platform alias? */
export function names(text: string, t: Target, aliases: AliasMap): boolean {
  if (extractTargets(text).some((x) => targetKey(x) === targetKey(t))) return true;
  const lower = text.toLowerCase();
  for (const [alias, ts] of aliases) {
    const only = ts.length === 1 ? ts[0] : undefined;
    if (only !== undefined && targetKey(only) === targetKey(t) && new RegExp(`(?<![a-z0-9_-])${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9_-])`).test(lower)) return true;
  }
  return false;
}

/** A readable log entry exactly matching (principal, target, risk or any risk, scope), read from raw fields. */
export function confirmedRaw(log: ConfirmationLog, principal: string, t: Target, risk: Risk | 'any', scope: string): boolean {
  return log.entries.some(
    (e) =>
      e.fields.principal === principal &&
      e.fields.target === targetKey(t) &&
      (risk === 'any' ? typeof e.fields.risk === 'string' : e.fields.risk === risk) &&
      e.fields.scope === scope,
  );
}

/** Required trust of a risk class. */
export function required(r: Risk): Trust {
  return REQUIRED_TRUST[r];
}

/** The story of a failing branch plus the property's reason. */
export function story(ctx: PpmfCtx, sc: Scenario, b: Branch | undefined, extra: string[] = []): string {
  return [...extra, b === undefined ? `(no failing branch) ${sc.id}` : narrate(ctx.system, sc, b)].join('\n');
}

/** The first branch of a scenario's run on the context's system that `violation` rejects, with the reason. */
export function firstViolation(
  sc: Scenario, ctx: PpmfCtx, violation: (sc: Scenario, b: Branch) => string | undefined,
): { b: Branch; why: string } | undefined {
  for (const b of runScenario(ctx.system, sc)) {
    const why = violation(sc, b);
    if (why !== undefined) return { b, why };
  }
  return undefined;
}

/**
 * The shared part of a suite judged branch by branch: generate scenarios, fail on the first branch
 * `violation` rejects, and tell the story with that branch (`label` names the kind of violation).
 */
export function branchJudged(violation: (sc: Scenario, b: Branch) => string | undefined, label: string) {
  return {
    arbitrary: () => arbScenario,
    check: (sc: Scenario, ctx: PpmfCtx) => {
      const v = firstViolation(sc, ctx, violation);
      return v === undefined ? HOLDS : fails(v.why);
    },
    show: (sc: Scenario, ctx: PpmfCtx) => {
      const v = firstViolation(sc, ctx, violation);
      return story(ctx, sc, v?.b, v === undefined ? [] : [`${label}: ${v.why}.`]);
    },
  };
}
