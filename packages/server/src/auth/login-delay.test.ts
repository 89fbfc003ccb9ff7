import { describe, expect, it } from 'vitest';
import { loginDelayMs } from './auth-service.ts';

describe('loginDelayMs', () => {
  it('answers the first two failures at once', () => {
    expect([0, 1, 2].map(loginDelayMs)).toEqual([0, 0, 0]);
  });

  it('doubles the wait from the third failure, up to four seconds', () => {
    expect([3, 4, 5, 6, 7, 8, 20].map(loginDelayMs)).toEqual([
      250, 500, 1000, 2000, 4000, 4000, 4000,
    ]);
  });
});
