import { describe, expect, it } from 'vitest';
import { duplicateKeys } from './duplicate-keys.ts';

describe('duplicateKeys', () => {
  it('finds none in JSON whose objects each name a key once', () => {
    expect(duplicateKeys('{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}')).toEqual([]);
    expect(duplicateKeys('[1, "a", {"a": "a"}, [], {}]')).toEqual([]);
  });

  it('says each key written again, where its object is', () => {
    const text = JSON.stringify({ x: [{}, { y: 1 }] })
      .replace('{"y":1}', '{"y":1,"z":{"k":1,"k":2},"y":3}')
      .replace('{"x"', '{"n":0,"x"')
      .replace(/}$/, ',"n":1,"n":2}');
    expect(duplicateKeys(text)).toEqual([
      { at: '.x[1].z', key: 'k' },
      { at: '.x[1]', key: 'y' },
      { at: '', key: 'n' },
      { at: '', key: 'n' },
    ]);
  });

  it('reads keys as JSON does: escapes decoded, strings with braces, colons and quotes skipped', () => {
    const text = String.raw`{"a\u0062": "{\"ab\": 1, [", "ab": ":,}", "s": "\\", "s\"": {"ab": 0}}`;
    expect(JSON.parse(text)).toEqual({ ab: ':,}', s: '\\', 's"': { ab: 0 } });
    expect(duplicateKeys(text)).toEqual([{ at: '', key: 'ab' }]);
  });

  it('numbers list entries after commas inside nested lists', () => {
    expect(duplicateKeys(' [ [1, 2], {"a": 1}, [ {"b": [3, {"c": 1, "c": 2}]} ] ] ')).toEqual([
      { at: '[2][0].b[1]', key: 'c' },
    ]);
  });
});
