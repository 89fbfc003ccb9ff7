export * from './limits.ts';
export * from './api/common.ts';
export * from './auth/roles.ts';
export * from './auth/email.ts';
export * from './auth/password-policy.ts';
export * from './auth/contracts.ts';
export * from './session-keys.ts';
export * from './messages.ts';
