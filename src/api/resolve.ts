/**
 * Names or objects: every public entry point takes a lattice, variant or suite either as a value or as
 * a name/path (what the CLI passes). These resolve either form.
 */
import type { AnyLattice } from '../lattice/lattice.ts';
import { resolveLattice } from '../lattice/registry.ts';
import type { Variant } from '../variants/variant.ts';
import { validateVariant } from '../variants/variant.ts';
import { loadVariant } from '../llmbda/variant-ctx.ts';
import type { LlmbdaSuite } from '../llmbda/context.ts';
import { suiteNamed } from './registry.ts';

/** A lattice object, or a shipped name (`powerset-us`, `chain(3)`) or a lattice file path. */
export type LatticeSpec = AnyLattice | string;
/** A variant object, or a catalogue name, `reference`, or a variant file path. */
export type VariantSpec = Variant | string;
/** A suite object, or a suite name. */
export type SuiteSpec = LlmbdaSuite | string;

export async function latticeOf(spec: LatticeSpec): Promise<AnyLattice> {
  return typeof spec === 'string' ? resolveLattice(spec) : spec;
}

export async function variantOf(spec: VariantSpec): Promise<Variant> {
  return typeof spec === 'string' ? loadVariant(spec) : validateVariant(`variant ${JSON.stringify((spec as { name?: unknown }).name)}`, spec);
}

export function suiteOf(spec: SuiteSpec): LlmbdaSuite {
  return typeof spec === 'string' ? suiteNamed(spec) : spec;
}

/** How a variant is named in reports and corpus entries: its spec when given by name or path, else its name. */
export function variantLabel(spec: VariantSpec): string {
  return typeof spec === 'string' ? spec : spec.name;
}
