export * from './money.ts';
export * from './card.ts';
export * from './contracts.ts';
export * from './admin-contracts.ts';
