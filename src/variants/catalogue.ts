/**
 * The catalogue of variants (Redex-benchmark style): each entry is one sentence, a minimal rule change
 * against the reference (the code below *is* the diff: every entry replaces one rule, written as the
 * reference rule with the change marked `// CHANGED`; `diff` restates it against src/semantics/rules.ts),
 * the expected verdict per lattice, and — in `counterexamples/` — the smallest known counterexample,
 * replayed by the tests (test/corpus.test.ts, test/variants-catch.test.ts).
 */
import type { Expr } from '../syntax/ast.ts';
import type { Ev } from '../semantics/ev.ts';
import type { Conv, ODist } from '../semantics/odist.ts';
import { appBody, arrayPosition, decodeLabel, primAfter } from '../semantics/rules.ts';
import { isValue } from '../syntax/helpers.ts';
import { pairOf, integrityOf, confidentialityOf } from '../lattice/lattice.ts';
import { describeValue } from '../semantics/values.ts';
import { UserError } from '../util/absurd.ts';
import { loadVariantFile, type Variant } from './variant.ts';

const ALL = ['two-point', 'powerset-us', 'chain(3)'] as const;

/** The smallest known counterexample of an unsound variant (a corpus file, replayed by the tests). */
export interface SmallestKnown {
  /** Path of the corpus entry, relative to the repository root. */
  readonly file: string;
  readonly suite: string;
  readonly lattice: string;
  /** AST nodes of both programs (`size`), the number hunts are compared against. */
  readonly size: number;
}

/** A catalogue entry: a variant plus what Redex's benchmark records for a bug. */
export interface CatalogueEntry extends Variant {
  /** The minimal diff against the reference rule in src/semantics/rules.ts, as code. */
  readonly diff: string;
  /** Unsound variants: the smallest counterexample known (found by `llmbda hunt`, sometimes hand-minimised). */
  readonly smallest?: SmallestKnown;
}

/** LabelTest answering at `pc ⊔ n` only: the policy label `l` is dropped (Austin & Flanagan's bare pc). */
function labelTestBarePc<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'test' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
    const { n, l, text } = decodeLabel(ev, v1);
    if (l === undefined) return ev.stuck('LabelTest', `${text} is not a label of ${ev.lat.name}`);
    return ev.then(ev.eval(ev.join(pc, n), c1, e.body, fuel), (c2, v2) =>
      ev.ret(c2, ev.value(ev.join(pc, n) /* CHANGED: was pc ⊔ n ⊔ l */, { kind: 'bool', value: ev.leq(v2.label, l) })),
    );
  });
}

/** LabelTest answering at `pc ⊔ l`: the label `n` of the policy value is dropped. */
function labelTestDropsN<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'test' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
    const { n, l, text } = decodeLabel(ev, v1);
    if (l === undefined) return ev.stuck('LabelTest', `${text} is not a label of ${ev.lat.name}`);
    return ev.then(ev.eval(ev.join(pc, n), c1, e.body, fuel), (c2, v2) =>
      ev.ret(c2, ev.value(ev.join(pc, l) /* CHANGED: was pc ⊔ n ⊔ l */, { kind: 'bool', value: ev.leq(v2.label, l) })),
    );
  });
}

/** The shipped catalogue. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: 'test-bare-pc',
    description: 'LabelTest answers at pc (⊔ n), not pc ⊔ n ⊔ l: Austin & Flanagan\'s choice, sound only on two-point lattices.',
    rules: { LabelTest: labelTestBarePc },
    expected: { leaksOn: ['powerset-us', 'chain(3)'], soundOn: ['two-point'], caughtBy: 'tipni' },
    diff: [
      " // labelTestAfter: the answer's label",
      "-ev.ret(c2, ev.value(ev.join(ev.join(pc, n), l), { kind: 'bool', value: ev.leq(v2.label, l) }))",
      "+ev.ret(c2, ev.value(ev.join(pc, n), { kind: 'bool', value: ev.leq(v2.label, l) }))",
    ].join('\n'),
    smallest: { file: 'counterexamples/test-bare-pc-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 11 },
  },
  {
    name: 'send-no-nsu',
    description: 'Send drops the no-sensitive-upgrade check pc ⊑ lc (the CaMeL flaw: Fenton/Denning leaks).',
    rules: {
      Send: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => {
          // CHANGED: no pc ⊑ lc check
          const { label: n, plain } = ev.flatten(v);
          return ev.ret(ev.append(c1, ev.serialise(plain), ev.join(c1.label, n)), ev.unit(pc));
        }),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // sendAfter',
      "-if (!ev.leq(pc, c1.label)) return ev.stuck('Send', …);",
      ' const { label: n, plain } = ev.flatten(v);',
    ].join('\n'),
    smallest: { file: 'counterexamples/send-no-nsu-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 5 },
  },
  {
    name: 'recv-no-nsu',
    description: 'Recv drops the no-sensitive-upgrade check pc ⊑ lc.',
    rules: {
      Recv: (ev, _pc, conv, _e, fuel) =>
        // CHANGED: no pc ⊑ lc check
        ev.sum(ev.responses(conv).map(([r, p]) => [p, ev.eval(conv.label, ev.append(conv, r, conv.label), ev.parse(r), fuel)] as const)),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // ruleRecv',
      "-if (!ev.leq(pc, conv.label)) return ev.stuck('Recv', …);",
      ' return ev.sum(ev.responses(conv).map(…));',
    ].join('\n'),
    smallest: { file: 'counterexamples/recv-no-nsu-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 4 },
  },
  {
    name: 'clear-no-nsu',
    description: 'Clear drops the no-sensitive-upgrade check pc ⊑ lc.',
    rules: { Clear: (ev, pc) => ev.ret({ label: pc, msgs: null }, ev.unit(pc)) /* CHANGED: no pc ⊑ lc check */ },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // ruleClear',
      "-if (!ev.leq(pc, conv.label)) return ev.stuck('Clear', …);",
      ' return ev.ret({ label: pc, msgs: null }, ev.unit(pc));',
    ].join('\n'),
    smallest: { file: 'counterexamples/clear-no-nsu-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 4 },
  },
  {
    name: 'clear-to-bottom',
    description: 'Clear resets the conversation label to ⊥ instead of pc.',
    rules: {
      Clear: (ev, pc, conv) => {
        if (!ev.leq(pc, conv.label)) return ev.stuck('Clear', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
        return ev.ret({ label: ev.lat.bottom /* CHANGED: was pc */, msgs: null }, ev.unit(pc));
      },
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // ruleClear',
      '-return ev.ret({ label: pc, msgs: null }, ev.unit(pc));',
      '+return ev.ret({ label: ev.lat.bottom, msgs: null }, ev.unit(pc));',
    ].join('\n'),
    smallest: { file: 'counterexamples/clear-to-bottom-two-point-2.json', suite: 'tipni', lattice: 'two-point', size: 2 },
  },
  {
    name: 'recv-at-pc',
    description: 'The response\'s code runs at pc, not at the conversation label lc.',
    rules: {
      Recv: (ev, pc, conv, _e, fuel) => {
        if (!ev.leq(pc, conv.label)) return ev.stuck('Recv', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
        return ev.sum(ev.responses(conv).map(([r, p]) => [p, ev.eval(pc /* CHANGED: was lc */, ev.append(conv, r, conv.label), ev.parse(r), fuel)] as const));
      },
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      " // ruleRecv: the response's code",
      '-[p, ev.eval(conv.label, ev.append(conv, r, conv.label), ev.parse(r), fuel)]',
      '+[p, ev.eval(pc, ev.append(conv, r, conv.label), ev.parse(r), fuel)]',
    ].join('\n'),
    smallest: { file: 'counterexamples/recv-at-pc-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 2 },
  },
  {
    name: 'send-shallow',
    description: 'Send joins only the top-level label ℓ(V) into the conversation, not deepLabel(V).',
    rules: {
      Send: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => {
          if (!ev.leq(pc, c1.label)) return ev.stuck('Send', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(c1.label)}`);
          return ev.ret(ev.append(c1, ev.serialise(ev.strip(v)), ev.join(c1.label, v.label /* CHANGED: was deepLabel(V) */)), ev.unit(pc));
        }),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // sendAfter',
      '-const { label: n, plain } = ev.flatten(v);',
      '-return ev.ret(ev.append(c1, ev.serialise(plain), ev.join(c1.label, n)), ev.unit(pc));',
      '+return ev.ret(ev.append(c1, ev.serialise(ev.strip(v)), ev.join(c1.label, v.label)), ev.unit(pc));',
    ].join('\n'),
    smallest: { file: 'counterexamples/send-shallow-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 8 },
  },
  {
    name: 'app-at-pc',
    description: 'App runs the body at pc, not at the function\'s label (no control-flow tracking, as FIDES chose).',
    rules: {
      App: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.fn, fuel), (c1, f) =>
          ev.then(ev.eval(pc, c1, e.arg, fuel), (c2, v2) => appBody(ev, c2, ev.value(pc /* CHANGED: was ℓ(f) */, f.body), v2, fuel)),
        ),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      " // ruleApp: the last premise runs the body at the function's label",
      '-ev.then(ev.eval(pc, c1, e.arg, fuel), (c2, v2) => appBody(ev, c2, f, v2, fuel))',
      '+ev.then(ev.eval(pc, c1, e.arg, fuel), (c2, v2) => appBody(ev, c2, ev.value(pc, f.body), v2, fuel))',
    ].join('\n'),
    smallest: { file: 'counterexamples/app-at-pc-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 10 },
  },
  {
    name: 'prim-shallow',
    description: 'Prim labels its result pc ⊔ ℓ(V) instead of pc ⊔ deepLabel(V).',
    rules: {
      Prim: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => {
          const r = ev.primEval(e.name, ev.strip(v));
          if (!r.ok) return ev.stuck('Prim', r.reason);
          return ev.ret(c1, ev.value(ev.join(pc, v.label) /* CHANGED: was deepLabel(V) */, ev.wrap(r.value)));
        }),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // primAfter',
      '-return ev.ret(c1, ev.value(ev.join(pc, ev.deepLabel(v)), ev.wrap(r.value)));',
      '+return ev.ret(c1, ev.value(ev.join(pc, v.label), ev.wrap(r.value)));',
    ].join('\n'),
    smallest: { file: 'counterexamples/prim-shallow-powerset-us-hand.json', suite: 'tipni', lattice: 'powerset-us', size: 8 },
  },
  {
    name: 'field-drops-label',
    description: 'FieldAccess returns the field without joining the record\'s label.',
    rules: {
      FieldAccess: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.target, fuel), (c1, r) => {
          if (r.body.kind !== 'record') return ev.stuck('FieldAccess', `.${e.name} of a non-record ${describeValue(ev, r)}`);
          const f = r.body.fields.find((x) => x.name === e.name);
          if (!f) return ev.stuck('FieldAccess', `no field ${e.name} in ${describeValue(ev, r)}`);
          return ev.ret(c1, f.expr /* CHANGED: was l1:V' */);
        }),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // fieldAfter',
      '-return ev.ret(c1, ev.raise(r.label, f.expr));',
      '+return ev.ret(c1, f.expr);',
    ].join('\n'),
    smallest: { file: 'counterexamples/field-drops-label-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 6 },
  },
  {
    name: 'index-drops-label',
    description: 'ArrayIndex drops the index\'s label: the result is l1:V[i], not (l1 ⊔ l2):V[i].',
    rules: {
      ArrayIndex: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.target, fuel), (c1, a) =>
          ev.then(ev.eval(pc, c1, e.index, fuel), (c2, i) => {
            if (a.body.kind !== 'array') return ev.stuck('ArrayIndex', `indexing a non-array ${describeValue(ev, a)}`);
            const k = arrayPosition(i.body, a.body.elems.length);
            if (k === undefined) return ev.stuck('ArrayIndex', `index ${describeValue(ev, i)} out of bounds for length ${a.body.elems.length}`);
            return ev.ret(c2, ev.raise(a.label /* CHANGED: was l1 ⊔ l2 */, a.body.elems[k]!));
          }),
        ),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // ruleArrayIndex',
      '-return ev.ret(c2, ev.raise(ev.join(a.label, i.label), a.body.elems[k]!));',
      '+return ev.ret(c2, ev.raise(a.label, a.body.elems[k]!));',
    ].join('\n'),
    smallest: { file: 'counterexamples/index-drops-label-two-point-3.json', suite: 'tipni', lattice: 'two-point', size: 8 },
  },
  {
    name: 'labelflow-drops-n',
    description: 'LabelFlow runs e2 at pc ⊔ l, dropping the label n of the label value.',
    rules: {
      LabelFlow: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
          const { l, text } = decodeLabel(ev, v1);
          if (l === undefined) return ev.stuck('LabelFlow', `${text} is not a label of ${ev.lat.name}`);
          return ev.eval(ev.join(pc, l) /* CHANGED: was pc ⊔ n ⊔ l */, c1, e.body, fuel);
        }),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // labelFlowAfter',
      '-const { n, l, text } = decodeLabel(ev, v1);',
      '-return ev.eval(ev.join(ev.join(pc, n), l), c1, e.body, fuel);',
      '+const { l, text } = decodeLabel(ev, v1);',
      '+return ev.eval(ev.join(pc, l), c1, e.body, fuel);',
    ].join('\n'),
    smallest: { file: 'counterexamples/labelflow-drops-n-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 9 },
  },
  {
    name: 'test-drops-n',
    description: 'LabelTest answers at pc ⊔ l, dropping the label n of the label value.',
    rules: { LabelTest: labelTestDropsN },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      " // labelTestAfter: the answer's label",
      "-ev.ret(c2, ev.value(ev.join(ev.join(pc, n), l), { kind: 'bool', value: ev.leq(v2.label, l) }))",
      "+ev.ret(c2, ev.value(ev.join(pc, l), { kind: 'bool', value: ev.leq(v2.label, l) }))",
    ].join('\n'),
    smallest: { file: 'counterexamples/test-drops-n-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 9 },
  },
  {
    name: 'endorse-declassifies',
    description: 'Endorse relabels the value to l1 entirely, declassifying its confidentiality too.',
    rules: {
      Endorse: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
          const { n, l: l1, text } = decodeLabel(ev, v1);
          if (l1 === undefined) return ev.stuck('Endorse', `${text} is not a label of ${ev.lat.name}`);
          return ev.then(ev.eval(ev.join(pc, n), c1, e.body, fuel), (c2, v2) =>
            ev.ret(c2, ev.value(ev.join(pc, l1) /* CHANGED: was pc ⊔ ⟨l1←, l2→⟩ */, v2.body)),
          );
        }),
    },
    expected: { leaksOn: ['powerset-us', 'chain(3)', 'two-point'], soundOn: [], caughtBy: 'insulated-tipni' },
    diff: [
      ' // endorseAfter',
      '-const endorsed = pairOf(ev.lat, integrityOf(ev.lat, l1), confidentialityOf(ev.lat, v2.label));',
      '-return ev.ret(c2, ev.value(ev.join(pc, endorsed), v2.body));',
      '+return ev.ret(c2, ev.value(ev.join(pc, l1), v2.body));',
    ].join('\n'),
    smallest: { file: 'counterexamples/endorse-declassifies-powerset-us-1.json', suite: 'insulated-tipni', lattice: 'powerset-us', size: 8 },
  },
  {
    name: 'endorse-drops-pc',
    description: 'Endorse\'s result forgets pc: it is labelled ⟨l1←, l2→⟩ only (breaks Confinement; harmless to I-maximal observers, see docs/variants.md).',
    rules: {
      Endorse: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
          const { n, l: l1, text } = decodeLabel(ev, v1);
          if (l1 === undefined) return ev.stuck('Endorse', `${text} is not a label of ${ev.lat.name}`);
          return ev.then(ev.eval(ev.join(pc, n), c1, e.body, fuel), (c2, v2) =>
            ev.ret(c2, ev.value(pairOf(ev.lat, integrityOf(ev.lat, l1), confidentialityOf(ev.lat, v2.label)) /* CHANGED: pc dropped */, v2.body)),
          );
        }),
    },
    // Sound on the trivially factored lattices: there ⟨l1←, l2→⟩ = l2 ⊒ pc already (Confinement of e2).
    expected: { leaksOn: ['powerset-us'], soundOn: ['two-point', 'chain(3)'], caughtBy: 'confinement' },
    diff: [
      ' // endorseAfter',
      ' const endorsed = pairOf(ev.lat, integrityOf(ev.lat, l1), confidentialityOf(ev.lat, v2.label));',
      '-return ev.ret(c2, ev.value(ev.join(pc, endorsed), v2.body));',
      '+return ev.ret(c2, ev.value(endorsed, v2.body));',
    ].join('\n'),
    smallest: { file: 'counterexamples/endorse-drops-pc-powerset-us-1.json', suite: 'confinement', lattice: 'powerset-us', size: 3 },
  },
  {
    name: 'assert-drops-n-check',
    description: 'LabelAssert drops the n ⊑ pc check on the policy value: sound, a control that must never be flagged.',
    rules: {
      LabelAssert: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
          const { l, text } = decodeLabel(ev, v1); // CHANGED: no n ⊑ pc check
          if (l === undefined) return ev.stuck('LabelAssert', `${text} is not a label of ${ev.lat.name}`);
          return ev.then(ev.eval(pc, c1, e.body, fuel), (c2, v2) =>
            ev.leq(v2.label, l) ? ev.ret(c2, ev.unit(pc)) : ev.stuck('LabelAssert', `policy violation: ${ev.show(v2.label)} does not flow to ${ev.show(l)}`),
          );
        }),
    },
    expected: { leaksOn: [], soundOn: [...ALL] },
    diff: [
      ' // ruleLabelAssert',
      ' const { n, l, text } = decodeLabel(ev, v1);',
      "-if (!ev.leq(n, pc)) return ev.stuck('LabelAssert', …);",
    ].join('\n'),
  },
  {
    name: 'fork-joins-label',
    description: 'Fork restores the messages but keeps the join of the old and the new conversation label: sound (only more conservative), a control.',
    rules: {
      Fork: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.body, fuel), (c1, v) => ev.ret({ label: ev.join(conv.label, c1.label) /* CHANGED: was conv.label */, msgs: conv.msgs }, v)),
    },
    expected: { leaksOn: [], soundOn: [...ALL] },
    diff: [
      ' // ruleFork',
      '-ev.then(ev.eval(pc, conv, e.body, fuel), (_c1, v) => ev.ret(conv, v))',
      '+ev.then(ev.eval(pc, conv, e.body, fuel), (c1, v) => ev.ret({ label: ev.join(conv.label, c1.label), msgs: conv.msgs }, v))',
    ].join('\n'),
  },
  // Issue 13: two of the three faults found in a real environment-based port (the third, deepLabel not
  // terminating on cyclic environments, needs environments: examples/targets/env-interpreter.ts).
  {
    name: 'binop-top-labels',
    description: 'A binary operator labels its result pc ⊔ the operands\' top-level labels, forgetting labels nested inside array/record operands.',
    rules: {
      Prim: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => {
          if (!e.name.startsWith('binop_') || v.body.kind !== 'array') return primAfter(ev, pc, c1, v, e);
          const r = ev.primEval(e.name, ev.strip(v));
          if (!r.ok) return ev.stuck('Prim', r.reason);
          const top = v.body.elems.reduce((a, x) => ev.join(a, x.label), v.label);
          return ev.ret(c1, ev.value(ev.join(pc, top) /* CHANGED: was deepLabel(V) */, ev.wrap(r.value)));
        }),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'tipni' },
    diff: [
      ' // primAfter, for binop_* on [V1, V2]',
      '-return ev.ret(c1, ev.value(ev.join(pc, ev.deepLabel(v)), ev.wrap(r.value)));',
      '+return ev.ret(c1, ev.value(ev.join(pc, ℓ(v) ⊔ ℓ(V1) ⊔ ℓ(V2)), ev.wrap(r.value)));',
    ].join('\n'),
    smallest: { file: 'counterexamples/binop-top-labels-powerset-us-1.json', suite: 'tipni', lattice: 'powerset-us', size: 12 },
  },
  {
    name: 'value-read-top-label',
    description: 'Re-running a value (a substituted variable) joins pc into its top label only: values nested in it keep their labels, as when a port\'s variable read joins the outer label at the top.',
    rules: {
      // Same derivation (and fuel) as the reference; only the result's nested labels differ.
      Labelled: (ev, pc, conv, e, fuel) =>
        ev.then(ev.eval(ev.join(pc, e.label), conv, e.body, fuel), (c1, v) => ev.ret(c1, isValue(e) ? ev.raise(pc, e) /* CHANGED: was v, whose nested labels are raised too */ : v)),
    },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'theorem3' },
    diff: [
      ' // ruleLabelled',
      '-return ev.eval(ev.join(pc, e.label), conv, e.body, fuel);',
      '+return ev.then(ev.eval(ev.join(pc, e.label), conv, e.body, fuel), (c1, v) => ev.ret(c1, isValue(e) ? ev.raise(pc, e) : v));',
    ].join('\n'),
    smallest: { file: 'counterexamples/value-read-top-label-powerset-us-1.json', suite: 'theorem3', lattice: 'powerset-us', size: 4 },
  },
];

/** Variants used only to show that a suite can fail (not part of the user-facing catalogue). */
export const TEST_VARIANTS: readonly Variant[] = [
  {
    name: 'lam-bottom',
    description: 'Lam labels closures ⊥ instead of pc (breaks Confinement).',
    rules: { Lam: (ev, _pc, conv, e) => ev.ret(conv, ev.value(ev.lat.bottom /* CHANGED: was pc */, e)) },
    expected: { leaksOn: [...ALL], soundOn: [], caughtBy: 'confinement' },
  },
];

/** A catalogue entry by name (with its diff and smallest known counterexample). */
export function catalogueEntry(name: string): CatalogueEntry | undefined {
  return CATALOGUE.find((v) => v.name === name);
}

/** A catalogue (or test) variant by name. */
export function variantByName(name: string): Variant | undefined {
  return [...CATALOGUE, ...TEST_VARIANTS].find((v) => v.name === name);
}

/** `--variant NAME|FILE.ts`. */
export async function resolveVariant(spec: string): Promise<Variant> {
  if (/\.(ts|js|mjs|mts)$/.test(spec)) return loadVariantFile(spec);
  const v = variantByName(spec);
  if (!v) throw new UserError(`unknown variant ${JSON.stringify(spec)}; the catalogue has ${[...CATALOGUE, ...TEST_VARIANTS].map((x) => x.name).join(', ')}, or pass a .ts file`);
  return v;
}

