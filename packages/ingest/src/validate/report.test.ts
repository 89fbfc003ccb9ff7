import { describe, expect, it } from 'vitest';
import {
  EXAMPLES_PER_RULE,
  ValidationReport,
  plainLocation,
  storedSummary,
  summaryLines,
} from './report.ts';

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
        sentence: 'Warning: 1 value had stray spaces around it (trimmed)',
        examples: ["the attestation: the attester's name “Tim Reiner ”"],
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
    // AdventHealth Orlando's file, as the command line shows its examples.
    [
      'code.leading-zeros',
      'standard_charge_information[58]',
      'RC 250',
      'item 59: revenue code 250',
    ],
    [
      'whitespace.trimmed',
      'standard_charge_information[1230]',
      'description "Major Hematological Diagnoses "',
      'item 1,231: the description “Major Hematological Diagnoses ”',
    ],
    [
      'whitespace.trimmed',
      'attestation',
      'attester_name "Tim Reiner "',
      "the attestation: the attester's name “Tim Reiner ”",
    ],
    // The CMS v3.0.0 CSV examples.
    [
      'whitespace.trimmed',
      'row 7',
      'additional_generic_notes " This service paid at 140% of the OPPS APC rate."',
      'row 7: the notes “ This service paid at 140% of the OPPS APC rate.”',
    ],
    [
      'whitespace.trimmed',
      'row 12',
      'additional_payer_notes "Methodology is explained in algorithm data element."',
      "row 12: the payer's notes “Methodology is explained in algorithm data element.”",
    ],
    ['npi.invalid', 'type_2_npi', '"0000000001"', 'the type 2 NPIs: “0000000001”'],
    [
      'date.mm-dd-yyyy',
      'row 2, last_updated_on',
      '"4/1/2026"',
      'row 2, the last updated date: “4/1/2026”',
    ],
    ['required.license_state', 'license_information', '""', 'the licence information: no state'],
    [
      'required.license_state',
      'license_information',
      '"ZZ"',
      'the licence information: state “ZZ”',
    ],
    // A value alone, its field unnamed: in curly quotes.
    [
      'enum.title-case',
      'standard_charge_information[0].standard_charges[0]',
      '"Facility"',
      'item 1, standard charge 1: “Facility”',
    ],
    [
      'number.formatted',
      'standard_charge_information[0].standard_charges[0].payers_information[1]',
      'standard_charge_dollar "$1,200.00"',
      'item 1, standard charge 1, payer rate 2: the negotiated dollar amount “$1,200.00”',
    ],
    ['number.zero', 'row 9', 'standard_charge|gross 0', 'row 9: the gross charge 0'],
    [
      'json.empty-value',
      'standard_charge_information[3]',
      'drug_information.unit null',
      'item 4: the drug unit null',
    ],
    ['whitespace.trimmed', 'row 5', 'code|2 " 0450"', 'row 5: code 2 “ 0450”'],
    ['required.code_value', 'row 5', 'code|1|type CPT', 'row 5: the type of code 1 CPT'],
    [
      'whitespace.trimmed',
      'standard_charge_information[2]',
      'code type "CPT "',
      'item 3: the code type “CPT ”',
    ],
    [
      'whitespace.trimmed',
      'row 2',
      'license_number|MA " 2042"',
      'row 2: the licence number “ 2042”',
    ],
    ['code.lower-case', 'row 5', 'CPT 0001u', 'row 5: CPT code 0001u'],
    ['code.placeholder', 'row 5', 'CDM "N/A"', 'row 5: chargemaster code “N/A”'],
    ['code.lower-case', 'row 5', 'modifier tc', 'row 5: the modifier tc'],
    ['value.placeholder', 'row 5', 'modifier "N/A"', 'row 5: the modifier “N/A”'],
    // A JSON file's header value, at its own field: named once.
    [
      'whitespace.trimmed',
      'hospital_name',
      'hospital_name " West Mercy"',
      'the hospital name: “ West Mercy”',
    ],
    // A value cut by its reader keeps its mark, inside the quotes.
    ['json.unknown-field', 'file', '"note": "Prices as of…', 'file: note “Prices as of…”'],
    // Cut inside an escape, it is no string to quote: as written.
    ['json.unknown-field', 'file', '"note": "tab\\u00…', 'file: note "tab\\u00…'],
  ] as const)(
    'words the %s example "%s: %s" on the page as "%s", and keeps it on the command line',
    (rule, location, detail, words) => {
      const report = new ValidationReport();
      report.add(rule, location, detail);
      expect(report.lines({ plain: true })[1]?.examples).toEqual([words]);
      expect(report.lines()[1]?.examples).toEqual([`${location}: ${detail}`]);
    },
  );

  // What must not be reworded: a name known by its letters, text that starts with no field's
  // name, and a column's name, which the file wrote and the example is there to show.
  it.each([
    ['code.decimal', 'row 5', 'MS-DRG 65.0', 'row 5: MS-DRG 65.0'],
    ['json.comma', 'standard_charge_information[3]', 'missing comma', 'item 4: missing comma'],
    ['column.missing', 'row 3', 'code|1|type', 'row 3: code|1|type'],
    ['column.stray-spaces', 'column 2', '"code | 1"', 'column 2: "code | 1"'],
  ] as const)(
    'leaves the %s example "%s: %s" as written on the page, "%s"',
    (rule, location, detail, words) => {
      const report = new ValidationReport();
      report.add(rule, location, detail);
      expect(report.lines({ plain: true })[1]?.examples).toEqual([words]);
    },
  );

  it('counts the fields CMS does not define as field names, and says how many objects had each, on the page', () => {
    const report = new ValidationReport();
    const location = 'standard_charge_information[0].standard_charges[0]';
    const detail = '"billing_class": "facility" (in 23,864 standard charges)';
    report.add('json.unknown-field', location, detail);
    report.add(
      'json.unknown-field',
      'standard_charge_information[0].standard_charges[0].payers_information[0]',
      '"payer_id": 17 (in 3 payer entries)',
    );
    expect(report.lines({ plain: true }).slice(1)).toEqual([
      {
        sentence:
          'Warning: 2 field names are not CMS field names, and their values were ignored, first at item 1, standard charge 1',
        examples: [
          'item 1, standard charge 1: billing class, written in 23,864 standard charges (first “facility”)',
          'item 1, standard charge 1, payer rate 1: payer id, written in 3 payer rates (first 17)',
        ],
      },
    ]);
    // The command line keeps the field and its first value as the file wrote them.
    expect(report.lines()[1]).toEqual({
      sentence: `Warning: 2 fields are not CMS fields and were ignored (rule json.unknown-field), first at ${location}`,
      examples: [
        `${location}: ${detail}`,
        'standard_charge_information[0].standard_charges[0].payers_information[0]: "payer_id": 17 (in 3 payer entries)',
      ],
    });
  });

  it("words a rate or code written in its charge's or item's own fields without CMS's names, on the page", () => {
    const report = new ValidationReport();
    report.add(
      'json.rate-in-charge',
      'standard_charge_information[0].standard_charges[0]',
      'payer_name, Standard_Charge_Dollar',
    );
    report.add('json.code-in-item', 'standard_charge_information[1]', 'code, type');
    report.add(
      'json.payers-by-name',
      'standard_charge_information[2].standard_charges[0]',
      'an object with "Aetna"',
    );
    const page = JSON.stringify(report.lines({ plain: true }));
    for (const name of ['payers_information', 'code_information', 'payer_name', '_'])
      expect(page).not.toContain(name);
    expect(
      report
        .lines({ plain: true })
        .slice(1)
        .map((line) => line.examples),
    ).toEqual([
      ['item 1, standard charge 1: payer name, Standard Charge Dollar'],
      ['item 2: code, type'],
      ['item 3, standard charge 1: an object with "Aetna"'],
    ]);
    // The command line's report keeps CMS's names, for whoever mends the file.
    expect(JSON.stringify(report.lines())).toContain('payers_information');
  });

  it('words a list read under another name as the CMS list it stands for, on the page', () => {
    const report = new ValidationReport();
    report.add(
      'json.field-other-name',
      'standard_charge_information[0].standard_charges[0]',
      '"payers" for payers_information (in 3 standard charges)',
    );
    expect(report.lines({ plain: true }).slice(1)).toEqual([
      {
        sentence:
          'Warning: 1 list name was not the one CMS gives the list but could mean only it, and was read as that list, first at item 1, standard charge 1',
        examples: [
          'item 1, standard charge 1: “payers” for the list of payer rates, in 3 standard charges',
        ],
      },
    ]);
  });

  it('words a field found in one object alone, and a field written another way, on the page', () => {
    const report = new ValidationReport();
    report.add(
      'json.unknown-field',
      'standard_charge_information[4]',
      '"billing_class": "Facility"',
    );
    report.add(
      'json.field-spelling',
      'standard_charge_information[4].standard_charges[0]',
      '"Gross_Charge" for gross_charge (in 5 standard charges)',
    );
    report.add(
      'json.field-spelling',
      'file',
      '"standard_charges_information" for standard_charge_information',
    );
    expect(report.lines({ plain: true }).slice(1)).toEqual([
      {
        sentence:
          'Warning: 2 field names were written other ways (letter case, plural, spaces) and read as the CMS fields, first at item 5, standard charge 1',
        examples: [
          'item 5, standard charge 1: “Gross_Charge” for the gross charge, in 5 standard charges',
          'file: “standard_charges_information” for the list of items',
        ],
      },
      {
        sentence:
          'Warning: 1 field name is not a CMS field name, and its values were ignored, first at item 5',
        examples: ['item 5: billing class “Facility”'],
      },
    ]);
    expect(report.toText({ examples: true }).split('\n').slice(1)).toEqual([
      'Warning: 2 fields were written another way (letter case, plural, spaces) and read as the CMS fields (rule json.field-spelling)',
      '  standard_charge_information[4].standard_charges[0]: "Gross_Charge" for gross_charge (in 5 standard charges)',
      '  file: "standard_charges_information" for standard_charge_information',
      'Warning: 1 field is not a CMS field and was ignored (rule json.unknown-field)',
      '  standard_charge_information[4]: "billing_class": "Facility"',
    ]);
  });

  it('names | separators among stray spaces on the page only where an example shows one', () => {
    const csv = new ValidationReport();
    csv.add('whitespace.trimmed', 'row 2', 'type_2_npi "0000000001 | 0000000002 | 0000000003"');
    csv.add('whitespace.trimmed', 'row 7', 'additional_generic_notes " Paid at 140%."');
    expect(csv.lines({ plain: true })[1]).toEqual({
      sentence:
        'Warning: 2 values had stray spaces around them or their | separators (trimmed), first at row 2',
      examples: [
        'row 2: the type 2 NPIs “0000000001 | 0000000002 | 0000000003”',
        'row 7: the notes “ Paid at 140%.”',
      ],
    });
    const json = new ValidationReport();
    json.add('whitespace.trimmed', 'standard_charge_information[1230]', 'description "Major "');
    json.add('whitespace.trimmed', 'attestation', 'attester_name "Tim Reiner "');
    expect(json.lines({ plain: true })[1]?.sentence).toBe(
      'Warning: 2 values had stray spaces around them (trimmed), first at item 1,231',
    );
    // The command line names them whatever the file, as the rule does.
    expect(json.lines()[1]?.sentence).toBe(
      'Warning: 2 values had stray spaces around them or their | separators (trimmed) (rule whitespace.trimmed), first at standard_charge_information[1230]',
    );
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

describe('a report as a run stored it', () => {
  /** A report as the ingester stores it: its JSON, with the lines worded when it was read. */
  const stored = () => {
    const report = new ValidationReport();
    report.recordsRead = 8;
    report.payersRead = 30;
    report.rejectedPayers = 1;
    report.fatal = { code: 'truncated-json', message: 'The JSON file ends before it is complete.' };
    report.add('required.payer_name', 'standard_charge_information[3].standard_charges[0]');
    report.add(
      'json.field-spelling',
      'standard_charge_information[0]',
      '"Description" → "description"',
    );
    const json = JSON.parse(JSON.stringify(report)) as Record<string, unknown>;
    const withLines: Record<string, unknown> = {
      ...json,
      lines: [{ sentence: 'Older words', examples: [] }],
    };
    return { report, json: withLines };
  };
  const plain = { fatal: false, plain: true } as const;

  it("is worded again in today's words, as a report read today", () => {
    const { report, json } = stored();
    const summary = storedSummary(json);
    expect(summary).not.toBeNull();
    expect(summaryLines(summary ?? report.toJSON(), plain)).toEqual(report.lines(plain));
    expect(summaryLines(summary ?? report.toJSON(), plain)[1]).toEqual({
      sentence: 'Error: 1 rate had no payer name, first at item 4, standard charge 1',
      examples: ['item 4, standard charge 1'],
    });
  });

  it('counts no modifiers in a report stored before they were counted apart', () => {
    const { json } = stored();
    const { modifiersRead, modifiersRejected, ...older } = json;
    expect([modifiersRead, modifiersRejected]).toEqual([0, 0]);
    expect(storedSummary(older)).toMatchObject({ modifiersRead: 0, modifierEntriesRejected: 0 });
  });

  it('is not worded again when it cannot be told what it meant in today’s terms', () => {
    const { json } = stored();
    const rules = json.rules as Record<string, unknown>[];
    const [first, second] = rules;
    const withRule = (rule: Record<string, unknown>) => ({ ...json, rules: [rule, second] });
    // A rule since renamed or removed; one whose severity changed (the totals counted it so).
    expect(storedSummary(withRule({ ...first, rule: 'required.payer-gone' }))).toBeNull();
    expect(storedSummary(withRule({ ...first, severity: 'warning' }))).toBeNull();
    // An example worded otherwise then: its detail cannot be told from its sentence.
    const examples = [{ severity: 'error', rule: 'required.payer_name', location: 'row 4' }];
    const reworded = [{ ...examples[0], message: 'payer name missing' }];
    expect(storedSummary(withRule({ ...first, examples: reworded }))).toBeNull();
    expect(storedSummary(withRule({ ...first, examples }))).toBeNull();
    // Not a report at all, or its counts unreadable.
    for (const odd of [null, 'report', [], { lines: [] }, { ...json, recordsRead: -1 }]) {
      expect(storedSummary(odd)).toBeNull();
    }
    expect(storedSummary({ ...json, fatal: 'ended' })).toBeNull();
    expect(storedSummary(json)).not.toBeNull();
  });
});
