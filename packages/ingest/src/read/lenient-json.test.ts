import { describe, expect, it } from 'vitest';
import { lenientJson } from './lenient-json.ts';

const NONE = { nonFinite: 0, trailingCommas: 0, missingCommas: 0, extraCommas: 0, comments: 0 };

describe('lenientJson', () => {
  it('reads NaN and Infinity as null, outside strings only', () => {
    const repaired = lenientJson(
      '{"gross_charge": NaN, "max": Infinity, "min": -Infinity, "notes": "NaN, Infinity,]"}',
    );
    expect(repaired).toMatchObject({ ...NONE, nonFinite: 3 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      gross_charge: null,
      max: null,
      min: null,
      notes: 'NaN, Infinity,]',
    });
  });

  it('drops line and block comments, outside strings only', () => {
    const repaired = lenientJson(
      '{"dollar": 3466.8 // APC rate\n, /* the plan */ "plan": "PPO // not a comment /* nor this */"}',
    );
    expect(repaired).toMatchObject({ ...NONE, comments: 2 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      dollar: 3466.8,
      plan: 'PPO // not a comment /* nor this */',
    });
  });

  it('drops a comma before a closing bracket or brace, and keeps escaped quotes in strings', () => {
    const repaired = lenientJson('{"codes": [1, 2, ], "note": "a \\", }" ,\n }');
    expect(repaired).toMatchObject({ ...NONE, trailingCommas: 2 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({ codes: [1, 2], note: 'a ", }' });
  });

  it('adds a missing comma between fields and entries, and drops a doubled or leading one', () => {
    const repaired = lenientJson(
      '{"code": "99213" "type": "CPT", "payers": [{"a": 1}{"a": 2} {"a": -3e2}], ' +
        '"flags": [true false null 4],, "list": [, "x"], "n": 1.5 "s": "q \\" r"}',
    );
    expect(repaired).toMatchObject({ ...NONE, missingCommas: 7, extraCommas: 2 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      code: '99213',
      type: 'CPT',
      payers: [{ a: 1 }, { a: 2 }, { a: -300 }],
      flags: [true, false, null, 4],
      list: ['x'],
      n: 1.5,
      s: 'q " r',
    });
  });

  it('finds nothing to repair in other broken JSON, or in negative numbers', () => {
    expect(lenientJson('{"a": 1: 2}')).toBeNull();
    expect(lenientJson('{"a": -5, "b": [-1.5e3]}')).toBeNull();
    expect(lenientJson('{"a": Nan}')).toBeNull();
    expect(lenientJson('{"a": [1, 2], "b": {"c": "d, e"}}')).toBeNull();
  });
});
