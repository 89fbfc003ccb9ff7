export * from './states.ts';
export * from './money.ts';
export * from './medicare.ts';
export * from './code-category.ts';
export * from './payer-names.ts';
export * from './line-of-business.ts';
export * from './effective-amount.ts';
export * from './npi.ts';
