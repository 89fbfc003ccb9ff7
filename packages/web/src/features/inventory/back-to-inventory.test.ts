import { describe, expect, it } from 'vitest';
import { backToInventory, hospitalComingBack, opensInPlace } from './back-to-inventory.ts';

const PLAIN = { button: 0, metaKey: false, altKey: false, ctrlKey: false, shiftKey: false };

describe('hospitalComingBack', () => {
  it('reads the hospital that "Back to the inventory" names', () => {
    expect(hospitalComingBack(backToInventory('7f0c2a52'))).toBe('7f0c2a52');
  });

  it('reads nothing from a location without state, or with another state', () => {
    expect(hospitalComingBack(null)).toBeNull();
    expect(hospitalComingBack({ from: '/login' })).toBeNull();
    expect(hospitalComingBack({ hospitalId: 42 })).toBeNull();
  });
});

describe('opensInPlace', () => {
  it('is true of a plain click, or Enter on the link', () => {
    expect(opensInPlace(PLAIN)).toBe(true);
  });

  it('is false of a click the browser opens in a new tab or window', () => {
    for (const key of ['metaKey', 'altKey', 'ctrlKey', 'shiftKey'] as const) {
      expect(opensInPlace({ ...PLAIN, [key]: true }), key).toBe(false);
    }
    expect(opensInPlace({ ...PLAIN, button: 1 })).toBe(false);
  });
});
