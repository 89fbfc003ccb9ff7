import { describe, expect, it } from 'vitest';
import { MORE, isItemLike, itemStartsAt, keyStartsAt, listEndsAt } from './json-resync.ts';

const at = (text: string, char: string) => [Buffer.from(text), text.indexOf(char)] as const;

describe('itemStartsAt', () => {
  it('tells an item by its first field, in any letter case, and waits for the key', () => {
    expect(itemStartsAt(...at('{ "description": "X"', '{'))).toBe(1);
    expect(itemStartsAt(...at('{"Code_Information": [', '{'))).toBe(1);
    // A payer entry, a code: objects inside items.
    expect(itemStartsAt(...at('{"payer_name": "A"', '{'))).toBe(0);
    expect(itemStartsAt(...at('{"code": "1"', '{'))).toBe(0);
    expect(itemStartsAt(...at('{ 12', '{'))).toBe(0);
    // The key is not all there yet.
    expect(itemStartsAt(...at('{\n  "descrip', '{'))).toBe(MORE);
    expect(itemStartsAt(...at('{  ', '{'))).toBe(MORE);
  });
});

describe('listEndsAt', () => {
  it('ends the list where the file’s fields or its end follow', () => {
    expect(listEndsAt(...at('] , "modifier_information": [', ']'), false, false)).toBe(1);
    expect(listEndsAt(...at('],"a_field_no_schema_has": 1', ']'), false, false)).toBe(1);
    expect(listEndsAt(...at(']\n}\n', ']'), true, false)).toBe(1);
    // In a file written inside a list, the list's bracket follows the file's brace.
    expect(listEndsAt(...at(']}]', ']'), false, true)).toBe(1);
  });

  it('does not where an item’s field, the next item or more of an item follow', () => {
    expect(listEndsAt(...at('], "standard_charges": [', ']'), false, false)).toBe(0);
    expect(listEndsAt(...at('], "payer_name": "A"', ']'), false, false)).toBe(0);
    expect(listEndsAt(...at(']}, {"description"', ']'), false, false)).toBe(0);
    expect(listEndsAt(...at(']}]', ']'), false, false)).toBe(0);
    expect(listEndsAt(...at('] "x"', ']'), false, false)).toBe(0);
  });

  it('waits for more bytes, unless the file has ended', () => {
    expect(listEndsAt(...at(']  ', ']'), false, false)).toBe(MORE);
    expect(listEndsAt(...at(']}\n', ']'), false, false)).toBe(MORE);
    expect(listEndsAt(...at('], "hosp', ']'), false, false)).toBe(MORE);
    expect(listEndsAt(...at(']}\n', ']'), true, false)).toBe(1);
    expect(listEndsAt(...at('], "hosp', ']'), true, false)).toBe(0);
  });
});

describe('keyStartsAt', () => {
  it('tells a key, a short string and a colon, from a string value', () => {
    expect(keyStartsAt(...at('"standard_charges" : [', '"'), false)).toBe(1);
    expect(keyStartsAt(...at('"a value", {', '"'), false)).toBe(0);
    expect(keyStartsAt(...at(`"${'x'.repeat(80)}": 1`, '"'), false)).toBe(0);
  });

  it('waits for more bytes, unless the file has ended', () => {
    expect(keyStartsAt(...at('"standard_ch', '"'), false)).toBe(MORE);
    expect(keyStartsAt(...at('"standard_charges"  ', '"'), false)).toBe(MORE);
    expect(keyStartsAt(...at('"standard_charges"  ', '"'), true)).toBe(0);
    expect(keyStartsAt(...at('"standard_ch', '"'), true)).toBe(0);
  });
});

describe('isItemLike', () => {
  it('wants an item’s field and none of the fields of what is inside an item', () => {
    expect(isItemLike({ description: 'X', code_information: [] })).toBe(true);
    expect(isItemLike({ Description: 'X', billing_class: 'facility' })).toBe(true);
    expect(isItemLike({ description: 'X', code: '1', type: 'CPT' })).toBe(false);
    expect(isItemLike({ code: '1', type: 'CPT' })).toBe(false);
    expect(isItemLike('standard_charges')).toBe(false);
    expect(isItemLike(undefined)).toBe(false);
    expect(isItemLike([{ description: 'X' }])).toBe(false);
  });
});
