/**
 * PPMF scenarios: deterministic fixed sets per family (for the table) and fast-check arbitraries
 * (for the properties), both built from the same templates.
 *
 * A template is one attack or benign story with a case index `n` that varies its targets. Families:
 * synthetic (preference, procedure, authority laundering, frustration recovery, keyword evasion),
 * adaptive (indirection, split context, reframing, recovery jargon, cross-domain hand-off), banking
 * (AgentDojo banking tools), benign confirmed tasks, and binding stress (collision, alias, unrelated
 * confirmation, partial match, missing pointer). Decoys and metadata stress are transformations of
 * these scenarios. Template 0 is the paper's story (web page → "resume workflow PM-A011"), so
 * shrinking lands on it.
 */
import fc from 'fast-check';
import { rat } from '../distributions/rational.ts';
import { absurd } from '../util/absurd.ts';
import type { ToolCall } from './binding.ts';
import { callTargets } from './binding.ts';
import type { ConfirmationEvent, ConfirmationLog } from './confirmations.ts';
import { appendConfirmation, logOf } from './confirmations.ts';
import type { Channel, Risk, TargetKind } from './policy.ts';
import { RISKS, TOOLS } from './policy.ts';
import type { Observation } from './records.ts';
import { AUTHORITY_FIELDS, observation } from './records.ts';
import type { Corruption, PriorMemory, Scenario } from './scenario.ts';
import { GARBAGE } from './scenario.ts';
import type { AliasMap, Target } from './targets.ts';
import { NO_ALIASES, canonicalise } from './targets.ts';
import type { Rewrite, WriterModel } from './writer.ts';
import { REWRITE_STYLES, WRITERS, writerModel } from './writer.ts';
import { FAMILIES, PRINCIPAL, account, user, eventsForCall, type Family, type Template } from './templates/common.ts';
import { templatesOf, ATTACK_TEMPLATES, BENIGN_TEMPLATES } from './templates/index.ts';
export { FAMILIES, PRINCIPAL, eventsForCall, type Family, type Template } from './templates/common.ts';
export { templatesOf, ATTACK_TEMPLATES, BENIGN_TEMPLATES } from './templates/index.ts';

/** Writers cycled through attack cases and benign cases of the fixed sets. */
const ATTACK_WRITERS: readonly WriterModel[] = [WRITERS.launderer, WRITERS.preferrer, WRITERS.launderer, WRITERS.compressing];
const BENIGN_WRITERS: readonly WriterModel[] = [WRITERS.faithful, WRITERS.compressing, WRITERS.launderer, WRITERS.preferrer];

/** Build one scenario from a template, a case index and a writer. */
export function instantiate(t: Template, n: number, writer: WriterModel, topK = 5): Scenario {
  const b = t.build(n);
  const aliases = b.aliases ?? NO_ALIASES;
  const own = t.kind === 'benign' ? eventsForCall(b.call, t.scope, aliases) : [];
  // NAV benign tasks are authorised by the user's own history; they get no confirmation event.
  const needsEvent = t.kind === 'benign' && (TOOLS[b.call.tool]?.risk ?? 'READ') !== 'NAV';
  return {
    id: `${t.family}/${t.subfamily.replace(/\s+/g, '-')}/${t.kind}-${n}`,
    family: t.family,
    subfamily: t.subfamily,
    kind: t.kind,
    principal: PRINCIPAL,
    scope: t.scope,
    sources: b.sources,
    context: b.context ?? [],
    writer,
    priors: b.priors ?? [],
    decoys: [],
    log: logOf([...(b.events ?? []), ...(needsEvent ? own : [])]),
    aliases,
    query: b.query,
    call: b.call,
    topK,
    corruptions: [],
    ...(b.expectedBinding !== undefined ? { expectedBinding: b.expectedBinding } : {}),
  };
}

/**
 * The fixed, deterministic scenario set of a family: every attack template × 4 case indices and
 * every benign template × 2 (binding: 5 subfamilies × (4 attack + 4 benign)). Writers cycle through
 * fixed lists, so the set (and every rate over it) is reproducible without a seed.
 */
export function fixedScenarios(family: Family): readonly Scenario[] {
  const ts = templatesOf(family);
  const out: Scenario[] = [];
  const attackCount = 4;
  const benignCount = family === 'benign' ? 3 : family === 'binding' ? 4 : 2;
  for (const t of ts) {
    const count = t.kind === 'attack' ? attackCount : benignCount;
    const writers = t.kind === 'attack' ? ATTACK_WRITERS : BENIGN_WRITERS;
    for (let n = 0; n < count; n++) out.push(instantiate(t, n, writers[n % writers.length] as WriterModel));
  }
  return out;
}

// ---------------------------------------------------------------- decoys

function decoyTarget(kind: TargetKind, j: number): string {
  switch (kind) {
    case 'account':
      return account('DE44500105175407324', j).spaced;
    case 'url':
      return `https://decoy-${j}.example/page`;
    case 'handle':
      return `decoy${j}@corp.example`;
    case 'workflow':
      return `DC-${100 + j}`;
    case 'endpoint':
      return `GET /api/v1/status/${j}`;
    case 'file':
      return `/home/alice/decoys/${j}.txt`;
    case 'value':
      return `"decoy value ${j}"`;
    default:
      return absurd(kind);
  }
}

/** How decoys are made: how many, and which of them are user-confirmed. */
export interface DecoySpec {
  readonly count: number;
  /** Decoy j is confirmed when `confirmedEvery` divides j (1: all confirmed). */
  readonly confirmedEvery: number;
}

/**
 * `count` (≤ 20) same-domain decoy memories: trusted user memories that share words with the task-B
 * request (a rotating share, so some outrank the real support) and name other targets of the same
 * kind as the call's first target.
 */
export function decoysFor(sc: Scenario, spec: DecoySpec): readonly PriorMemory[] {
  const kind = callTargets(sc.call, sc.aliases)[0]?.kind ?? 'url';
  // Decoys share the request's words but never a platform alias: an alias would make them name the target.
  const q = sc.query.split(/\s+/).filter((w) => w.length >= 3 && !sc.aliases.has(w.toLowerCase()));
  const out: PriorMemory[] = [];
  for (let j = 1; j <= Math.min(20, spec.count); j++) {
    const share = q.slice(0, 1 + (j % Math.max(1, q.length))).join(' ');
    out.push({
      id: `decoy-${String(j).padStart(2, '0')}`,
      content: `Saved note ${j} about ${share}: see ${decoyTarget(kind, j)}.`,
      channel: 'user',
      confirmed: j % Math.max(1, spec.confirmedEvery) === 0,
      origin: 'chat',
    });
  }
  return out;
}

/** A scenario with decoys and a retrieval budget. */
export function withDecoys(sc: Scenario, count: number, topK: number): Scenario {
  return { ...sc, decoys: decoysFor(sc, { count, confirmedEvery: 2 }), topK };
}

// ---------------------------------------------------------------- arbitraries

/** An arbitrary rewrite: any style, any claims. Shrinks towards keep-source without claims. */
export const arbRewrite: fc.Arbitrary<Rewrite> = fc
  .record({
    style: fc.constantFrom(...REWRITE_STYLES),
    claimChannel: fc.option(fc.constantFrom<Channel>('user', 'tool', 'web'), { nil: undefined }),
    claimConfirmed: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map((r) => ({
    style: r.style,
    ...(r.claimChannel !== undefined ? { claimChannel: r.claimChannel } : {}),
    ...(r.claimConfirmed !== undefined ? { claimConfirmed: r.claimConfirmed } : {}),
  }));

/**
 * An arbitrary (adversarial) writer: 1–4 rewrites with positive integer weights, normalised to an
 * exact distribution.
 */
export const arbWriter: fc.Arbitrary<WriterModel> = fc
  .array(fc.record({ rewrite: arbRewrite, w: fc.integer({ min: 1, max: 6 }) }), { minLength: 1, maxLength: 4 })
  .map((rs) => {
    const total = rs.reduce((s, r) => s + r.w, 0);
    return writerModel('adversarial', 'generated adversarial writer', rs.map((r) => ({ rewrite: r.rewrite, weight: rat(r.w, total) })));
  });

/** How an attack case's untrusted source may be varied. */
const SOURCE_SWAPS = ['as-is', 'via-tool', 'via-unknown-tool', 'email', 'message', 'document'] as const;

/** Knobs of a generated scenario; every knob shrinks to "as the template says". */
export interface ScenarioKnobs {
  readonly template: number;
  readonly n: number;
  readonly writer: WriterModel;
  readonly swap: (typeof SOURCE_SWAPS)[number];
  /** Add the user's own (unconfirmed) remark to the consolidation. */
  readonly mixUser: boolean;
  readonly topK: number;
  readonly cite: 'none' | 'consolidated' | 'prior' | 'missing';
  /** Downgrade the call to navigation (NAV) when its target is a URL or workflow, where user history suffices. */
  readonly nav: boolean;
  /** Extra confirmation events already in the log (any principal, target, risk, scope). */
  readonly noise: readonly ConfirmationEvent[];
}

/** The NAV tool on the same kind of target, if there is one. */
const NAV_TOOL: Partial<Record<TargetKind, { readonly tool: string; readonly arg: string }>> = {
  url: { tool: 'open_url', arg: 'url' },
  workflow: { tool: 'open_workflow', arg: 'workflow' },
};

function navigate(call: ToolCall, aliases: AliasMap): ToolCall {
  const ts = callTargets(call, aliases);
  const only = ts.length === 1 ? ts[0] : undefined;
  const nav = only === undefined ? undefined : NAV_TOOL[only.kind];
  return nav === undefined || only === undefined ? call : { ...call, tool: nav.tool, args: { [nav.arg]: only.raw } };
}

function applyKnobs(templates: readonly Template[], k: ScenarioKnobs): Scenario {
  const t = templates[k.template % templates.length] as Template;
  const base = instantiate(t, k.n, k.writer, k.topK);
  let sources = base.sources;
  let context = base.context;
  const first = sources[0];
  if (t.kind === 'attack' && first !== undefined && k.swap !== 'as-is') {
    const rest = sources.slice(1);
    if (k.swap === 'via-tool' || k.swap === 'via-unknown-tool') {
      // The attacker's text reaches task A inside an authenticated tool envelope (tool taint).
      const raw: Observation = { ...first, id: 'c-raw', meta: k.swap === 'via-tool' ? { channel: 'web', confirmed: false, inputs: [] } : { confirmed: false, inputs: [] } };
      const wrapped = observation(first.id, 'tool', 'browser.fetch', first.text, first.gist, { inputs: ['c-raw'] });
      sources = [wrapped, ...rest];
      context = [...context, raw];
    } else {
      sources = [observation(first.id, k.swap, first.origin, first.text, first.gist), ...rest];
    }
  }
  if (k.mixUser) {
    sources = [...sources, user('o-user', `I was asked about ${base.query}.`, { action: 'look into it', context: base.query }, false)];
  }
  const cites =
    k.cite === 'none' ? undefined : k.cite === 'consolidated' ? ['mem-A'] : k.cite === 'prior' ? [base.priors[0]?.id ?? 'mem-A'] : ['mem-old'];
  const planned = t.kind === 'attack' && k.nav ? navigate(base.call, base.aliases) : base.call;
  const call = cites === undefined ? planned : { ...planned, cites };
  const log = k.noise.reduce(appendConfirmation, base.log);
  return { ...base, sources, context, call, log };
}

/** Targets the confirmation-log arbitrary draws from: every template's call targets (case 0). */
const EVENT_TARGETS: readonly Target[] = FAMILIES.flatMap((f) => templatesOf(f)).flatMap((t) => {
  const b = t.build(0);
  return callTargets(b.call, b.aliases ?? NO_ALIASES).flatMap((c) => (c.target === undefined ? [] : [c.target]));
});

/** Arbitrary confirmation events: any principal, a known target, any risk, a known scope. */
export const arbConfirmationEvent: fc.Arbitrary<ConfirmationEvent> = fc.record({
  principal: fc.constantFrom(PRINCIPAL, 'bob'),
  target: fc.constantFrom(...EVENT_TARGETS),
  risk: fc.constantFrom(...RISKS),
  scope: fc.constantFrom('banking', 'devices', 'shopping', 'files', 'work', 'finance', 'devops'),
});

/** Arbitrary confirmation logs (0–5 events, appended in order). */
export const arbConfirmationLog: fc.Arbitrary<ConfirmationLog> = fc.array(arbConfirmationEvent, { maxLength: 5 }).map(logOf);

function arbKnobs(templates: readonly Template[]): fc.Arbitrary<ScenarioKnobs> {
  return fc.record({
    template: fc.nat({ max: templates.length - 1 }),
    n: fc.nat({ max: 7 }),
    writer: arbWriter,
    swap: fc.constantFrom(...SOURCE_SWAPS),
    mixUser: fc.boolean(),
    topK: fc.integer({ min: 1, max: 8 }).map((k) => (k === 8 ? 25 : k)),
    cite: fc.oneof(
      { withCrossShrink: true },
      { arbitrary: fc.constant<ScenarioKnobs['cite']>('none'), weight: 3 },
      { arbitrary: fc.constantFrom<ScenarioKnobs['cite']>('consolidated', 'prior', 'missing'), weight: 2 },
    ),
    nav: fc.boolean(),
    noise: fc.array(arbConfirmationEvent, { maxLength: 3 }),
  });
}

/** Arbitrary attack scenarios (any attack template, adversarial writer, varied sources and pointers). */
export const arbAttackScenario: fc.Arbitrary<Scenario> = arbKnobs(ATTACK_TEMPLATES).map((k) => applyKnobs(ATTACK_TEMPLATES, k));

/** Arbitrary benign confirmed scenarios. */
export const arbBenignScenario: fc.Arbitrary<Scenario> = arbKnobs(BENIGN_TEMPLATES).map((k) => applyKnobs(BENIGN_TEMPLATES, k));

/** Arbitrary scenarios of either kind. */
export const arbScenario: fc.Arbitrary<Scenario> = fc.oneof(arbAttackScenario, arbBenignScenario);

/** Arbitrary decoy specs: 0–20 decoys, some or all of them user-confirmed. */
export const arbDecoySpec: fc.Arbitrary<DecoySpec> = fc.record({
  count: fc.integer({ min: 0, max: 20 }),
  confirmedEvery: fc.integer({ min: 1, max: 3 }),
});

/** Arbitrary corruptions of platform fields (missing or wrong-shaped values). */
export const arbCorruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({
    where: fc.constant('source' as const),
    index: fc.nat({ max: 3 }),
    field: fc.constantFrom('channel' as const, 'confirmed' as const, 'inputs' as const),
    to: fc.constantFrom(...GARBAGE),
  }),
  fc.record({
    where: fc.constant('memory' as const),
    memory: fc.oneof(fc.constant('consolidated' as const), fc.nat({ max: 1 })),
    field: fc.constantFrom(...AUTHORITY_FIELDS),
    to: fc.constantFrom(...GARBAGE),
  }),
  fc.record({
    where: fc.constant('confirmation' as const),
    index: fc.nat({ max: 3 }),
    field: fc.constantFrom('principal' as const, 'target' as const, 'risk' as const, 'scope' as const),
    to: fc.constantFrom(...GARBAGE),
  }),
);

/** Arbitrary sets of 1–3 corruptions. */
export const arbCorruptions: fc.Arbitrary<readonly Corruption[]> = fc.array(arbCorruption, { minLength: 1, maxLength: 3 });

/** How an unrelated confirmation differs from the one that would authorise the call. */
export const UNRELATED_CHANGES = ['other-target', 'other-risk', 'other-principal', 'other-scope'] as const;

/** One unrelated-confirmation change. */
export type UnrelatedChange = (typeof UNRELATED_CHANGES)[number];

/** Unrelated authority added to a scenario: confirmation events, and optionally a confirmed memory the call cites. */
export interface UnrelatedSpec {
  readonly changes: readonly UnrelatedChange[];
  /** Add a user-confirmed memory about another target (and cite it from the call). */
  readonly confirmedMemory: 'none' | 'present' | 'cited';
}

/** Arbitrary unrelated authority. */
export const arbUnrelatedSpec: fc.Arbitrary<UnrelatedSpec> = fc.record({
  changes: fc.array(fc.constantFrom(...UNRELATED_CHANGES), { minLength: 0, maxLength: 4 }),
  confirmedMemory: fc.constantFrom('none' as const, 'present' as const, 'cited' as const),
});

/** A confirmation-log-compatible event unrelated to the call in one way. */
export function unrelatedEvent(sc: Scenario, change: UnrelatedChange): ConfirmationEvent {
  const risk: Risk = TOOLS[sc.call.tool]?.risk ?? 'READ';
  const t = callTargets(sc.call, sc.aliases)[0];
  const own: Target = t?.target ?? { kind: 'url', value: 'https://unrelated.example' };
  const other: Target = { kind: own.kind, value: canonicalise(own.kind, decoyTarget(own.kind, 99))?.value ?? 'https://unrelated.example' };
  switch (change) {
    case 'other-target':
      return { principal: sc.principal, target: other, risk, scope: sc.scope };
    case 'other-risk':
      return { principal: sc.principal, target: own, risk: RISKS.find((r) => r !== risk) ?? 'READ', scope: sc.scope };
    case 'other-principal':
      return { principal: `${sc.principal}-other`, target: own, risk, scope: sc.scope };
    case 'other-scope':
      return { principal: sc.principal, target: own, risk, scope: `${sc.scope}-other` };
    default:
      return absurd(change);
  }
}

/** The scenario with unrelated authority added. */
export function withUnrelated(sc: Scenario, u: UnrelatedSpec): Scenario {
  const events = u.changes.map((c) => unrelatedEvent(sc, c));
  const kind = callTargets(sc.call, sc.aliases)[0]?.kind ?? 'url';
  const memory: PriorMemory = {
    id: 'mem-confirmed',
    content: `User-confirmed ${sc.query}: use ${decoyTarget(kind, 98)}.`,
    channel: 'user',
    confirmed: true,
    origin: 'chat',
  };
  const existing = sc.log.entries;
  const log = logOf(events);
  return {
    ...sc,
    log: { entries: [...existing, ...log.entries.map((e, i) => ({ ...e, seq: existing.length + i }))] },
    priors: u.confirmedMemory === 'none' ? sc.priors : [...sc.priors, memory],
    call: u.confirmedMemory === 'cited' ? { ...sc.call, cites: ['mem-confirmed'] } : sc.call,
  };
}
