import { describe, expect, it } from 'vitest';
import { lenientJson } from './lenient-json.ts';

describe('lenientJson', () => {
  it('reads NaN and Infinity as null, outside strings only', () => {
    const repaired = lenientJson(
      '{"gross_charge": NaN, "max": Infinity, "min": -Infinity, "notes": "NaN, Infinity,]"}',
    );
    expect(repaired).toMatchObject({ nonFinite: 3, trailingCommas: 0 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      gross_charge: null,
      max: null,
      min: null,
      notes: 'NaN, Infinity,]',
    });
  });

  it('drops a comma before a closing bracket or brace, and keeps escaped quotes in strings', () => {
    const repaired = lenientJson('{"codes": [1, 2, ], "note": "a \\", }" ,\n }');
    expect(repaired).toMatchObject({ nonFinite: 0, trailingCommas: 2 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({ codes: [1, 2], note: 'a ", }' });
  });

  it('finds nothing to repair in other broken JSON, or in negative numbers', () => {
    expect(lenientJson('{"a": 1 "b": 2}')).toBeNull();
    expect(lenientJson('{"a": -5, "b": [-1.5e3]}')).toBeNull();
    expect(lenientJson('{"a": Nan}')).toBeNull();
  });
});
