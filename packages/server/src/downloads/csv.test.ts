import { describe, expect, it } from 'vitest';
import { csvLine, csvText } from './csv.ts';

describe('csvText', () => {
  it.each([
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\uFF1DHYPERLINK("x")', `"'\uFF1DHYPERLINK(""x"")"`],
    ['\uFF20SUM(A1)', "'\uFF20SUM(A1)"],
  ])('keeps %j from starting a formula', (value, written) => {
    expect(csvText(value)).toBe(written);
  });

  it('leaves ordinary text, and a formula sign inside it, as it is (quoted where CSV needs)', () => {
    expect(csvText('MRI brain w/o contrast')).toBe('MRI brain w/o contrast');
    expect(csvText('Aetna = PPO')).toBe('Aetna = PPO');
    expect(csvText('Office visit, established')).toBe('"Office visit, established"');
    expect(csvText(null)).toBe('');
    expect(csvLine(['a', 'b'])).toBe('a,b\r\n');
  });
});
