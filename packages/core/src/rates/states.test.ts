import { describe, expect, it } from 'vitest';
import {
  US_STATES,
  isNonMetroAreaCode,
  nonMetroAreaCode,
  nonMetroAreaName,
  stateByCode,
  stateByFips,
  stateByName,
} from './states.ts';

describe('US_STATES', () => {
  it('lists the 50 states, DC and Puerto Rico', () => {
    expect(US_STATES).toHaveLength(52);
    expect(US_STATES.map((state) => state.code)).toEqual(
      expect.arrayContaining(['DC', 'PR', 'AK', 'HI']),
    );
  });

  it('is sorted by name', () => {
    const names = US_STATES.map((state) => state.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('has unique two-letter codes and two-digit FIPS codes', () => {
    expect(new Set(US_STATES.map((state) => state.code)).size).toBe(52);
    expect(new Set(US_STATES.map((state) => state.fips)).size).toBe(52);
    for (const state of US_STATES) {
      expect(state.code).toMatch(/^[A-Z]{2}$/);
      expect(state.fips).toMatch(/^\d{2}$/);
    }
  });
});

describe('state lookups', () => {
  it('finds a state by code, FIPS or name regardless of case', () => {
    expect(stateByCode('ma')?.name).toBe('Massachusetts');
    expect(stateByFips('2')?.code).toBe('AK');
    expect(stateByFips('72')?.code).toBe('PR');
    expect(stateByName(' district of columbia ')?.fips).toBe('11');
  });

  it('knows nothing of territories outside the 52', () => {
    expect(stateByCode('GU')).toBeUndefined();
  });
});

describe('nonMetroAreaCode', () => {
  it('is 99 followed by the three-digit FIPS state code', () => {
    expect(nonMetroAreaCode('AK')).toBe('99002');
    expect(nonMetroAreaCode('pr')).toBe('99072');
  });

  it('names the area after the state', () => {
    expect(nonMetroAreaName('AK')).toBe('Alaska non-metropolitan area');
  });

  it('cannot be mistaken for a CBSA code', () => {
    expect(isNonMetroAreaCode(nonMetroAreaCode('MA'))).toBe(true);
    expect(isNonMetroAreaCode('11260')).toBe(false);
  });

  it('refuses an unknown state', () => {
    expect(() => nonMetroAreaCode('XX')).toThrow(/Unknown state code: XX/);
  });
});
