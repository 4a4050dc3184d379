#!/usr/bin/env node
// The `llmbda` command. Sources are TypeScript run through tsx (no build step); user files
// (`--lattice ./my.ts`, `--variant ./v.ts`) load the same way.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
