export * from './out-of-pocket.ts';
export * from './free-searches.ts';
