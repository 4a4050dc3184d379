/**
 * The shape of a semantics: a table of rules keyed by the paper's rule names (spec §3), so that a
 * variant is the reference table with some entries replaced. Rules are generic in the label type.
 *
 * Every rule receives `fuel` = the fuel left for its PREMISES (the dispatcher already paid one unit
 * for this derivation step), and returns the distribution over outcomes.
 */
import type {
  AppE, ArrayE, AssertE, BoolE, ClearE, DynLabelE, EndorseE, Expr, FieldE, ForkE, IndexE, LabelE, LamE,
  NullE, NumE, PrimE, RecordE, RecvE, SendE, StrE, TestE, VarE,
} from '../syntax/ast.ts';
import type { Ev } from './ev.ts';
import type { Conv, ODist } from './odist.ts';
import type { Decisions } from './decisions.ts';


/** One entry per paper rule. */
export interface RuleTable {
  /** Not a paper rule: a free variable has no derivation (stuck). */
  Var<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: VarE, fuel: number): ODist<L>;
  Lam<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: LamE<L>, fuel: number): ODist<L>;
  App<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: AppE<L>, fuel: number): ODist<L>;
  Send<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: SendE<L>, fuel: number): ODist<L>;
  Recv<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: RecvE, fuel: number): ODist<L>;
  Fork<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: ForkE<L>, fuel: number): ODist<L>;
  Clear<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: ClearE, fuel: number): ODist<L>;
  Labelled<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: LabelE<L>, fuel: number): ODist<L>;
  LabelFlow<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: DynLabelE<L>, fuel: number): ODist<L>;
  LabelTest<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: TestE<L>, fuel: number): ODist<L>;
  LabelAssert<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: AssertE<L>, fuel: number): ODist<L>;
  Endorse<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: EndorseE<L>, fuel: number): ODist<L>;
  ScalarLit<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: NumE | StrE | BoolE | NullE, fuel: number): ODist<L>;
  Prim<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: PrimE<L>, fuel: number): ODist<L>;
  RecordNil<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: RecordE<L>, fuel: number): ODist<L>;
  RecordCons<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: RecordE<L>, fuel: number): ODist<L>;
  ArrayNil<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: ArrayE<L>, fuel: number): ODist<L>;
  ArrayCons<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: ArrayE<L>, fuel: number): ODist<L>;
  FieldAccess<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: FieldE<L>, fuel: number): ODist<L>;
  ArrayIndex<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: IndexE<L>, fuel: number): ODist<L>;
}

/**
 * Runs before the rule for every derivation step; returning a distribution short-cuts the rule
 * (the skipping semantics' "skip at entry"). `fuel` is the premises' fuel, as for rules.
 */
export type EntryHook = <L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L>, fuel: number) => ODist<L> | undefined;

/** A semantics: a named rule table (plus an optional entry hook). */
export interface Semantics {
  readonly name: string;
  /** One sentence saying what this semantics is or changes. */
  readonly description: string;
  readonly rules: RuleTable;
  readonly entry?: EntryHook;
  /** The label decisions the reference rule functions read (default: the reference's, see decisions.ts). */
  readonly decisions?: Decisions;
}

