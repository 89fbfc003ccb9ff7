import { describe, expect, it } from 'vitest';
import { EXAMPLES_PER_RULE } from '../validate/report.ts';
import { lenientJson } from './lenient-json.ts';

const NONE = {
  nonFinite: 0,
  trailingCommas: 0,
  missingCommas: 0,
  extraCommas: 0,
  comments: 0,
  unescapedQuotes: 0,
  controlCharacters: 0,
  invalidEscapes: 0,
  numberForms: 0,
  unclosedStrings: 0,
};

describe('lenientJson', () => {
  it("takes a quote followed by text as the text's own when asked, after the other repairs", () => {
    const text = '{"description": "TUBE 12" FOLEY", "note": "4"X4" GAUZE" "code": "A4338"}';
    // Asked first without: a comma is missing, but the quotes still break it.
    expect(() => void JSON.parse(lenientJson(text)?.text ?? '')).toThrow();
    const repaired = lenientJson(text, true);
    expect(repaired).toMatchObject({ ...NONE, unescapedQuotes: 3, missingCommas: 1 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      description: 'TUBE 12" FOLEY',
      note: '4"X4" GAUZE',
      code: 'A4338',
    });
    // A quote before a value, a quote or a comma still closes its string: two values.
    expect(JSON.parse(lenientJson('["a" "b" 5 {"c": 1}]', true)?.text ?? '')).toEqual([
      'a',
      'b',
      5,
      { c: 1 },
    ]);
  });

  it("takes a quote followed by a comma or colon and then a word as the text's own", () => {
    const text =
      '{"description": "BRACE 8", PREFAB", "note": "SPLINT 4": PLASTER", ' +
      '"address": ["1 Main St "Suite 5", Portland"], "next": "a",\n "b": [1, true, null]}';
    const repaired = lenientJson(text, true);
    expect(repaired).toMatchObject({ ...NONE, unescapedQuotes: 4 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      description: 'BRACE 8", PREFAB',
      note: 'SPLINT 4": PLASTER',
      address: ['1 Main St "Suite 5", Portland'],
      next: 'a',
      b: [1, true, null],
    });
    // A comma and then a value or key, or a comma at the end, still closes its string.
    for (const list of ['["a", "b"]', '["a", 5]', '["a", -1]', '["a", [1]]', '["a", null]']) {
      expect(lenientJson(list, true), list).toBeNull();
    }
    expect(JSON.parse(lenientJson('["a",]', true)?.text ?? '')).toEqual(['a']);
  });

  it('closes a text that lost its closing quote where the next field starts, when asked', () => {
    const text =
      '{"description": "Office visit,\n  "codes": [{"code": "99213", "type": "CPT\n  }],\n' +
      '  "note": "12" tube, "setting": "outpatient"}';
    expect(() => void JSON.parse(lenientJson(text)?.text ?? '')).toThrow();
    const repaired = lenientJson(text, true);
    // The note's ran on after a comma on its line, and keeps its inch mark as text; the line
    // breaks the texts took are outside them again, so none is said to be in a text.
    expect(repaired).toMatchObject({ ...NONE, unclosedStrings: 3, unescapedQuotes: 1 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      description: 'Office visit',
      codes: [{ code: '99213', type: 'CPT' }],
      note: '12" tube',
      setting: 'outpatient',
    });
    // A text in a list too: the list's bracket, which it took, closes it again.
    expect(JSON.parse(lenientJson('{"names": ["A", "B],\n "next": 1}', true)?.text ?? '')).toEqual({
      names: ['A', 'B'],
      next: 1,
    });
    // The name it ran on into must look like a field's, after a comma or a line break.
    for (const broken of ['{"a": "x "b": 1}', '{"a": "x,\n "b c!": 1}', '{"a": "x,\n "": 1}']) {
      expect(() => void JSON.parse(lenientJson(broken, true)?.text ?? ''), broken).toThrow();
    }
  });

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

  it('reads a value without quotes after a colon as text, as written', () => {
    const text =
      '{"a": $400, "b": (400) , "c": USD400\n, "d": True, "e": fee schedule // note\n, ' +
      '"f": 4.0.0, "g": 1 234, "h": [1, 2], "i": St. Mary\'s}';
    const repaired = lenientJson(text);
    expect(repaired).toMatchObject({ ...NONE, unclosedStrings: 8, comments: 1 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      a: '$400',
      b: '(400)',
      c: 'USD400',
      d: 'True',
      e: 'fee schedule',
      f: '4.0.0',
      g: '1 234',
      h: [1, 2],
      i: "St. Mary's",
    });
    // A top-level field's value, cut out alone, is one too. One in single quotes is not read,
    // nor one a quote follows (it lost its opening quote: read so, the next key is lost).
    expect(JSON.parse(lenientJson('3.0.0')?.text ?? '')).toBe('3.0.0');
    expect(() => void JSON.parse(lenientJson('{"a": PPO", "b": 1}', true)?.text ?? '')).toThrow();
    expect(() => void JSON.parse(lenientJson('{"a": \'PPO\', "b": $1}')?.text ?? '')).toThrow();
  });

  it('closes a key at the colon after it, so a value without quotes merges no entries', () => {
    const text =
      '[{"payer_name": "Platform", "standard_charge_dollar": $400\n },\n' +
      ' {"payer_name": "Region", "standard_charge_dollar": undefined}]';
    for (const quotesAsText of [false, true]) {
      const repaired = lenientJson(text, quotesAsText);
      expect(repaired).toMatchObject({ ...NONE, unclosedStrings: 1, nonFinite: 1 });
      expect(JSON.parse(repaired?.text ?? '')).toEqual([
        { payer_name: 'Platform', standard_charge_dollar: '$400' },
        { payer_name: 'Region', standard_charge_dollar: null },
      ]);
    }
    // A quote in a key is still its text's own, but a key never reaches across a brace or a
    // line break: what would be read so is left broken.
    expect(JSON.parse(lenientJson('{"TUBE 12" FOLEY": 1}', true)?.text ?? '')).toEqual({
      'TUBE 12" FOLEY': 1,
    });
    for (const broken of ['[{"note" N/A}, {"x": 1}]', '{"a": 1, "b" x\n "c": 3}']) {
      expect(() => void JSON.parse(lenientJson(broken, true)?.text ?? ''), broken).toThrow();
    }
  });

  it('reads None, NULL, nan, N/A, a dash and an empty value after a colon as null', () => {
    const repaired = lenientJson(
      '{"a": None, "b": NULL, "c": nan, "d": N/A, "e": -, "f": , "g": NA, "h": #N/A, ' +
        '"i": Nan\n, "j": "None", "k": [1, 2],\n "l": }',
    );
    expect(repaired).toMatchObject({ ...NONE, nonFinite: 10 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      ...Object.fromEntries([...'abcdefghi'].map((key) => [key, null])),
      j: 'None',
      k: [1, 2],
      l: null,
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

  it('escapes a raw control character inside a text, and leaves white space between values', () => {
    const repaired = lenientJson('{\n\t"description": "TUBE\tFOLEY\r\nLATEX\u0001",\r\n "n": 1}');
    expect(repaired).toMatchObject({ ...NONE, controlCharacters: 4 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      description: 'TUBE\tFOLEY\r\nLATEX\u0001',
      n: 1,
    });
  });

  it("keeps a backslash JSON does not know as written, but for an apostrophe's", () => {
    const repaired = lenientJson(
      String.raw`["W\O CONTRAST", "CHILDREN\'S", "\u12", "ok \" \\ \/ \n \u00e9"]`,
    );
    expect(repaired).toMatchObject({ ...NONE, invalidEscapes: 3 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual([
      'W\\O CONTRAST',
      "CHILDREN'S",
      '\\u12',
      'ok " \\ / \n é',
    ]);
  });

  it('writes a number as JSON does when it was written otherwise, and leaves the rest', () => {
    const repaired = lenientJson(
      '{"a": .5, "b": -.25, "c": 5., "d": +5, "e": 0450, "f": 00.50, "g": 1.e3, ' +
        '"h": [0, -0, 1.5E+2, 10]}',
    );
    expect(repaired).toMatchObject({ ...NONE, numberForms: 7 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      a: 0.5,
      b: -0.25,
      c: 5,
      d: 5,
      e: 450,
      f: 0.5,
      g: 1000,
      h: [0, -0, 150, 10],
    });
    // Hexadecimal is no number a reader can be sure of: read as the text it is, for the
    // field's own checks to refuse.
    expect(JSON.parse(lenientJson('{"a": 0x10}')?.text ?? '')).toEqual({ a: '0x10' });
  });

  it("reads a field's number with commas between its thousands as the number, with $ as text", () => {
    const repaired = lenientJson(
      '{"gross_charge": 1,234.50, "minimum": 12,345,678, "maximum": $1,200,\n' +
        '"standard_charge_dollar": -1,000}',
    );
    expect(repaired).toMatchObject({ ...NONE, numberForms: 3, unclosedStrings: 1 });
    expect(JSON.parse(repaired?.text ?? '')).toEqual({
      gross_charge: 1234.5,
      minimum: 12345678,
      maximum: '$1,200',
      standard_charge_dollar: -1000,
    });
    expect(repaired?.examples.numberForms[0]).toEqual({
      key: 'gross_charge',
      within: false,
      written: '1,234.50',
    });
  });

  it('leaves numbers a comma separates in a list, and a comma not between thousands', () => {
    // In a list, 1,234 may be two numbers; 1,23 and 1,2345 group no thousands.
    for (const text of ['{"a": [1,234]}', '{"a": 1,23}', '{"a": 1,2345}', '{"a": 01,234}']) {
      expect(lenientJson(text)?.text ?? text, text).not.toMatch(/1234/);
    }
  });

  describe('examples', () => {
    it('names the key of each value read as null, a number or a text, and what was written', () => {
      const repaired = lenientJson(
        '{"payer_name": "Aetna", "standard_charge_dollar": None, "estimated_amount": $400, ' +
          '"median_amount": .5, "percentiles": [1, NaN, +2], "count": }',
      );
      expect(repaired?.examples.nonFinite).toEqual([
        { key: 'standard_charge_dollar', within: false, written: 'None' },
        { key: 'percentiles', within: true, written: 'NaN' },
        { key: 'count', within: false, written: '' },
      ]);
      expect(repaired?.examples.unclosedStrings).toEqual([
        { key: 'estimated_amount', within: false, written: '$400' },
      ]);
      expect(repaired?.examples.numberForms).toEqual([
        { key: 'median_amount', within: false, written: '.5' },
        { key: 'percentiles', within: true, written: '+2' },
      ]);
    });

    it('places a comma after the field it follows, or in the list or object it is in', () => {
      const repaired = lenientJson(
        '{"payer_name": "Aetna" "plan_name": "PPO",, "payers_information": [{"a": 1}{"a": 2}], ' +
          '"codes": [, "99213", ], "drug_information": {"unit": 1,}}',
      );
      expect(repaired?.examples.missingCommas).toEqual([
        { key: 'payer_name', within: false, written: '' },
        { key: 'payers_information', within: true, written: '' },
      ]);
      expect(repaired?.examples.extraCommas).toEqual([
        { key: 'plan_name', within: false, written: ',' },
        { key: 'codes', within: true, written: ',' },
      ]);
      expect(repaired?.examples.trailingCommas).toEqual([
        { key: 'codes', within: true, written: ',' },
        { key: 'unit', within: false, written: ',' },
      ]);
    });

    it('names the key a comment came after, and the comment', () => {
      const repaired = lenientJson(
        '{"standard_charge_dollar": 3466.8 // APC rate\n, "plan_name": /* the plan */ "PPO"}',
      );
      expect(repaired?.examples.comments).toEqual([
        { key: 'standard_charge_dollar', within: false, written: '// APC rate' },
        { key: 'plan_name', within: false, written: '/* the plan */' },
      ]);
    });

    it('names the key of a text with a character repaired, and the text around it', () => {
      const note = 'SPLINT FOR THE LOWER LEG, LONG, ADJUSTABLE, 4"X4" PADDING, EACH ONE';
      const repaired = lenientJson(
        `{"description": "TUBE\tFOLEY", "code_type": "W\\O", "note": "${note}"}`,
        true,
      );
      expect(repaired?.examples.controlCharacters).toEqual([
        { key: 'description', within: false, written: 'TUBE\tFOLEY' },
      ]);
      expect(repaired?.examples.invalidEscapes).toEqual([
        { key: 'code_type', within: false, written: 'W\\O' },
      ]);
      // A long text is shown around the quote, to its end when that is near, the rest cut.
      expect(repaired?.examples.unescapedQuotes).toEqual([
        { key: 'note', within: false, written: '… LONG, ADJUSTABLE, 4"X4" PADDING, EACH O…' },
        { key: 'note', within: false, written: '…ONG, ADJUSTABLE, 4"X4" PADDING, EACH ONE' },
      ]);
    });

    it('names the key of a text that lost its closing quote, and of repairs inside it', () => {
      const repaired = lenientJson(
        '{"description": "Office\tvisit,\n "codes": [{"code": "99213", "type": "CPT"}]}',
        true,
      );
      expect(repaired?.examples.unclosedStrings).toEqual([
        { key: 'description', within: false, written: 'Office\tvisit' },
      ]);
      // Counted once, though the string was read twice: as it ran on, then alone.
      expect(repaired?.controlCharacters).toBe(1);
      expect(repaired?.examples.controlCharacters).toEqual([
        { key: 'description', within: false, written: 'Office\tvisit' },
      ]);
    });

    it('names no key for a repair before the first', () => {
      expect(lenientJson('[.5, {"a": 1}]')?.examples.numberForms).toEqual([
        { key: null, within: true, written: '.5' },
      ]);
    });

    it('keeps the first examples of a kind, as many as a report keeps, and counts them all', () => {
      const text = `{${[...'abcdefgh'].map((key) => `"${key}": NaN`).join(', ')}}`;
      const repaired = lenientJson(text);
      expect(repaired?.nonFinite).toBe(8);
      expect(EXAMPLES_PER_RULE).toBeLessThan(8);
      expect(repaired?.examples.nonFinite.map((example) => example.key)).toEqual(
        [...'abcdefgh'].slice(0, EXAMPLES_PER_RULE),
      );
    });
  });

  it('finds nothing to repair in other broken JSON, or in negative numbers', () => {
    expect(lenientJson('{"a": 1: 2}')).toBeNull();
    expect(lenientJson('{"a": -5, "b": [-1.5e3]}')).toBeNull();
    expect(lenientJson('{"a": [1, 2], "b": {"c": "d, e"}}')).toBeNull();
  });
});
