/**
 * llmbda-check: the LLMbda calculus executable, with exact probabilistic evaluation, the paper's
 * theorems as property suites, variant semantics and minimal leak counterexamples.
 *
 * The main entry gathers what a user's own tests need; every folder has its own subpath
 * (`llmbda-check/lattice`, `/syntax`, `/semantics`, `/distributions`, `/generators`, `/runner`,
 * `/llmbda`, `/properties`, `/variants`, `/ppmf`, `/vitest`) with the rest. See docs/api.md.
 *
 * @packageDocumentation
 */

// --- Checking, hunting, replaying, asserting (objects or names) -------------------------------
export { check, type CheckOptions, type CheckResult, type CheckVerdict } from './api/check.ts';
export { hunt, replay, huntSuites, huntLattices, withInjectedPrims, type HuntOptions, type HuntResult, type ReplayResult, type ReplayVerdict, type Finding } from './api/hunt.ts';
export { assertSuite, assertNoLeak, assertLeaks, assertHolds, PropertyFailure } from './api/assert.ts';
export { LLMBDA_SUITES, PPMF_SUITES, PPMF_BRIDGE_SUITES, llmbdaSuiteByName, suiteNamed, allSuiteNames, checkSuiteNames } from './api/registry.ts';
export type { LatticeSpec, VariantSpec, SuiteSpec } from './api/resolve.ts';

// --- The generic runner ---------------------------------------------------------------------
export { runSuite, judge, HOLDS, fails, type PropertySuite, type Verdict, type VerdictStatus, type RunOptions, type Counterexample, type CaseOutcome, type Judgement } from './runner/suite.ts';
export { drive, type HuntTarget, type DriveOptions, type DriveResult } from './runner/hunt.ts';
export { defaultSeed } from './runner/seed.ts';

// --- LLMbda suite contexts --------------------------------------------------------------------
export { referenceCtx, type LlmbdaCtx, type LlmbdaSuite, CASE_STEP_BUDGET } from './llmbda/context.ts';
export { variantCtx, referenceCtxWith, REFERENCE_VARIANT, type PrimExtension } from './llmbda/variant-ctx.ts';

// --- Lattices -----------------------------------------------------------------------------------
export type { Lattice, AnyLattice, Factoring } from './lattice/lattice.ts';
export { twoPoint, powersetUS, chain, product } from './lattice/instances.ts';
export { finiteLattice, type FiniteLatticeSpec } from './lattice/define.ts';
export { SHIPPED_LATTICES, latticeByName, resolveLattice, validateLattice } from './lattice/registry.ts';

// --- Syntax and semantics ---------------------------------------------------------------------
export type { Expr, Value, PlainValue } from './syntax/ast.ts';
export { parse, tryParse } from './syntax/parser.ts';
export { print, prettyPrint } from './syntax/printer.ts';
export { evaluate, type Evaluation, type EvalOptions } from './semantics/evaluate.ts';
export { REFERENCE, REFERENCE_RULES } from './semantics/rules.ts';
export type { Semantics, RuleTable } from './semantics/rules-types.ts';
export type { PModel, PrimTable, PrimResult } from './semantics/model.ts';
export { coinModel, echoModel, constModel, randomModel, resolveModel } from './semantics/models/index.ts';
export { BudgetExceeded, StackLimitError } from './semantics/errors.ts';

// --- Variants -----------------------------------------------------------------------------------
export { defineVariant, variantSemantics, variantSkipping, type Variant, type Expectation } from './variants/variant.ts';
export { CATALOGUE, variantByName, catalogueEntry, type CatalogueEntry } from './variants/catalogue.ts';

// --- Errors -------------------------------------------------------------------------------------
export { UserError } from './util/absurd.ts';
export { DiscardCase } from './util/discard.ts';

// --- The m-skipping semantics and observation ---------------------------------------------------
export { SKIPPING, SKIPPING_RULES } from './skipping/skipping.ts';
export { observe, compare, eraseExpr, indistExpr, type Comparison } from './observe/indist.ts';
