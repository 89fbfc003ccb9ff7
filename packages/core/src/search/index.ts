export * from './out-of-pocket.ts';
export * from './free-searches.ts';
export * from './contracts.ts';
export * from './organisations.ts';
export * from './phone-number.ts';
