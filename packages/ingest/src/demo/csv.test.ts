import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from './csv.ts';
import { parseCsv } from './test-support.ts';

describe('csvField', () => {
  it('leaves plain text and numbers bare and writes null as an empty field', () => {
    expect(csvRow(['MRI of the brain', 1234.5, null])).toBe('MRI of the brain,1234.5,\n');
  });

  it('quotes a field with a comma, a double quote or a line break, doubling inner quotes', () => {
    expect(csvField('Brace, wrist')).toBe('"Brace, wrist"');
    expect(csvField('8" long')).toBe('"8"" long"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('round-trips awkward values through an RFC 4180 reader', () => {
    const values = ['a,b', '"quoted"', 'x|y', ' padded ', 'line\r\nbreak'];
    expect(parseCsv(csvRow(values))).toEqual([values]);
  });
});
