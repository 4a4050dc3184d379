/**
 * Construct × operand-shape coverage of the generators (issue 13, part 5): which operators and
 * value-consuming constructs the generated programs actually apply to which shapes of values, measured
 * on the values the reference semantics really computes (not on syntax): each construct's rule is wrapped
 * to record the shape of its operand before delegating to the reference rule.
 *
 * `npm run coverage:generators` prints the table and writes it to docs/generators.md.
 */
import fc from 'fast-check';
import type { Expr, Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { deepLabel, isValue } from '../syntax/helpers.ts';
import { REFERENCE } from '../semantics/rules.ts';
import type { RuleTable, Semantics } from '../semantics/rules-types.ts';
import type { Ev } from '../semantics/ev.ts';
import type { ODist } from '../semantics/odist.ts';
import { evaluate } from '../semantics/evaluate.ts';
import { BudgetExceeded } from '../semantics/errors.ts';
import { absurd } from '../util/absurd.ts';
import { modelOf } from './models.ts';
import { conversationOf, pairArb, programOf } from './pairs.ts';
import type { Profile } from './programs.ts';

/** Operand shapes, by the labels the value carries at each depth. */
export const SHAPES = ['scalar', 'labelled scalar', 'flat container', 'labelled elements', 'container above elements', 'element above container', 'closure'] as const;
export type Shape = (typeof SHAPES)[number];

/** The constructs whose operands are classified. */
export const CONSTRUCTS = [
  'binop_+', 'binop_==', 'binop_-', 'binop_<', 'toStr', 'shape', 'recordUpdate', 'send', 'index', 'field', 'read of a bound structure',
] as const;
export type Construct = (typeof CONSTRUCTS)[number];

const CONTAINERS: readonly Shape[] = ['flat container', 'labelled elements', 'container above elements', 'element above container'];
/** The shapes a construct can meaningfully take (indexing a scalar is simply stuck). */
export function applicable(c: Construct): readonly Shape[] {
  return c === 'index' || c === 'field' || c === 'read of a bound structure' ? CONTAINERS : SHAPES;
}

/**
 * The shape of a value: scalars by whether their label is ⊥; containers by how their label compares with
 * their elements' (`element above container`: some element's deep label does not flow to the
 * container's; `container above elements`: the container's label is above all of them).
 */
export function shapeOf<L>(lat: Lattice<L>, v: Value<L>): Shape {
  const b = v.body;
  switch (b.kind) {
    case 'num': case 'str': case 'bool': case 'null':
      return lat.equals(v.label, lat.bottom) ? 'scalar' : 'labelled scalar';
    case 'lam': return 'closure';
    case 'array': case 'record': {
      const elems = b.kind === 'array' ? b.elems : b.fields.map((f) => f.expr);
      const inner = elems.reduce((a, x) => lat.join(a, deepLabel(lat, x)), lat.bottom);
      if (!lat.leq(inner, v.label)) return 'element above container';
      if (!lat.equals(inner, v.label)) return 'container above elements';
      return lat.equals(inner, lat.bottom) ? 'flat container' : 'labelled elements';
    }
    default: return absurd(b);
  }
}

function okValues<L>(d: ODist<L>): Value<L>[] {
  const out: Value<L>[] = [];
  for (const { outcome } of d.map.values()) if (outcome.kind === 'ok') out.push(outcome.value);
  return out;
}

/** The reference semantics with recording wrappers around the rules that consume values. */
export function coverageSemantics(record: (c: Construct, s: Shape) => void): Semantics {
  const R = REFERENCE.rules;
  const see = <L>(ev: Ev<L>, c: Construct, v: Value<L>): void => record(c, shapeOf(ev.lat, v));
  const rules: RuleTable = {
    ...R,
    Prim: (ev, pc, conv, e, fuel) => {
      const c = (CONSTRUCTS as readonly string[]).includes(e.name) ? (e.name as Construct) : undefined;
      if (c) {
        for (const v of okValues(ev.eval(pc, conv, e.arg, fuel))) {
          if (v.body.kind === 'array' && (e.name.startsWith('binop_') || e.name === 'recordUpdate')) for (const x of v.body.elems) see(ev, c, x);
          else see(ev, c, v);
        }
      }
      return R.Prim(ev, pc, conv, e, fuel);
    },
    Send: (ev, pc, conv, e, fuel) => { for (const v of okValues(ev.eval(pc, conv, e.arg, fuel))) see(ev, 'send', v); return R.Send(ev, pc, conv, e, fuel); },
    ArrayIndex: (ev, pc, conv, e, fuel) => { for (const v of okValues(ev.eval(pc, conv, e.target, fuel))) see(ev, 'index', v); return R.ArrayIndex(ev, pc, conv, e, fuel); },
    FieldAccess: (ev, pc, conv, e, fuel) => { for (const v of okValues(ev.eval(pc, conv, e.target, fuel))) see(ev, 'field', v); return R.FieldAccess(ev, pc, conv, e, fuel); },
    // a substituted variable (a value) re-run under pc: records and arrays only
    Labelled: (ev, pc, conv, e, fuel) => {
      if ((e.body.kind === 'array' || e.body.kind === 'record') && isValue(e as Expr<typeof pc>)) see(ev, 'read of a bound structure', e as Value<typeof pc>);
      return R.Labelled(ev, pc, conv, e, fuel);
    },
  };
  return { name: 'coverage', description: 'the reference semantics, recording operand shapes', rules };
}

export interface CoverageTable {
  readonly lattice: string;
  readonly profile: Profile;
  /** Programs evaluated (cases over the step budget are not counted). */
  readonly programs: number;
  /** Fraction of programs in which each construct met each shape at least once. */
  readonly cells: Readonly<Record<Construct, Readonly<Record<Shape, number>>>>;
}

/** Measure on `n` generated TIPNI pairs (side 0 of each), with a fixed seed. */
export function measureCoverage<L>(lat: Lattice<L>, opts: { n: number; seed: number; profile: Profile }): CoverageTable {
  const counts = new Map<string, number>();
  let programs = 0;
  const cases = fc.sample(pairArb({ lat, endorse: !lat.factoring, profile: opts.profile }), { numRuns: opts.n, seed: opts.seed });
  for (const c of cases) {
    const seen = new Set<string>();
    const sem = coverageSemantics((k, s) => seen.add(`${k}|${s}`));
    try {
      evaluate(modelOf(c.model), lat, c.pc, conversationOf(c, 0), programOf(c, 0), c.fuel, { semantics: sem, maxSteps: 20_000 });
    } catch (e) {
      if (e instanceof BudgetExceeded) continue;
      throw e;
    }
    programs++;
    for (const k of seen) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const cells = Object.fromEntries(CONSTRUCTS.map((k) => [k, Object.fromEntries(SHAPES.map((s) => [s, programs === 0 ? 0 : (counts.get(`${k}|${s}`) ?? 0) / programs]))])) as unknown as CoverageTable['cells'];
  return { lattice: lat.name, profile: opts.profile, programs, cells };
}
