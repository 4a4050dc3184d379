/** The example interpreter with the three real-world faults planted (see env-interpreter.ts). */
import { powersetUS } from '../../src/lattice/instances.ts';
import { makeEnvTarget } from './env-target.ts';

export default makeEnvTarget(powersetUS, { binopTopLabels: true, varTopLabel: true, deepLabelWalksEnv: true });
