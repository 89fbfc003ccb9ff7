import { describe, expect, it } from 'vitest';
import { PerKeyLimit } from './per-key-limit.ts';

describe('PerKeyLimit', () => {
  it('refuses a key its max + 1st place, not another key, and gives each place back once', () => {
    const limit = new PerKeyLimit(2);
    const first = limit.take('ann');
    const second = limit.take('ann');
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(limit.take('ann')).toBeNull();
    expect(limit.take('bob')).not.toBeNull();

    first?.();
    first?.();
    expect(limit.count('ann')).toBe(1);
    expect(limit.take('ann')).not.toBeNull();
    expect(limit.take('ann')).toBeNull();
  });
});
