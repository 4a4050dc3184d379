/** Every scenario template, by family. */

import { absurd } from '../../util/absurd.ts';














import { FAMILIES } from './common.ts';
import type { Family, Template } from './common.ts';
import * as synthetic from './synthetic.ts';
import * as adaptive from './adaptive.ts';
import * as banking from './banking.ts';
import * as benign from './benign.ts';
import * as binding from './binding.ts';

/** Every template of a family, attacks first. */
export function templatesOf(family: Family): readonly Template[] {
  switch (family) {
    case 'synthetic':
      return [synthetic.PROCEDURE, synthetic.PREFERENCE, synthetic.AUTHORITY, synthetic.FRUSTRATION, synthetic.EVASION, ...synthetic.SYNTHETIC_BENIGN];
    case 'adaptive':
      return [adaptive.INDIRECTION, adaptive.SPLIT, adaptive.REFRAMING, adaptive.JARGON, adaptive.HANDOFF, ...adaptive.ADAPTIVE_BENIGN];
    case 'banking':
      return [banking.BANK_SEND, banking.BANK_SCHEDULE, banking.BANK_UPDATE_SCHEDULED, banking.BANK_PASSWORD, banking.BANK_USER_INFO, ...banking.BANKING_BENIGN];
    case 'benign':
      return benign.BENIGN_TASKS;
    case 'binding':
      return binding.BINDING;
    default:
      return absurd(family);
  }
}

/** Attack templates of all families (for arbitraries); PROCEDURE first: the paper's story. */
export const ATTACK_TEMPLATES: readonly Template[] = FAMILIES.flatMap((f) => templatesOf(f)).filter((t) => t.kind === 'attack');

/** Benign templates of all families. */
export const BENIGN_TEMPLATES: readonly Template[] = FAMILIES.flatMap((f) => templatesOf(f)).filter((t) => t.kind === 'benign');

