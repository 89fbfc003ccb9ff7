import { describe, expect, it } from 'vitest';
import { retryDelayMinutes, withoutAddresses } from './mail-queue.ts';

describe('withoutAddresses', () => {
  it('leaves out the addresses a mail server quotes, and nothing else', () => {
    expect(withoutAddresses('550 5.1.1 <jane.doe+x@example.com>: Recipient address rejected')).toBe(
      '550 5.1.1 <<address>>: Recipient address rejected',
    );
    expect(
      withoutAddresses("Can't send mail - all recipients were rejected: 550 a@b.c, d@e.f"),
    ).toBe("Can't send mail - all recipients were rejected: 550 <address>, <address>");
    expect(withoutAddresses('451 4.7.1 Try again later')).toBe('451 4.7.1 Try again later');
  });

  it('answers at once for a long text without an address', () => {
    const long = 'a'.repeat(300_000);
    expect(withoutAddresses(long)).toBe(long);
  });
});

describe('retryDelayMinutes', () => {
  it('doubles from a minute to an hour at most', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMinutes)).toEqual([
      1, 2, 4, 8, 16, 32, 60, 60, 60,
    ]);
  });
});
