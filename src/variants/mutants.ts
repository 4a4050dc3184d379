/**
 * Generated rule mutants, as QuickChick's mutation testing of IFC machines did: every single-point
 * weakening of the reference rules' label decisions (src/semantics/decisions.ts) —
 * - drop a side condition (`nsu`, `nCheck`, `policy` → not checked),
 * - drop one operand of a join (`pc ⊔ n ⊔ l` → `pc ⊔ l`),
 * - replace a label by ⊥, or by pc —
 * each a `Variant` carrying only `decisions`, so its ⇓♯ follows by construction (variant.ts,
 * `deriveSkipping`). Nobody chose these: the enumeration is mechanical, duplicates (two operations that
 * give the same join) are listed once, and the reference itself is never produced.
 */
import { REFERENCE_DECISIONS, RULE_LABEL_VARS, showJoin, type DecidingRule, type DecisionChanges, type Join } from '../semantics/decisions.ts';
import type { Variant } from './variant.ts';

/** The single-point change a mutant makes. */
export type MutationOp =
  | { readonly kind: 'drop-check' }
  | { readonly kind: 'drop-operand'; readonly operand: string }
  | { readonly kind: 'bottom' }
  | { readonly kind: 'pc' };

/** A generated mutant: the variant and where it changed the reference. */
export interface Mutant extends Variant {
  readonly rule: DecidingRule;
  /** The decision point, e.g. `conv` of Send. */
  readonly point: string;
  readonly op: MutationOp;
  /** `Send.conv: lc ⊔ n → n`. */
  readonly change: string;
}

const sameJoin = (a: Join, b: Join): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** The weakenings of one join, deduplicated, never the join itself. */
function joinMutations(j: Join, vars: readonly string[]): { op: MutationOp; to: Join }[] {
  const out: { op: MutationOp; to: Join }[] = [];
  const add = (op: MutationOp, to: Join): void => {
    if (to.length === 0) op = { kind: 'bottom' }; // dropping the only operand is replacing it by ⊥
    if (!sameJoin(to, j) && !out.some((o) => sameJoin(o.to, to))) out.push({ op, to });
  };
  for (const x of j) add({ kind: 'drop-operand', operand: x }, j.filter((y) => y !== x));
  add({ kind: 'bottom' }, []);
  if (vars.includes('pc')) add({ kind: 'pc' }, ['pc']);
  return out;
}

const slug = (s: string): string => s.replace(/([a-z])([A-Z])/g, '$1-$2').replace(/'/g, 'p').toLowerCase();

/** Every single-point weakening of the reference decisions, in rule order. */
export function generateMutants(): Mutant[] {
  const out: Mutant[] = [];
  for (const rule of Object.keys(REFERENCE_DECISIONS) as DecidingRule[]) {
    const points = REFERENCE_DECISIONS[rule] as unknown as Readonly<Record<string, Join | boolean>>;
    for (const [point, ref] of Object.entries(points)) {
      const make = (op: MutationOp, to: Join | boolean, what: string): Mutant => {
        const tag = op.kind === 'drop-operand' ? `drop-${op.operand}` : op.kind === 'drop-check' ? 'off' : op.kind === 'bottom' ? 'bot' : 'pc';
        const change = `${rule}.${point}: ${what}`;
        return {
          name: `m-${slug(rule)}-${slug(point)}-${slug(tag)}`,
          description: `generated mutant: ${change}`,
          rules: {},
          decisions: { [rule]: { [point]: to } } as DecisionChanges,
          rule, point, op, change,
        };
      };
      if (typeof ref === 'boolean') {
        if (ref) out.push(make({ kind: 'drop-check' }, false, `side condition dropped`));
        continue;
      }
      for (const m of joinMutations(ref, RULE_LABEL_VARS[rule])) out.push(make(m.op, m.to, `${showJoin(ref)} → ${showJoin(m.to)}`));
    }
  }
  return out;
}

/** A generated mutant by name. */
export function mutantByName(name: string): Mutant | undefined {
  return generateMutants().find((m) => m.name === name);
}
