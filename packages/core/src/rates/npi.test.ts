import { describe, expect, it } from 'vitest';
import { isNpi, npiCheckDigit } from './npi.ts';

describe('isNpi', () => {
  it.each([['1306938071'], ['1194866210'], ['1234567893']])('takes %j, an NPI', (npi) => {
    expect(isNpi(npi)).toBe(true);
  });

  it.each([
    ['1306938072', 'its check digit wrong'],
    ['1306983071', 'two digits swapped'],
    ['0000000001', 'a placeholder'],
    ['130693807', 'nine digits'],
    ['13069380710', 'eleven digits'],
    ['1.30694E+09', "a spreadsheet's scientific notation"],
    ['130-693-8071', 'dashes'],
    ['', 'nothing'],
  ])('refuses %j, %s', (npi) => {
    expect(isNpi(npi)).toBe(false);
  });

  it('gives the check digit that completes nine digits', () => {
    expect(npiCheckDigit('130693807')).toBe(1);
    expect(npiCheckDigit('119486621')).toBe(0);
  });
});
