/**
 * Deliberately broken PPMFs: the reference rule table with one or two rules replaced, plus one
 * sentence saying what breaks. Each is what some property suite must catch (see test/ppmf-properties).
 */
import { UserError } from '../util/absurd.ts';
import { parseChannel, parseTrust, risksSupportedBy, trustMax } from './policy.ts';
import type { Binding } from './binding.ts';
import { bindSupport } from './binding.ts';
import { readableEvents } from './confirmations.ts';
import type { CallAuthority, PpmfRules } from './gate.ts';
import { PPMF_RULES } from './gate.ts';
import type { EffectiveAuthority, Observation } from './records.ts';
import { platformExternalDerived, platformObservationTrust, readAuthority } from './records.ts';
import type { MemorySystem } from './systems.ts';
import { CONTENT_FILTER, GATE_ONLY, NO_DEFENCE, PPMF, ppmfSystem } from './systems.ts';

/** The authority of the most trusted support (UNKNOWN, backing nothing, for none): the opposite of least trust. */
function mostTrusted(auths: readonly EffectiveAuthority[]): CallAuthority {
  const best = auths.reduce<EffectiveAuthority | undefined>((a, x) => (a === undefined || trustMax(a.trust, x.trust) !== a.trust ? x : a), undefined);
  return best === undefined ? { trust: 'UNKNOWN', risks: [] } : { trust: best.trust, risks: best.risks };
}

/** Legacy reading of an observation: missing fields default to a plain user observation. */
function legacyObservation(o: Observation): Observation {
  const channel = parseChannel(o.meta.channel) ?? 'user';
  const confirmed = typeof o.meta.confirmed === 'boolean' ? o.meta.confirmed : false;
  const inputs = Array.isArray(o.meta.inputs) ? o.meta.inputs : [];
  return { ...o, meta: { channel, confirmed, inputs } };
}

/** A named variant: rule overrides and what they break. */
export interface PpmfVariant {
  readonly name: string;
  readonly breaks: string;
  readonly rules: Partial<PpmfRules>;
}

/** The catalogue of broken PPMFs. */
export const PPMF_VARIANTS: readonly PpmfVariant[] = [
  {
    name: 'no-taint',
    breaks: "tool outputs keep the envelope's TRUSTED_TOOL trust whatever their inputs were (no tool taint)",
    rules: { observationTrust: (o, pool) => platformObservationTrust({ ...o, meta: { ...o.meta, inputs: [] } }, pool) },
  },
  {
    name: 'max-retrieved',
    breaks: 'no support binding: authority is that of the most trusted retrieved memory',
    rules: {
      bind: (_call, _targets, retrieved): Binding => ({ mode: 'fallback', support: retrieved, reason: 'every retrieved memory' }),
      combine: mostTrusted,
    },
  },
  {
    name: 'loose-confirmation',
    breaks: 'a confirmation counts for any target and scope, as long as principal and risk match',
    rules: { confirmed: (log, principal, _t, risk) => readableEvents(log).some((e) => e.principal === principal && e.risk === risk) },
  },
  {
    name: 'legacy-default',
    breaks: "missing channel or trust fields are read as the user's (a legacy default) instead of failing closed",
    rules: {
      observationTrust: (o, pool) => platformObservationTrust(legacyObservation(o), pool),
      externalDerived: (o, pool) => platformExternalDerived(legacyObservation(o), pool),
      readAuthority: (meta) => {
        const trust = parseTrust(meta.trust) ?? 'USER_HISTORY';
        return readAuthority({
          source: parseChannel(meta.source) ?? 'user',
          trust,
          history: Array.isArray(meta.history) && meta.history.length > 0 ? meta.history : ['legacy'],
          risk: Array.isArray(meta.risk) ? meta.risk : risksSupportedBy(trust),
          external: typeof meta.external === 'boolean' ? meta.external : false,
        });
      },
    },
  },
  {
    name: 'ignore-log',
    breaks: 'never consults the confirmation log, so confirmed benign actions are never allowed on confirmation',
    rules: { confirmed: () => false },
  },
  {
    name: 'blind-pointer',
    breaks: 'a call citing memory ids is bound to exactly those memories even when they do not name its targets',
    rules: {
      bind: (call, targets, retrieved, aliases) => {
        const cited = retrieved.filter((m) => call.cites?.includes(m.id));
        return cited.length > 0
          ? { mode: 'pointer', support: cited, reason: `cited ${cited.map((m) => m.id).join(', ')}` }
          : bindSupport(call, targets, retrieved, aliases);
      },
    },
  },
];

/** A variant as a memory system. */
export function variantSystem(v: PpmfVariant): MemorySystem {
  return ppmfSystem(v.name, v.breaks, { ...PPMF_RULES, ...v.rules });
}

/** Every system name `systemByName` accepts: the four compared systems, then the broken variants. */
export function systemNames(): readonly string[] {
  return [NO_DEFENCE, CONTENT_FILTER, GATE_ONLY, PPMF].map((s) => s.name).concat(PPMF_VARIANTS.map((v) => v.name));
}

/** Look a system or variant up by name; a `UserError` listing the names when it is unknown. */
export function systemByName(name: string): MemorySystem {
  const sys = [NO_DEFENCE, CONTENT_FILTER, GATE_ONLY, PPMF].find((s) => s.name === name);
  if (sys !== undefined) return sys;
  const v = PPMF_VARIANTS.find((x) => x.name === name);
  if (v !== undefined) return variantSystem(v);
  throw new UserError(`unknown PPMF system or variant ${JSON.stringify(name)}; choose one of: ${systemNames().join(', ')}`);
}
