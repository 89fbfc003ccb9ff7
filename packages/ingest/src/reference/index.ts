export * from './errors.ts';
export type { ReferenceSource } from './source.ts';
export * from './cbsa.ts';
export * from './hcpcs.ts';
export * from './physician-fee-schedule.ts';
export * from './zip-locality.ts';
export * from './nadac.ts';
export * from './zip-county.ts';
export * from './zip-county-overrides.ts';
