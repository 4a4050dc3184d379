/**
 * The LLMbda core grammar (spec §2) as readonly discriminated unions on `kind`.
 *
 * The AST is generic in the label type `L` of a lattice: static labels `l:e` carry lattice
 * elements directly. Values are a subset of expressions (spec: `V ::= l:v`), so substitution
 * needs no conversion: a `Value<L>` is a `label` node whose body is a bare value.
 *
 * Derived forms (`let`, `if`, `@`, operators, interpolation) never appear here: the parser expands them.
 */
import type { Rational } from '../distributions/rational.ts';

/** An LLMbda expression (spec §2), generic in the label type `L`: one node kind per construct. */
export type Expr<L> =
  | VarE
  | LamE<L>
  | AppE<L>
  | SendE<L>
  | RecvE
  | ForkE<L>
  | ClearE
  | LabelE<L>
  | DynLabelE<L>
  | TestE<L>
  | AssertE<L>
  | EndorseE<L>
  | NumE
  | StrE
  | BoolE
  | NullE
  | PrimE<L>
  | RecordE<L>
  | ArrayE<L>
  | FieldE<L>
  | IndexE<L>;

export type ExprKind = Expr<unknown>['kind'];

export interface VarE { readonly kind: 'var'; readonly name: string }
/** `λx.e` */
export interface LamE<L> { readonly kind: 'lam'; readonly param: string; readonly body: Expr<L> }
/** `e1 e2` */
export interface AppE<L> { readonly kind: 'app'; readonly fn: Expr<L>; readonly arg: Expr<L> }
/** `send e` */
export interface SendE<L> { readonly kind: 'send'; readonly arg: Expr<L> }
/** `recv` */
export interface RecvE { readonly kind: 'recv' }
/** `fork e` */
export interface ForkE<L> { readonly kind: 'fork'; readonly body: Expr<L> }
/** `clear` */
export interface ClearE { readonly kind: 'clear' }
/** Static label `l:e` (also the shape of every value `l:v`). */
export interface LabelE<L> { readonly kind: 'label'; readonly label: L; readonly body: Expr<L> }
/** Dynamic label `e1:e2`: `e1` evaluates to a label value. */
export interface DynLabelE<L> { readonly kind: 'dynlabel'; readonly label: Expr<L>; readonly body: Expr<L> }
/** Label test `e1 ? e2`: may `e2`'s value flow to label `e1`? */
export interface TestE<L> { readonly kind: 'test'; readonly label: Expr<L>; readonly body: Expr<L> }
/** `assert e1 e2`: `e2`'s value must flow to label `e1`, else stuck. */
export interface AssertE<L> { readonly kind: 'assert'; readonly label: Expr<L>; readonly body: Expr<L> }
/** `endorse e1 e2`: reclassify `e2`'s integrity to `e1`'s. */
export interface EndorseE<L> { readonly kind: 'endorse'; readonly label: Expr<L>; readonly body: Expr<L> }
/** Exact rational number literal. */
export interface NumE { readonly kind: 'num'; readonly value: Rational }
export interface StrE { readonly kind: 'str'; readonly value: string }
export interface BoolE { readonly kind: 'bool'; readonly value: boolean }
export interface NullE { readonly kind: 'null' }
/** `prim p e` */
export interface PrimE<L> { readonly kind: 'prim'; readonly name: string; readonly arg: Expr<L> }
/** One field of a record literal; records are ordered and may repeat names. */
export interface Field<E> { readonly name: string; readonly expr: E }
/** `{s1:e1, …}` */
export interface RecordE<L> { readonly kind: 'record'; readonly fields: readonly Field<Expr<L>>[] }
/** `[e1, …]` */
export interface ArrayE<L> { readonly kind: 'array'; readonly elems: readonly Expr<L>[] }
/** `e.s` */
export interface FieldE<L> { readonly kind: 'field'; readonly target: Expr<L>; readonly name: string }
/** `e1.[e2]` */
export interface IndexE<L> { readonly kind: 'index'; readonly target: Expr<L>; readonly index: Expr<L> }

/** Scalars `k`. */
export type Scalar = NumE | StrE | BoolE | NullE;

/** Bare values `v ::= k | λx.e | {s:V, …} | [V, …]`. */
export type BareValue<L> =
  | Scalar
  | LamE<L>
  | { readonly kind: 'record'; readonly fields: readonly Field<Value<L>>[] }
  | { readonly kind: 'array'; readonly elems: readonly Value<L>[] };

/** Labelled values `V ::= l:v`. Every value has exactly one top-level label. */
export interface Value<L> { readonly kind: 'label'; readonly label: L; readonly body: BareValue<L> }

/**
 * A label-free value, as produced by `stripLabels` and consumed by `primEval`/`toLabel`/`serialise`:
 * no `label` nodes anywhere at the top of fields and elements (lambda bodies are stripped too).
 */
export type PlainValue =
  | Scalar
  | LamE<never>
  | { readonly kind: 'record'; readonly fields: readonly Field<PlainValue>[] }
  | { readonly kind: 'array'; readonly elems: readonly PlainValue[] };

// ---------------------------------------------------------------------------------------------
// Constructors (plain functions: the AST is data).

export const v = (name: string): VarE => ({ kind: 'var', name });
export const lam = <L>(param: string, body: Expr<L>): LamE<L> => ({ kind: 'lam', param, body });
export const app = <L>(fn: Expr<L>, arg: Expr<L>): AppE<L> => ({ kind: 'app', fn, arg });
export const send = <L>(arg: Expr<L>): SendE<L> => ({ kind: 'send', arg });
export const recv: RecvE = { kind: 'recv' };
export const fork = <L>(body: Expr<L>): ForkE<L> => ({ kind: 'fork', body });
export const clear: ClearE = { kind: 'clear' };
export const labelled = <L>(label: L, body: Expr<L>): LabelE<L> => ({ kind: 'label', label, body });
export const dynlabel = <L>(label: Expr<L>, body: Expr<L>): DynLabelE<L> => ({ kind: 'dynlabel', label, body });
export const test = <L>(label: Expr<L>, body: Expr<L>): TestE<L> => ({ kind: 'test', label, body });
export const assert = <L>(label: Expr<L>, body: Expr<L>): AssertE<L> => ({ kind: 'assert', label, body });
export const endorse = <L>(label: Expr<L>, body: Expr<L>): EndorseE<L> => ({ kind: 'endorse', label, body });
export const num = (value: Rational): NumE => ({ kind: 'num', value });
export const str = (value: string): StrE => ({ kind: 'str', value });
export const bool = (value: boolean): BoolE => ({ kind: 'bool', value });
export const nul: NullE = { kind: 'null' };
export const prim = <L>(name: string, arg: Expr<L>): PrimE<L> => ({ kind: 'prim', name, arg });
export const record = <L>(fields: readonly Field<Expr<L>>[]): RecordE<L> => ({ kind: 'record', fields });
export const array = <L>(elems: readonly Expr<L>[]): ArrayE<L> => ({ kind: 'array', elems });
export const field = <L>(target: Expr<L>, name: string): FieldE<L> => ({ kind: 'field', target, name });
export const index = <L>(target: Expr<L>, idx: Expr<L>): IndexE<L> => ({ kind: 'index', target, index: idx });
/** A labelled value `l:v`. */
export const value = <L>(label: L, body: BareValue<L>): Value<L> => ({ kind: 'label', label, body });
