import { describe, expect, it } from 'vitest';
import { PaymentAttempts } from './payment-attempts.ts';

function attempts() {
  let n = 0;
  return new PaymentAttempts(() => `key-${(n += 1)}`);
}

describe('PaymentAttempts', () => {
  it('reuses the key to retry the same request after an unknown outcome', () => {
    const payments = attempts();
    expect(payments.keyFor('order A')).toBe('key-1');
    payments.finish(false);
    expect(payments.keyFor('order A')).toBe('key-1');
  });

  it('gives a double submit of a request still under way the same key', () => {
    const payments = attempts();
    expect(payments.keyFor('order A')).toBe('key-1');
    expect(payments.keyFor('order A')).toBe('key-1');
  });

  it('starts a new attempt after a known outcome such as a decline', () => {
    const payments = attempts();
    payments.keyFor('order A');
    payments.finish(true);
    expect(payments.keyFor('order A')).toBe('key-2');
  });

  it('starts a new attempt when the details change', () => {
    const payments = attempts();
    payments.keyFor('order A');
    payments.finish(false);
    expect(payments.keyFor('order A, another card')).toBe('key-2');
  });

  it('makes keys the server accepts by default', () => {
    expect(new PaymentAttempts().keyFor('x')).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
  });
});
