import { describe, expect, it } from 'vitest';
import { EXAMPLES_PER_RULE, ValidationReport, plainLocation } from './report.ts';

describe('ValidationReport', () => {
  it('counts every issue but keeps only the first examples of each rule', () => {
    const report = new ValidationReport();
    for (let row = 1; row <= 12; row++) report.add('required.payer_name', `row ${row}`);
    report.add('enum.title-case', 'row 3', '"Facility"');
    expect(report.count('required.payer_name')).toBe(12);
    expect(report.examples('required.payer_name')).toHaveLength(EXAMPLES_PER_RULE);
    expect(report.errorCount).toBe(12);
    expect(report.warningCount).toBe(1);
  });

  it('summarises in plain words, errors first', () => {
    const report = new ValidationReport();
    report.add('enum.title-case', 'row 3', '"Facility"');
    report.add('required.payer_name', 'row 45');
    report.add('required.payer_name', 'row 46');
    const lines = report.toText().split('\n');
    expect(lines[1]).toBe(
      'Error: 2 rates had no payer name (rule required.payer_name), first at row 45',
    );
    expect(lines[2]).toContain('Warning: 1 value was in another letter case');
  });

  it("gives each line with its rule's examples, as the text report with examples shows them", () => {
    const report = new ValidationReport();
    report.fatal = { code: 'truncated-json', message: 'The JSON file ends before it is complete.' };
    report.add('required.payer_name', 'row 45');
    report.add('number.invalid', 'row 9', `standard_charge|gross "${'9'.repeat(130)}"`);
    report.add('csv.cr-line-ends', 'file');
    expect(report.lines()).toEqual([
      {
        sentence: 'The file could not be read: The JSON file ends before it is complete.',
        examples: [],
      },
      {
        sentence:
          '0 charges with 0 payer rates read; 0 charges and 0 rates rejected; 2 errors, 1 warning.',
        examples: [],
      },
      {
        sentence: 'Error: 1 rate had no payer name (rule required.payer_name), first at row 45',
        examples: ['row 45'],
      },
      {
        sentence: 'Error: 1 number could not be read (rule number.invalid), first at row 9',
        // Long values are cut, as the text report cuts them.
        examples: [`row 9: standard_charge|gross "${'9'.repeat(96)}…`],
      },
      {
        sentence:
          'Warning: 1 file ended its lines with CR alone, as old Mac files do (read all the same) (rule csv.cr-line-ends)',
        // "file" alone says nothing the sentence does not.
        examples: [],
      },
    ]);
    expect(report.lines({ firstAt: false })[3]?.sentence).toBe(
      'Error: 1 number could not be read (rule number.invalid)',
    );
    // Without the error that ended the read, for when it is shown apart.
    expect(report.lines({ fatal: false }).map((line) => line.sentence)).toEqual(
      report
        .lines()
        .slice(1)
        .map((line) => line.sentence),
    );
    expect(report.toText({ examples: true }).split('\n')).toEqual(
      report
        .lines({ firstAt: false })
        .flatMap((line) => [line.sentence, ...line.examples.map((e) => `  ${e}`)]),
    );
  });

  it('words the lines for the inventory without rule ids or JSON paths', () => {
    const report = new ValidationReport();
    const payer = 'standard_charge_information[58].standard_charges[0].payers_information[2]';
    report.add('required.plan_name', payer);
    report.add('required.plan_name', 'standard_charge_information[1233].standard_charges[1]');
    report.add('whitespace.trimmed', 'attestation', 'attester_name "Tim Reiner "');
    report.add('required.hospital_name', 'hospital_name');
    report.add('required.modifier-description', 'modifier_information[3]');
    expect(report.lines({ plain: true }).slice(1)).toEqual([
      {
        sentence:
          'Error: 2 rates had no plan name (read under the plan "(no plan named)"), kept all the same, first at item 59, standard charge 1, payer rate 3',
        examples: ['item 59, standard charge 1, payer rate 3', 'item 1,234, standard charge 2'],
      },
      // A header field is named by the sentence already.
      { sentence: 'Error: 1 file has no hospital name', examples: ['the hospital name'] },
      {
        sentence: 'Error: 1 payer entry of a modifier had no description, first at modifier 4',
        examples: ['modifier 4'],
      },
      {
        sentence: 'Warning: 1 value had stray spaces around it or its | separators (trimmed)',
        examples: ['the attestation: attester_name "Tim Reiner "'],
      },
    ]);
    // The command line keeps the rule ids and the paths, for whoever mends the file.
    expect(report.lines()[1]?.sentence).toBe(
      `Error: 2 rates had no plan name (read under the plan "(no plan named)"), kept all the same (rule required.plan_name), first at ${payer}`,
    );
  });

  it('words a byte read as Windows-1252 as the character and the words around it, on the page', () => {
    const report = new ValidationReport();
    const detail = `0x92 at byte 571,477, read as "’": ${JSON.stringify('…"Chem IV Add’L Seq…')}`;
    report.add('encoding.cp1252', 'row 1635', detail);
    expect(report.lines({ plain: true })[1]?.examples).toEqual([
      'row 1,635: ’ in “…"Chem IV Add’L Seq…”',
    ]);
    // The command line keeps the byte and where it is, for whoever mends the file.
    expect(report.lines()[1]?.examples).toEqual([`row 1635: ${detail}`]);
  });

  it.each([
    ['standard_charge_information[0]', 'item 1'],
    ['standard_charge_information[2].code_information[1]', 'item 3, code 2'],
    ['standard_charge_information[2].drug_information', 'item 3, drug information'],
    ['modifier_information[0].modifier_payer_information[4]', 'modifier 1, payer 5'],
    ['license_information', 'the licence information'],
    ['row 45', 'row 45'],
    ['row 1635', 'row 1,635'],
    ['column 1200', 'column 1,200'],
    ['row 12345, last_updated_on', 'row 12,345, the last updated date'],
    // A CSV's header field, on its row of values.
    ['row 2, last_updated_on', 'row 2, the last updated date'],
    ['row 2, attestation', 'row 2, the attestation'],
    ['row 2, unknown_field', 'row 2, unknown_field'],
    // Names of an object's own properties are no header field's.
    ['row 2, constructor', 'row 2, constructor'],
    ['constructor', 'constructor'],
    ['column 3', 'column 3'],
    ['file (UTF-16LE)', 'file (UTF-16LE)'],
    // A path it does not know is left as written, not half translated.
    [
      'standard_charge_information[0].something_else',
      'standard_charge_information[0].something_else',
    ],
  ])('words the place %s as "%s"', (location, words) => {
    expect(plainLocation(location)).toBe(words);
  });

  it('counts many breaks of a rule at once, in the totals too, with one example', () => {
    const report = new ValidationReport();
    report.add('encoding.cp1252', 'row 3', '0x92 at byte 120');
    report.addCount('encoding.cp1252', 0, 'file');
    expect(report.count('encoding.cp1252')).toBe(1);
    report.addCount('encoding.cp1252', 36, 'file');
    report.addCount('required.payer_name', 4, 'row 9');
    expect(report.count('encoding.cp1252')).toBe(37);
    expect(report.warningCount).toBe(37);
    expect(report.errorCount).toBe(4);
    expect(report.examples('encoding.cp1252').map((e) => e.location)).toEqual(['row 3', 'file']);
    expect(report.examples('required.payer_name').map((e) => e.location)).toEqual(['row 9']);
  });

  it('counts in the singular for one, and leaves "first at" out for the whole file', () => {
    const report = new ValidationReport();
    report.recordsRead = 1;
    report.payersRead = 1;
    report.add('json.after-end', 'file', '8 bytes, starting "garbage"');
    const lines = report.toText().split('\n');
    expect(lines[0]).toBe(
      '1 charge with 1 payer rate read; 0 charges and 0 rates rejected; 1 error, 0 warnings.',
    );
    expect(lines[1]).toBe(
      'Error: 1 file had text after the end of its JSON object, which was not read ' +
        '(rule json.after-end)',
    );
  });

  it('writes counts of a thousand and more with separators, as the inventory shows them', () => {
    const report = new ValidationReport();
    report.recordsRead = 23_864;
    report.payersRead = 136_292;
    for (let row = 1; row <= 2100; row++) report.add('code.leading-zeros', `row ${row}`);
    const lines = report.toText().split('\n');
    expect(lines[0]).toBe(
      '23,864 charges with 136,292 payer rates read; 0 charges and 0 rates rejected; ' +
        '0 errors, 2,100 warnings.',
    );
    expect(lines[1]).toMatch(/^Warning: 2,100 codes were written without their leading zeros/);
  });

  it('counts modifiers and their payer entries apart from the charges and their rates', () => {
    const report = new ValidationReport();
    report.recordsRead = 23_864;
    report.payersRead = 136_292;
    report.modifiersRead = 1;
    report.modifierEntriesRead = 74;
    expect(report.toText()).toBe(
      '23,864 charges with 136,292 payer rates read, and 1 modifier with 74 payer entries; ' +
        '0 charges and 0 rates rejected; 0 errors, 0 warnings.',
    );
    report.rejectedModifiers = 2;
    report.rejectedModifierEntries = 1;
    report.rejectedRecords = 3;
    expect(report.toText()).toBe(
      '23,864 charges with 136,292 payer rates read, and 1 modifier with 74 payer entries; ' +
        '3 charges and 0 rates rejected, and 2 modifiers and 1 payer entry; 0 errors, 0 warnings.',
    );
    expect(report.rejected()).toBe(6);
    expect(report.toJSON()).toMatchObject({
      modifiersRead: 1,
      modifiersRejected: 2,
      modifierEntriesRead: 74,
      modifierEntriesRejected: 1,
    });
  });

  it('lists the examples under each rule, without repeating its sentence, long values cut', () => {
    const report = new ValidationReport();
    report.add('number.invalid', 'row 9', 'standard_charge|gross "abc"');
    report.add('required.payer_name', 'row 45');
    report.add('enum.drug-type', 'row 50', `"${'x'.repeat(300)}"`);
    expect(report.toText({ examples: true }).split('\n').slice(1)).toEqual([
      'Error: 1 number could not be read (rule number.invalid)',
      '  row 9: standard_charge|gross "abc"',
      'Error: 1 rate had no payer name (rule required.payer_name)',
      '  row 45',
      'Error: 1 charge had a drug unit type that is not a CMS value (that type left out), kept all the same (rule enum.drug-type)',
      `  row 50: "${'x'.repeat(118)}…`,
    ]);
  });

  it('gives a plain JSON summary with the examples', () => {
    const report = new ValidationReport();
    report.add('number.invalid', 'row 9', 'standard_charge|gross "abc"');
    const json = JSON.parse(JSON.stringify(report)) as ReturnType<ValidationReport['toJSON']>;
    expect(json.rules[0]?.examples[0]).toEqual({
      severity: 'error',
      rule: 'number.invalid',
      message: 'number could not be read: standard_charge|gross "abc"',
      location: 'row 9',
    });
  });
});
