/**
 * The laundering variant for `llmbda run --variant ./examples/ppmf/consolidation-trusts-writer.ts`:
 * Recv runs the writer's response at pc instead of the conversation label, so a consolidated memory
 * carries whatever label the writer claims (src/ppmf/bridge/variants.ts).
 */
import { bridge } from 'llmbda-check/ppmf';
const { consolidationTrustsWriter } = bridge;

export default consolidationTrustsWriter;
