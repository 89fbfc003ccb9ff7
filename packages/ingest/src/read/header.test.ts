import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { CmsVersion } from '../model.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { ValidationReport } from '../validate/report.ts';
import { CMS_AFFIRMATION, CMS_ATTESTATION, checkStatement, readNpis } from './header.ts';

/** What checkStatement says of `written`: each rule and its first example's words. */
function said(written: string | null, version: CmsVersion = '3.0.0'): string[] {
  const report = new ValidationReport();
  checkStatement(written, version, report, 'attestation');
  return report.rules().map((r) => `${r.severity} ${r.rule}: ${r.examples[0]?.message ?? ''}`);
}

describe("a file's attestation statement", () => {
  for (const [version, file, definition, field] of [
    ['3.0.0', 'V3.0.0_Hospital_price_transparency_schema.json', 'attestation', 'attestation'],
    ['2.0.0', 'V2.0.0_Hospital_price_transparency_schema.json', 'affirmation', 'affirmation'],
    ['2.2.1', 'V2.2.1_Hospital_price_transparency_schema.json', 'affirmation', 'affirmation'],
  ] as const) {
    itWithDataFile(
      `is CMS's ${definition}, word for word, in the ${version} schema`,
      `cms-hpt-examples/${file}`,
      async (path) => {
        const schema = JSON.parse(await readFile(path, 'utf8')) as {
          definitions: Record<string, { properties: Record<string, { const: string }> }>;
        };
        const statement = schema.definitions[definition]?.properties[field]?.const;
        expect(statement).toBe(version === '3.0.0' ? CMS_ATTESTATION : CMS_AFFIRMATION);
        expect(said(statement ?? null, version)).toEqual([]);
      },
    );
  }

  it('is said to differ only in spacing when its words are the same', () => {
    const respaced = CMS_ATTESTATION.replace('45 CFR', '45  CFR')
      .replace('To the best', 'TO THE BEST')
      .replace(', and the information', ' , and the information');
    expect(said(respaced)).toEqual([
      'warning attestation.spacing: ' +
        "file's attestation statement differs from CMS's wording in letter case, quotes or spacing only",
    ]);
  });

  it('names where another statement parts from CMS’s words', () => {
    expect(said(CMS_ATTESTATION.replace('true, accurate', 'correct, accurate'))).toEqual([
      "error attestation.wording: file's attestation statement is not CMS's wording: " +
        'from word 32, "correct, accurate, and complete as of the date…" ' +
        'where CMS writes "true, accurate, and complete as of the date…"',
    ]);
    expect(said(CMS_ATTESTATION.slice(0, CMS_ATTESTATION.indexOf(' This hospital')))).toEqual([
      "error attestation.wording: file's attestation statement is not CMS's wording: " +
        'ends before CMS\'s "This hospital has included all payer-specific negotiated charges…"',
    ]);
    expect(said(null)).toEqual([
      "error attestation.wording: file's attestation statement is not CMS's wording: no statement written",
    ]);
  });

  it("is v2's affirmation before 3.0.0, so v3's attestation there is another statement", () => {
    expect(said(CMS_AFFIRMATION, '2.2.0')).toEqual([]);
    expect(said(CMS_ATTESTATION, '2.2.0')[0]).toMatch(
      /^error attestation\.wording: .*from word 9, "this hospital/,
    );
    expect(said(CMS_AFFIRMATION, '3.0.0')[0]).toMatch(/^error attestation\.wording/);
  });
});

describe('type 2 NPIs', () => {
  it.each([
    ['1234567893, 1245319599', ['1234567893', '1245319599']],
    ['1234567893;1245319599', ['1234567893', '1245319599']],
    ['1234567893 1245319599 1306938071', ['1234567893', '1245319599', '1306938071']],
  ])('reads %j, NPIs separated by another mark than |, as %j, and says so', (written, npis) => {
    const report = new ValidationReport();
    expect(readNpis(['1306938071', written], report, 'type_2_npi')).toEqual([
      '1306938071',
      ...npis,
    ]);
    expect(report.examples('npi.separator').map((e) => e.message)).toEqual([
      expect.stringContaining(JSON.stringify(written)),
    ]);
  });

  it.each([['1234567893, 12453'], ['1234567893,'], ['NPI 1234567893, 1245319599']])(
    'keeps %j, which is no list of NPIs, as written',
    (written) => {
      const report = new ValidationReport();
      expect(readNpis([written], report, 'type_2_npi')).toEqual([written]);
      expect(report.count('npi.separator')).toBe(0);
    },
  );
});
