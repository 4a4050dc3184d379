/** `--variant NAME|FILE.ts`: a catalogue entry or a user file. */
import type { Semantics } from '../semantics/rules-types.ts';
import { resolveVariant } from '../variants/catalogue.ts';
import { variantSemantics } from '../variants/variant.ts';

export async function resolveVariantSemantics(spec: string): Promise<Semantics> {
  return variantSemantics(await resolveVariant(spec));
}
