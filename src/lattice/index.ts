/** Public entry `llmbda-check/lattice`: label lattices: the interface, the shipped instances, the registry and helpers to define your own. */
export * from './define.ts';
export * from './instances.ts';
export * from './lattice.ts';
export * from './registry.ts';
