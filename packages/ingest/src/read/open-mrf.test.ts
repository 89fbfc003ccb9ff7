import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChargeRecord } from '../model.ts';
import { centralDirectory } from './compression.ts';
import { MAX_RATES_PER_RECORD, RECENT_CHARGES } from './csv-reader.ts';
import { JsonMrfParser, MAX_VALUE_BYTES } from './json-reader.ts';
import { CMS_AFFIRMATION, CMS_ATTESTATION } from './header.ts';
import { ValidationReport } from '../validate/report.ts';
import { NO_PLAN_NAMED } from '../validate/record-rules.ts';
import {
  MrfReadError,
  openMrf,
  zipFiles,
  type MrfReadErrorCode,
  type ReadOptions,
} from './index.ts';
import { hashDownload, stillThere } from './source.ts';
import { serveFiles } from '../testing/file-server.ts';
import { itWithDataFile } from '../testing/it-with-data-file.ts';
import { v3JsonHeader } from '../testing/json-header.ts';
import { sharedDataFile } from '../testing/shared-data.ts';
import { zipArchive } from '../testing/zip-archive.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ratelens-read-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** One item with one code and one charge, no payer: for the tests of a file's top-level fields. */
const OFFICE_VISIT = {
  description: 'Office visit',
  code_information: [{ code: '99213', type: 'CPT' }],
  standard_charges: [{ setting: 'outpatient', gross_charge: 250 }],
};

/** Reads the file whole: its records, its header and its validation report. */
async function readWithReport(source: string, options?: { chunkSize?: number }) {
  const reader = await openMrf(source, options);
  const records: ChargeRecord[] = [];
  for await (const record of reader.records) records.push(record);
  return { records, header: reader.header, report: reader.report };
}

/** `content` written to a file of the test folder named `name`, read whole (see readWithReport). */
async function readText(name: string, content: string | Buffer) {
  return readWithReport(await file(name, content));
}

/**
 * A wide v3 file of one chest X-ray whose one payer's two columns (negotiated dollar 120, then
 * methodology "fee schedule") are named as given, read whole (see readWithReport).
 */
async function readWideXray(name: string, payerColumns: string) {
  return readText(
    name,
    `${V3_HEADER}description,code|1,code|1|type,setting,standard_charge|gross,${payerColumns},` +
      'standard_charge|min,standard_charge|max\n' +
      'X-ray chest,71046,CPT,outpatient,250,120,fee schedule,100,150\n',
  );
}

/** Writes `json` as a file and reads it whole (see readWithReport). */
async function readJson(name: string, json: object) {
  return readText(name, JSON.stringify(json));
}

async function readAll(source: string): Promise<ChargeRecord[]> {
  return (await readWithReport(source)).records;
}

/** Reads the file and returns the error code it ends with, and how many records came first. */
async function failure(
  source: string,
  options?: ReadOptions,
): Promise<{ code: MrfReadErrorCode; message: string; records: number }> {
  let records = 0;
  try {
    const reader = await openMrf(source, options);
    for await (const record of reader.records) records += record ? 1 : 0;
  } catch (error) {
    if (error instanceof MrfReadError) return { code: error.code, message: error.message, records };
    throw error;
  }
  throw new Error('expected the read to fail');
}

/** How many of this process's open file descriptors point at the file (Linux /proc). */
async function openHandles(path: string): Promise<number> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((target) => target === path).length;
}

const V3_HEADER =
  'hospital_name,last_updated_on,version,location_name,hospital_address,license_number|MA,type_2_npi,' +
  `"${CMS_ATTESTATION}",attester_name\n` +
  'Test Hospital,2026-01-15,3.0.0,Test Hospital,1 Main St,1234,1234567893,true,A Person\n';
const TALL_COLUMNS =
  'description,code|1,code|1|type,modifiers,setting,drug_unit_of_measurement,drug_type_of_measurement,' +
  'standard_charge|gross,standard_charge|discounted_cash,payer_name,plan_name,standard_charge|negotiated_dollar,' +
  'standard_charge|negotiated_percentage,standard_charge|negotiated_algorithm,median_amount,10th_percentile,' +
  '90th_percentile,count,standard_charge|min,standard_charge|max,standard_charge|methodology,additional_generic_notes\n';
const TALL_ROW =
  'X-ray chest,71046,CPT,,outpatient,,,250,200,Aetna,PPO,120,,,,,,,100,150,fee schedule,\n';
/**
 * `n` rows of the chest X-ray, each a rate of another of Aetna's plans: a row written again is
 * no second rate (`csv.duplicate-rate`).
 */
const tallRows = (n: number) =>
  Array.from({ length: n }, (_, i) => TALL_ROW.replace('PPO', `PPO ${i + 1}`)).join('');
/** A 2.1.0 tall CSV's header rows and columns: an estimated amount for 3.0.0's allowed amounts. */
const V21_HEADER =
  'hospital_name,last_updated_on,version,hospital_location,hospital_address,license_number|MA,' +
  `"${CMS_AFFIRMATION}"\n` +
  'Test Hospital,2026-01-15,2.1.0,Test Hospital,1 Main St,1234,true\n';
const V21_TALL_COLUMNS = TALL_COLUMNS.replace(
  'median_amount,10th_percentile,90th_percentile,count',
  'estimated_amount',
);

describe('file-level errors', () => {
  it('refuses a 0-byte file', async () => {
    const result = await failure(await file('empty.json', ''));
    expect(result).toMatchObject({ code: 'empty-file', records: 0 });
    expect(result.message).toContain('empty');
  });

  it('refuses a JSON file cut short inside its first item', async () => {
    const full =
      '{"hospital_name":"H","version":"3.0.0","standard_charge_information":[{"description":"A","code_information":[{"code":"1","type":"CPT"}],"standard_charges":[{"setting":"both","gross_charge":5}]}]}';
    const result = await failure(await file('cut.json', full.slice(0, 120)));
    expect(result).toMatchObject({ code: 'truncated-json', records: 0 });
    expect(result.message).toContain('cut short');
  });

  it('refuses binary garbage', async () => {
    const garbage = Buffer.alloc(5000);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919) % 256;
    expect(await failure(await file('garbage.bin', garbage))).toMatchObject({
      code: 'not-a-mrf',
      records: 0,
    });
  });

  it('tells binary and UTF-16 content alike however small the chunks a file arrives in', async () => {
    // A zero byte 200 bytes in: binary, though the first few bytes look like JSON.
    const zero = Buffer.from(`{"hospital_name":"${'H'.repeat(300)}"}`);
    zero[200] = 0;
    const binary = await file('zero.json', zero);
    // UTF-16 without a byte-order mark, told only by the zero beside each character.
    const text = V3_HEADER + TALL_COLUMNS + TALL_ROW;
    const utf16 = await file('utf16.csv', Buffer.from(text, 'utf16le'));
    const expected = await readText('utf8.csv', text);
    for (const chunkSize of [1, 7, 64 * 1024]) {
      expect(await failure(binary, { chunkSize }), `${chunkSize}`).toMatchObject({
        code: 'not-a-mrf',
        message:
          'The file is binary, not text: it is neither a JSON nor a CSV hospital price file.',
      });
      const read = await readWithReport(utf16, { chunkSize });
      expect(read.records, `${chunkSize}`).toEqual(expected.records);
      expect(read.report.toJSON().rules.map((r) => r.rule)).toContain('encoding.utf-16');
    }
  });

  it('names a web page, an XML document and a PDF for what they are', async () => {
    const page = await failure(
      await file(
        'prices.json',
        '\ufeff\n  <!DOCTYPE html>\n<html><body><a href="x.json">Download</a></body></html>',
      ),
    );
    expect(page).toMatchObject({
      code: 'not-a-mrf',
      records: 0,
      message:
        'The file is a web page (HTML), not a CMS hospital price file: the address may lead to a page about the file rather than to the file itself.',
    });
    const xml = await failure(await file('prices.xml', '<?xml version="1.0"?><charges/>'));
    expect(xml.message).toBe('The file is XML, not a CMS hospital price file (JSON or CSV).');
    const pdf = await failure(await file('prices.csv', '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n'));
    expect(pdf.message).toBe('The file is a PDF, not a CMS hospital price file (JSON or CSV).');
  });

  itWithDataFile(
    'names an Excel workbook once, whatever it is called, not as a zip of XML files',
    'census-cbsa/list1_2023.xlsx',
    async (workbook) => {
      const message =
        'The file is an Excel workbook (xlsx), not a CMS hospital price file (JSON or CSV): ' +
        'save its sheet as a CSV file (comma-separated) and load that. (A reference workbook, ' +
        'such as the CBSA delineation, loads with npm run reference.)';
      // Read as one file (its first entry is [Content_Types].xml), or listed as an archive.
      const named = await file('prices.csv', await readFile(workbook));
      expect(await failure(named)).toMatchObject({ code: 'not-a-mrf', records: 0, message });
      await expect(zipFiles(named)).rejects.toMatchObject({ code: 'not-a-mrf', message });
    },
  );

  it('refuses a CSV that starts with the column names (no header rows)', async () => {
    const result = await failure(await file('no-header.csv', TALL_COLUMNS + TALL_ROW));
    expect(result).toMatchObject({ code: 'missing-header-rows', records: 0 });
    expect(result.message).toContain('header rows');
  });

  it('refuses a CSV separated with semicolons', async () => {
    const semicolons = (V3_HEADER + TALL_COLUMNS + TALL_ROW).replaceAll(',', ';');
    const result = await failure(await file('semicolons.csv', semicolons));
    expect(result).toMatchObject({ code: 'wrong-delimiter', records: 0 });
    expect(result.message).toContain('semicolons');
  });

  it('refuses a CSV separated with tabs or pipes', async () => {
    const tabs = (V3_HEADER + TALL_COLUMNS + TALL_ROW).replaceAll(',', '\t');
    expect(await failure(await file('tabs.csv', tabs))).toMatchObject({ code: 'wrong-delimiter' });
    // Pipes, which CMS uses inside a column's name, between the header names.
    const pipes = (V3_HEADER + TALL_COLUMNS + TALL_ROW).replaceAll(',', '|');
    const piped = await failure(await file('pipes.txt', pipes));
    expect(piped).toMatchObject({ code: 'wrong-delimiter', records: 0 });
    expect(piped.message).toBe(
      'The CSV separates its values with pipes (|); CMS CSV files use commas.',
    );
  });

  it('refuses a CSV with the same column twice', async () => {
    const columns = TALL_COLUMNS.replace('plan_name', 'payer_name');
    const result = await failure(await file('duplicate.csv', V3_HEADER + columns + TALL_ROW));
    expect(result).toMatchObject({ code: 'duplicate-columns', records: 0 });
    expect(result.message).toContain('"payer_name" appears twice');
  });

  it('refuses a wide CSV whose payer column lacks the plan', async () => {
    const columns =
      'description,code|1,code|1|type,setting,standard_charge|gross,standard_charge|Payer Only|negotiated_dollar\n';
    const result = await failure(
      await file('wide.csv', V3_HEADER + columns + 'A,1,CPT,both,5,4\n'),
    );
    expect(result).toMatchObject({ code: 'malformed-payer-column', records: 0 });
    expect(result.message).toContain('standard_charge|Payer Only|negotiated_dollar');
  });

  it('reads past columns named as properties every JavaScript object has', async () => {
    const columns = [
      'constructor',
      '__proto__',
      'standard_charge|constructor',
      'constructor|Aetna|PPO',
    ];
    const { records, report } = await readText(
      'own-properties.csv',
      `${V3_HEADER}description,code|1,code|1|type,setting,standard_charge|gross,${columns.join(',')}\n` +
        'X-ray chest,71046,CPT,outpatient,250,1,2,3,4\n',
    );
    expect(records).toEqual([expect.objectContaining({ description: 'X-ray chest', payers: [] })]);
    expect(report.examples('column.unknown').map((e) => e.location)).toEqual([
      'column 6',
      'column 7',
      'column 8',
      'column 9',
    ]);
    // A payer column whose field is so named is malformed, and said so (not a TypeError).
    const field = await failure(
      await file(
        'own-property-field.csv',
        `${V3_HEADER}description,code|1,code|1|type,setting,standard_charge|Aetna|PPO|constructor\n` +
          'X-ray chest,71046,CPT,outpatient,1\n',
      ),
    );
    expect(field).toMatchObject({ code: 'malformed-payer-column', records: 0 });
  });

  it('refuses an unknown version, in CSV and in JSON', async () => {
    const csv = await failure(
      await file('v9.csv', V3_HEADER.replace('3.0.0', '9.1') + TALL_COLUMNS + TALL_ROW),
    );
    expect(csv).toMatchObject({ code: 'unknown-version', records: 0 });
    expect(csv.message).toContain('"9.1"');
    const json = await failure(
      await file(
        'v1.json',
        '{"hospital_name":"H","version":"1.0","standard_charge_information":[]}',
      ),
    );
    expect(json.code).toBe('unknown-version');
  });

  it('reads a version written in words, and modifiers and amounts as spreadsheets write them', async () => {
    const { header, records, report } = await readText(
      'version-in-words.csv',
      V3_HEADER.replace(',3.0.0,', ',Version 3.0.0,') +
        TALL_COLUMNS +
        'X-ray chest,71046,CPT,"26, TC",outpatient,,,1.25E+03,$ -,Aetna,PPO,120,,,,,,,100,150,fee schedule,\n',
    );
    expect(header.version).toBe('3.0.0');
    expect(report.examples('version.declared-differs')[0]?.message).toContain('Version 3.0.0');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      modifiers: ['26', 'TC'],
      gross: 1250,
      discountedCash: null,
    });
    expect(report.count('modifier.separator')).toBe(1);
    expect(report.count('number.scientific')).toBe(1);
    expect(report.count('number.zero')).toBe(1);
    const json = await readJson('version-in-words.json', {
      hospital_name: 'H',
      version: 'CMS Template v2.2.0',
      last_updated_on: '2026-01-15',
      standard_charge_information: [],
    });
    expect(json.header.version).toBe('2.2.0');
  });

  it('says which file is missing', async () => {
    const result = await failure(join(dir, 'nope.json'));
    expect(result.code).toBe('source-not-found');
    expect(result.message).toContain('nope.json');
  });

  it('says a folder is a folder, and names files of it to give instead', async () => {
    const folder = join(dir, 'hospital-files');
    await mkdir(folder);
    expect(await failure(folder)).toMatchObject({
      code: 'source-not-found',
      message: `${folder} is a folder, and holds no JSON, CSV, gzip or zip file to read.`,
    });
    for (const name of ['b.csv', 'notes.docx', 'a.json', 'c.json.gz'])
      await writeFile(join(folder, name), '{}');
    expect(await failure(`${folder}/`)).toMatchObject({
      code: 'source-not-found',
      message:
        `${folder}/ is a folder: name its files instead, for example ${folder}/a.json ` +
        `${folder}/b.csv (3 such files in all).`,
    });
  });

  it('says why a download from a port that fetch refuses did not start', async () => {
    const result = await failure('http://127.0.0.1:9/prices.json');
    expect(result.message).toBe(
      'Could not download http://127.0.0.1:9/prices.json: fetch refuses that port, one browsers ' +
        'block as kept for another protocol.',
    );
  });

  it('names an address of a kind it does not read, rather than calling it a missing file', async () => {
    const result = await failure('ftp://example.com/prices.json');
    expect(result).toMatchObject({
      code: 'source-not-found',
      message:
        'The address ftp://example.com/prices.json cannot be read: files come from a local path or an http(s) URL.',
    });
  });
});

describe('records and rules', () => {
  it('rejects a CSV row that runs on for 16 MB without a line end, and reads the rows after it', async () => {
    const runOn = `CT head${'x'.repeat(17 << 20)},70450,CPT,,outpatient,,,900,700,Aetna,PPO,500,,,,,,,,,fee schedule,\n`;
    const after = TALL_ROW.replace('X-ray chest,71046', 'MRI knee,73721');
    const { records, report } = await readText(
      'run-on.csv',
      V3_HEADER + TALL_COLUMNS + TALL_ROW + runOn + after,
    );
    expect(records.map((r) => r.codes[0]?.code)).toEqual(['71046', '73721']);
    expect(report.count('csv.row-too-long')).toBe(1);
    expect(report.examples('csv.row-too-long')).toEqual([
      expect.objectContaining({ severity: 'error', location: 'row 5' }),
    ]);
    expect(report.rejectedRecords).toBe(1);
    // 17 MB to build and read: 1–2 s alone, past the 5 s default on a busy machine.
  }, 30_000);

  it('groups consecutive tall rows of one charge and keeps bad rates out', async () => {
    const rows =
      TALL_ROW +
      TALL_ROW.replace('Aetna', ' Cigna  Health ') +
      TALL_ROW.replace('Aetna,PPO', ',PPO') + // no payer name: rejected
      TALL_ROW.replace('X-ray chest', 'X-ray ribs');
    const reader = await openMrf(await file('group.csv', V3_HEADER + TALL_COLUMNS + rows));
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(records.map((r) => [r.location, r.payers.map((p) => p.payerName)])).toEqual([
      ['row 4', ['Aetna', 'Cigna Health']],
      ['row 7', ['Aetna']],
    ]);
    expect(reader.report.count('required.payer_name')).toBe(1);
    expect(reader.report.examples('required.payer_name')[0]?.location).toBe('row 6');
    expect(reader.report.count('whitespace.trimmed')).toBe(1);
    expect(reader.report.rejectedPayers).toBe(1);
    expect(reader.report.toText()).toContain(
      'Error: 1 rate had no payer name (rule required.payer_name), first at row 6',
    );
  });

  it('keeps a rate that names its payer but no plan, under the plan "(no plan named)", and says so', async () => {
    const csv = await readText(
      'no-plan.csv',
      V3_HEADER + TALL_COLUMNS + TALL_ROW + TALL_ROW.replace('Aetna,PPO', 'Cigna,'),
    );
    expect(csv.records[0]?.payers.map((p) => [p.payerName, p.planName, p.dollar])).toEqual([
      ['Aetna', 'PPO', 120],
      ['Cigna', NO_PLAN_NAMED, 120],
    ]);
    expect(csv.report.rejectedPayers).toBe(0);
    expect(csv.report.examples('required.plan_name')).toEqual([
      expect.objectContaining({ severity: 'error', location: 'row 5' }),
    ]);
    expect(csv.report.toText()).toContain(
      'Error: 1 rate had no plan name (read under the plan "(no plan named)"), kept all the same',
    );
    // In JSON, a rate's plan_name left out or empty, and a modifier's payer entry without one.
    const rate = (plan: object) => ({
      payer_name: 'Aetna',
      ...plan,
      standard_charge_dollar: 5,
      methodology: 'fee schedule',
    });
    const json = await readJson('no-plan.json', {
      version: '3.0.0',
      standard_charge_information: [
        {
          description: 'A',
          code_information: [{ code: '99213', type: 'CPT' }],
          standard_charges: [
            {
              setting: 'both',
              minimum: 5,
              maximum: 5,
              payers_information: [rate({}), rate({ plan_name: ' ' }), rate({ plan_name: 'HMO' })],
            },
          ],
        },
      ],
      modifier_information: [
        {
          description: 'Bilateral',
          code: '50',
          modifier_payer_information: [{ payer_name: 'Aetna', description: '150%' }],
        },
      ],
    });
    expect(json.records.map((r) => r.payers.map((p) => p.planName))).toEqual([
      [NO_PLAN_NAMED, NO_PLAN_NAMED, 'HMO'],
      [NO_PLAN_NAMED],
    ]);
    expect(json.report.count('required.plan_name')).toBe(3);
    expect(json.report).toMatchObject({ rejectedPayers: 0, rejectedModifierEntries: 0 });
  });

  it('keeps consecutive tall rows of one charge together when they write its values two ways', async () => {
    const rows =
      TALL_ROW +
      TALL_ROW.replace('outpatient,,,250,200,Aetna', 'OP,,,2.5E+02,200.00,Cigna') +
      TALL_ROW.replace('X-ray chest,71046', ' X-ray chest ,71046').replace('Aetna', 'Humana') +
      TALL_ROW.replace('250,200,Aetna', '251,200,Aetna');
    const { records, report } = await readText('spelled.csv', V3_HEADER + TALL_COLUMNS + rows);
    expect(records.map((r) => [r.location, r.gross, r.payers.map((p) => p.payerName)])).toEqual([
      ['row 4', 250, ['Aetna', 'Cigna', 'Humana']],
      ['row 7', 251, ['Aetna']],
    ]);
    expect(report.count('enum.spelling')).toBe(1);
    expect(report.errorCount).toBe(0);
  });

  it('reads other spellings of dates, percentages, settings, methodologies and code types', async () => {
    const csv =
      V3_HEADER.replace('2026-01-15', '15-Jan-2026') +
      TALL_COLUMNS +
      'Office visit,99213,CPT4,,OP,,,250,200,Aetna,PPO,,80%,,150,100,200,25,,,Percent-of-total-billed-charges,\n';
    const json = JSON.stringify({
      hospital_name: 'Test Hospital',
      last_updated_on: '2026/01/15',
      version: '3.0.0',
      standard_charge_information: [
        {
          description: 'Office visit',
          code_information: [{ code: '99213', type: 'cpt-4' }],
          standard_charges: [
            {
              setting: 'IP',
              gross_charge: 250,
              payers_information: [
                {
                  payer_name: 'Aetna',
                  plan_name: 'PPO',
                  standard_charge_percentage: '80 %',
                  median_amount: 150,
                  '10th_percentile': 100,
                  '90th_percentile': 200,
                  count: '25',
                  methodology: 'percent_of_total_billed_charges',
                },
              ],
            },
          ],
        },
      ],
    });
    for (const [name, content, setting] of [
      ['spellings.csv', csv, 'outpatient'],
      ['spellings.json', json, 'inpatient'],
    ] as const) {
      const { records, header, report } = await readText(name, content);
      expect(header.lastUpdatedOn).toBe('2026-01-15');
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ codes: [{ code: '99213', type: 'CPT' }], setting });
      expect(records[0]?.payers[0]).toMatchObject({
        percentage: 80,
        methodology: 'percent of total billed charges',
      });
      expect(report.count('date.other-form')).toBe(1);
      expect(report.count('number.percent-sign')).toBe(1);
      expect(report.count('enum.spelling')).toBe(3);
      expect(report.rejectedPayers).toBe(0);
    }
  });

  it('gives codes that lost their leading zeros them back, and upper-cases HCPCS codes', async () => {
    const rows =
      TALL_ROW.replace('X-ray chest,71046,CPT', 'Anesthesia lens surgery,170,CPT') +
      TALL_ROW.replace('X-ray chest,71046,CPT', 'Emergency room,450,RC') +
      TALL_ROW.replace('X-ray chest,71046,CPT', 'Ondansetron inj,j2405,HCPCS');
    const { records, report } = await readText('codes.csv', V3_HEADER + TALL_COLUMNS + rows);
    expect(records.map((r) => r.codes)).toEqual([
      [{ code: '00170', type: 'CPT' }],
      [{ code: '0450', type: 'RC' }],
      [{ code: 'J2405', type: 'HCPCS' }],
    ]);
    expect(report.count('code.leading-zeros')).toBe(2);
    expect(report.examples('code.leading-zeros')[0]).toMatchObject({
      location: 'row 4',
      message: expect.stringMatching(/: CPT 170$/) as unknown,
    });
    expect(report.count('code.lower-case')).toBe(1);
    expect(report.errorCount).toBe(0);
  });

  it('reads the NaN and Infinity of Python-written JSON as no value, and trailing commas', async () => {
    const json = `{"hospital_name": "Test Hospital", "last_updated_on": "2026-01-15", "version": "3.0.0",
      "standard_charge_information": [{
        "description": "Office visit",
        "code_information": [{"code": "99213", "type": "CPT"},],
        "standard_charges": [{
          "setting": "outpatient", "gross_charge": Infinity, "discounted_cash": NaN,
          "minimum": 100, "maximum": 300,
          "payers_information": [{"payer_name": "Aetna", "plan_name": "PPO", "standard_charge_dollar": 120,
                                  "methodology": "fee schedule",}]
        }]
      }]}`;
    const { records, report } = await readText('python.json', json);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ gross: null, discountedCash: null, min: 100, max: 300 });
    expect(records[0]?.payers[0]).toMatchObject({ payerName: 'Aetna', dollar: 120 });
    expect(report.count('json.non-finite')).toBe(2);
    expect(report.count('json.trailing-comma')).toBe(2);
    expect(report.count('json.invalid-item')).toBe(0);
    expect(report.rejectedRecords).toBe(0);
  });

  it('reads past commas missing, extra or trailing between top-level fields and items', async () => {
    const item = (code: string) =>
      JSON.stringify({
        description: `Visit ${code}`,
        code_information: [{ code, type: 'CPT' }],
        standard_charges: [{ setting: 'outpatient', gross_charge: 200 }],
      });
    const json =
      '{"hospital_name": "Test Hospital",, "last_updated_on": "2026-01-15" "version": "3.0.0",\n' +
      `"standard_charge_information": [${item('99211')},,${item('99212')}${item('99213')},],}`;
    const { records, report } = await readText('commas.json', json);
    expect(records.map((r) => r.codes[0]?.code)).toEqual(['99211', '99212', '99213']);
    // The same, read three bytes at a time.
    const small = await readWithReport(await file('commas.json', json), { chunkSize: 3 });
    expect(small.report.toJSON()).toEqual(report.toJSON());
    expect(report.examples('json.comma').map((e) => e.message.split(': ')[1])).toEqual([
      'extra comma',
      'missing comma',
      'extra comma',
      'missing comma',
    ]);
    expect(report.examples('json.comma').map((e) => e.location)).toEqual([
      'file',
      'version',
      'standard_charge_information[1]',
      'standard_charge_information[2]',
    ]);
    expect(report.examples('json.trailing-comma').map((e) => e.location)).toEqual([
      'standard_charge_information',
      'file',
    ]);
    // A file written as the schemas ask has none of them.
    const clean = await readText(
      'clean.json',
      '{"hospital_name": "Test Hospital", "last_updated_on": "2026-01-15", "version": "3.0.0", ' +
        `"standard_charge_information": [${item('99211')}, ${item('99212')}]}`,
    );
    expect([clean.report.count('json.comma'), clean.report.count('json.trailing-comma')]).toEqual([
      0, 0,
    ]);
  });

  it('reads an item with a comma missing or doubled inside it, where it once rejected it', async () => {
    const json =
      '{"hospital_name": "Test Hospital", "last_updated_on": "2026-01-15", "version": "3.0.0", ' +
      '"standard_charge_information": [{"description": "Visit" "code_information": ' +
      '[{"code": "99213", "type": "CPT"}], "standard_charges": [{"setting": "outpatient",, ' +
      '"gross_charge": 200}]}, {"description": "Broken", "code_information": [{"code" "99214"}]}]}';
    const { records, report } = await readText('inner-commas.json', json);
    expect(records.map((r) => [r.description, r.codes[0]?.code, r.gross])).toEqual([
      ['Visit', '99213', 200],
    ]);
    expect(
      report.examples('json.comma').map((e) => [e.location, e.message.split(': ')[1]]),
    ).toEqual([
      ['standard_charge_information[0]', 'missing comma after "description"'],
      ['standard_charge_information[0]', 'extra comma after "setting"'],
    ]);
    // A key without its colon is not a comma's doing: the item is still refused, and said so.
    expect(report.count('json.invalid-item')).toBe(1);
    expect(report.examples('json.invalid-item')[0]?.location).toBe(
      'standard_charge_information[1]',
    );
  });

  it("names in a repair's example the key it was in and what was written there", async () => {
    const json =
      '{"hospital_name": "Test Hospital", "last_updated_on": "2026-01-15", "version": "3.0.0", ' +
      '"standard_charge_information": [{"description": "Office visit", "code_information": ' +
      '[{"code": "99213", "type": "CPT"}], "standard_charges": [{"setting": "outpatient", ' +
      '"gross_charge": 250, "payers_information": [{"payer_name": "Aetna" "plan_name": "PPO", ' +
      '"standard_charge_dollar": None, "standard_charge_percentage": 80, ' +
      '"methodology": "percent of total billed charges"}]}]}]}';
    const { records, report } = await readText('repairs-named.json', json);
    expect(records[0]?.payers[0]).toMatchObject({ payerName: 'Aetna', dollar: null });
    expect(report.examples('json.non-finite')).toMatchObject([
      {
        location: 'standard_charge_information[0]',
        message: expect.stringMatching(/: standard_charge_dollar: "None"$/) as unknown,
      },
    ]);
    expect(report.examples('json.comma').map((e) => e.message.split(': ')[1])).toEqual([
      'missing comma after "payer_name"',
    ]);
  });

  describe('an item whose braces and brackets do not pair up', () => {
    /** Four items, 99211 to 99214, each with two payers (dollar 100 + the last digit, and 200 + it). */
    function visits(): object[] {
      return [1, 2, 3, 4].map((k) => ({
        description: `Visit ${k}`,
        code_information: [{ code: `9921${k}`, type: 'CPT' }],
        standard_charges: [
          {
            setting: 'outpatient',
            gross_charge: 300,
            minimum: 100 + k,
            maximum: 200 + k,
            payers_information: [
              {
                payer_name: 'Aetna',
                plan_name: 'PPO',
                standard_charge_dollar: 100 + k,
                methodology: 'fee schedule',
              },
              {
                payer_name: 'Cigna',
                plan_name: 'HMO',
                standard_charge_dollar: 200 + k,
                methodology: 'fee schedule',
              },
            ],
          },
        ],
      }));
    }
    const HEADER_FIELDS = {
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
    };
    /** The n-th (1-based) occurrence of `token` in `text` from `from` on. */
    function nth(text: string, token: string, from: number, n: number): number {
      let at = from - 1;
      for (let k = 0; k < n; k++) at = text.indexOf(token, at + 1);
      return at;
    }
    const cut = (text: string, at: number) => text.slice(0, at) + text.slice(at + 1);
    const add = (text: string, at: number, what: string) =>
      text.slice(0, at) + what + text.slice(at);
    /** Damage done to the second item (the third, for `last`: the file's last item). */
    const DAMAGE: [string, (text: string, item: number) => string, 'missing' | 'too many'][] = [
      [
        'its own closing brace deleted',
        // After the item's codes, payers and charges lists: its last field is its charges.
        (t, i) => cut(t, t.indexOf('}', nth(t, ']', i, 3))),
        'missing',
      ],
      ['a payer’s closing brace deleted', (t, i) => cut(t, nth(t, '}', i, 1)), 'missing'],
      ['the payers’ closing bracket deleted', (t, i) => cut(t, nth(t, ']', i, 2)), 'missing'],
      ['a code’s closing brace deleted', (t, i) => cut(t, nth(t, '}', i, 1)), 'missing'],
      ['a payer’s opening brace deleted', (t, i) => cut(t, nth(t, '{', i, 3)), 'too many'],
      [
        'the payers’ opening bracket deleted',
        (t, i) => cut(t, t.indexOf('[', t.indexOf('payers_information', i))),
        'too many',
      ],
      ['a closing brace doubled', (t, i) => add(t, nth(t, '}', i, 2), '}'), 'too many'],
      ['a closing bracket doubled', (t, i) => add(t, nth(t, ']', i, 1), ']'), 'too many'],
    ];

    /**
     * Reads the damaged file in chunks of 1 byte, 7 bytes and 64 KB (whichever boundary the damage or
     * the next item's first field falls on): the visits `read` come out whole, the one at
     * `rejected` is rejected for a closing brace or bracket `kind`, and the header is read.
     */
    async function expectOneRejected(
      damaged: string,
      read: number[],
      rejected: number,
      kind: 'missing' | 'too many',
    ) {
      expect(() => JSON.parse(damaged) as unknown).toThrow();
      const path = await file('unbalanced.json', damaged);
      for (const chunkSize of [1, 7, 64 * 1024]) {
        const { records, header, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => [r.description, r.payers.map((p) => p.dollar)])).toEqual(
          read.map((k) => [`Visit ${k}`, [100 + k, 200 + k]]),
        );
        expect(header?.hospitalName).toBe('Test Hospital');
        expect(report.examples('json.unbalanced-item')).toEqual([
          expect.objectContaining({
            location: `standard_charge_information[${rejected}]`,
            message: expect.stringContaining(`a closing brace or bracket ${kind}`) as string,
          }),
        ]);
        expect(report.rejectedRecords).toBe(1);
        expect(report.count('json.invalid-item')).toBe(0);
      }
    }

    for (const layout of ['indented', 'on one line', 'items first'] as const) {
      const fields =
        layout === 'items first'
          ? { standard_charge_information: visits(), ...HEADER_FIELDS }
          : { ...HEADER_FIELDS, standard_charge_information: visits() };
      const text = JSON.stringify(fields, null, layout === 'on one line' ? undefined : 2);
      for (const [damage, edit, kind] of DAMAGE) {
        it(`${layout}, ${damage}: rejects that item and reads the others`, async () => {
          await expectOneRejected(edit(text, text.indexOf('Visit 2')), [1, 3, 4], 1, kind);
        });
      }
    }

    for (const layout of ['items last', 'items first'] as const) {
      const items = visits().slice(0, 3);
      const fields =
        layout === 'items first'
          ? { standard_charge_information: items, ...HEADER_FIELDS }
          : { ...HEADER_FIELDS, standard_charge_information: items };
      const text = JSON.stringify(fields, null, 2);
      for (const [damage, edit, kind] of DAMAGE) {
        it(`the last item, ${layout}, ${damage}: rejects it and reads the list's end`, async () => {
          await expectOneRejected(edit(text, text.indexOf('Visit 3')), [1, 2], 2, kind);
        });
      }
    }

    it('reads past the rest of an item that a stray brace closed early, saying so', async () => {
      const text = JSON.stringify({ ...HEADER_FIELDS, standard_charge_information: visits() });
      // Visit 2 ends after its codes; its charges are left standing between the items.
      const damaged = add(text, text.indexOf(']', text.indexOf('Visit 2')) + 1, '}');
      const path = await file('stray-brace.json', damaged);
      for (const chunkSize of [1, 7, 64 * 1024]) {
        const { records, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => r.description)).toEqual(['Visit 1', 'Visit 3', 'Visit 4']);
        // The charges' key is Visit 2's tail, not an item: the items after it keep their numbers.
        expect(report.examples('json.stray-text')).toEqual([
          expect.objectContaining({ location: 'standard_charge_information[1]' }),
        ]);
        expect(report.count('json.wrong-type')).toBe(0);
        expect(report.rejectedRecords).toBe(1);
      }
      const later = await readText(
        'stray-brace-then-code-type.json',
        damaged.replace('"code":"99213","type":"CPT"', '"code":"99213","type":"NOPE"'),
      );
      expect(later.report.examples('enum.code-type')).toEqual([
        expect.objectContaining({ location: 'standard_charge_information[2]' }),
      ]);
    });

    it('reads past the tail of an item to the next item, whichever chunk its comma came in', async () => {
      const text = JSON.stringify(
        { ...HEADER_FIELDS, standard_charge_information: visits() },
        null,
        2,
      );
      // Visit 2 is closed after its codes by a stray brace, and its own brace is gone: its
      // charges are left standing, with no brace to end them, before Visit 3.
      const codesEnd = text.indexOf(']', text.indexOf('Visit 2')) + 1;
      const ownBrace = text.lastIndexOf('}', text.indexOf('Visit 3'));
      const damaged = add(cut(text, ownBrace), codesEnd, '}');
      const path = await file('tail-to-next.json', damaged);
      for (const chunkSize of [1, 7, 64 * 1024]) {
        const { records, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => r.description)).toEqual(['Visit 1', 'Visit 3', 'Visit 4']);
        expect(report.count('json.stray-text')).toBe(1);
        // The comma before Visit 3 was read in the tail, whatever chunk it came in.
        expect(report.count('json.comma')).toBe(0);
      }
    });

    it('reads on past a bracket that ends no list, once the list is broken', async () => {
      const items = visits() as { code_information: object[] }[];
      items[1]?.code_information.push({ code: 'G0002', type: 'HCPCS' });
      const text = JSON.stringify(
        { ...HEADER_FIELDS, standard_charge_information: items },
        null,
        2,
      );
      // Visit 2 loses its codes' opening bracket and its second code's opening brace: its braces
      // still pair up, so it ends after that code's fields, and its codes' closing bracket then
      // stands where the list of items could end.
      const codes = text.indexOf('[', text.indexOf('code_information', text.indexOf('Visit 2')));
      const damaged = cut(cut(text, text.indexOf('{', text.indexOf('99212'))), codes);
      const { records, header, report } = await readText('bracket-in-list.json', damaged);
      expect(records.map((r) => r.description)).toEqual(['Visit 1', 'Visit 3', 'Visit 4']);
      expect(header?.hospitalName).toBe('Test Hospital');
      expect(report.examples('json.stray-text')).toEqual([
        expect.objectContaining({ location: 'standard_charge_information[1]' }),
      ]);
      expect(report.count('json.after-end')).toBe(0);
    });

    it('keeps the items before a last item that took the list’s and the file’s end for its own', async () => {
      // Who the hospital is comes before the list: nothing of it can have been taken.
      const header = {
        ...HEADER_FIELDS,
        license_information: { license_number: '1', state: 'FL' },
      };
      const text = JSON.stringify({ ...header, standard_charge_information: visits() });
      // The last item loses its charge's and its own closing braces: it takes the list's
      // bracket and the file's brace for its own, and the list never ends. A bracket closed one
      // of its braces, which no file cut short has, so the items before it are read.
      const last = text.lastIndexOf('}]}]');
      const path = await file('two-missing.json', `${cut(cut(text, last + 2), last)}\n\n`);
      for (const chunkSize of [1, 7, 64 * 1024]) {
        const { records, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => r.description)).toEqual(['Visit 1', 'Visit 2', 'Visit 3']);
        for (const rule of ['json.unbalanced-item', 'json.last-item-took-end'] as const) {
          expect(report.examples(rule), rule).toEqual([
            expect.objectContaining({ location: 'standard_charge_information[3]' }),
          ]);
        }
        expect(report.rejectedRecords).toBe(1);
      }
      // With the file's fields after the list, the item took them too: the file is refused.
      const itemsFirst = JSON.stringify({ standard_charge_information: visits(), ...header });
      const end = itemsFirst.lastIndexOf('}]}]');
      const taken = await failure(
        await file('two-missing-items-first.json', cut(cut(itemsFirst, end + 2), end)),
      );
      expect(taken.code).toBe('invalid-json');
      expect(taken.message).toContain('do not pair up from item 4 of');
      // So is a file whose licence is not known before the list: it may have been taken.
      const unlicensed = JSON.stringify({
        ...HEADER_FIELDS,
        standard_charge_information: visits(),
      });
      const at = unlicensed.lastIndexOf('}]}]');
      const maybeTaken = await failure(
        await file('two-missing-unlicensed.json', cut(cut(unlicensed, at + 2), at)),
      );
      expect(maybeTaken.code).toBe('invalid-json');
      // Without a brace of its own to take, the file is cut short.
      const short = await failure(
        await file('two-missing-short.json', cut(text, last + 2).slice(0, -2)),
      );
      expect(short.code).toBe('truncated-json');
    });

    it('says a file whose braces do not pair up is broken, not cut short, and loses an item for a quote', async () => {
      const text = JSON.stringify({ ...HEADER_FIELDS, standard_charge_information: visits() });
      const last = text.lastIndexOf('}]}]');
      // After an item that is no JSON (a colon gone), the last item loses its charges' closing
      // bracket and its own brace: it takes the list's bracket and the file's brace for its own,
      // which pair up, and the list never ends. Two items are broken: the file is refused.
      const colon = text.indexOf(':', text.indexOf('code_information', text.indexOf('Visit 2')));
      for (const [name, damaged, from] of [
        ['two-missing-paired.json', cut(cut(cut(text, last + 2), last + 1), colon), 2],
      ] as const) {
        const path = await file(name, `${damaged}${'\n'.repeat(16)}`);
        // In small chunks too, where the file's last brace came in a chunk let go of before its
        // end (the line ends after it fill two chunks of 7 bytes).
        for (const chunkSize of [7, 64 * 1024]) {
          const result = await failure(path, { chunkSize });
          expect(result.code).toBe('invalid-json');
          expect(result.message).toContain(`do not pair up from item ${from} of`);
        }
      }
      // A quote gone costs its item only. Before session 44 what followed it was read inside out,
      // to the file's closing brace, and the file refused: a quote followed by text is now taken
      // as text, so the quotes pair up again after it.
      const quote = text.indexOf('"PPO"', text.indexOf('Visit 2'));
      const noQuote = await file('no-quote.json', cut(text, quote));
      for (const chunkSize of [7, 64 * 1024]) {
        const { records, report } = await readWithReport(noQuote, { chunkSize });
        expect(records.map((r) => r.description)).toEqual(['Visit 1', 'Visit 3', 'Visit 4']);
        expect(report.examples('json.invalid-item').map((e) => e.location)).toEqual([
          'standard_charge_information[1]',
        ]);
      }
      // Cut short, the same file is said to be so.
      const short = await failure(
        await file('short.json', text.slice(0, text.lastIndexOf('}') - 3)),
      );
      expect(short.code).toBe('truncated-json');
    });

    it('reads a text whose writer left a quote in it unescaped, and says so', async () => {
      const [first, second, ...rest] = visits() as Record<string, unknown>[];
      const items = [
        { ...first, description: 'TUBE 12INCH FOLEY' },
        { ...second, description: 'DRESSING 4INCHX4INCH GAUZE' },
        ...rest,
      ];
      const text = JSON.stringify({ ...HEADER_FIELDS, standard_charge_information: items });
      const path = await file('inch.json', text.replace(/INCH/g, '"'));
      for (const chunkSize of [7, 64 * 1024]) {
        const { records, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => [r.description, r.payers.length])).toEqual([
          ['TUBE 12" FOLEY', 2],
          ['DRESSING 4"X4" GAUZE', 2],
          ['Visit 3', 2],
          ['Visit 4', 2],
        ]);
        expect(report.examples('json.unescaped-quote').map((e) => e.location)).toEqual([
          'standard_charge_information[0]',
          'standard_charge_information[1]',
          'standard_charge_information[1]',
        ]);
        expect(report.count('json.invalid-item')).toBe(0);
        expect(report.rejectedRecords).toBe(0);
      }
      // A file's own text too.
      const named = await readWithReport(
        await file(
          'inch-name.json',
          text.replace('Test Hospital', 'St MaryINCHs').replace(/INCH/g, '"'),
        ),
      );
      expect(named.header.hospitalName).toBe('St Mary"s');
      expect(named.report.count('json.unescaped-quote')).toBe(4);
    });

    it('reads an unescaped quote followed by a comma and a word as text, in an item or a header list', async () => {
      const [first, second, ...rest] = visits() as Record<string, unknown>[];
      const items = [
        { ...first, description: 'BRACE WRIST 8INCH, PREFABRICATED' },
        { ...second, description: 'SPLINT 4INCH: PLASTER' },
        ...rest,
      ];
      const text = JSON.stringify({
        ...HEADER_FIELDS,
        hospital_address: ['1 Main St INCHSuite 5INCH, Portland, OR 97201'],
        standard_charge_information: items,
      }).replace(/INCH/g, '"');
      const path = await file('inch-comma.json', text);
      for (const chunkSize of [7, 8, 9, 64 * 1024]) {
        const { records, header, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => r.description)).toEqual([
          'BRACE WRIST 8", PREFABRICATED',
          'SPLINT 4": PLASTER',
          'Visit 3',
          'Visit 4',
        ]);
        expect(header.addresses).toEqual(['1 Main St "Suite 5", Portland, OR 97201']);
        expect(report.count('json.unescaped-quote')).toBe(4);
        expect(report.count('json.invalid-item')).toBe(0);
      }
    });

    it('reads a text that lost its closing quote as ending where the next field starts, in the header or an item', async () => {
      const json = {
        ...HEADER_FIELDS,
        location_name: ['Test Hospital', 'Test Clinic'],
        license_information: { license_number: '12345', state: 'OR' },
        standard_charge_information: visits(),
      };
      // The hospital's name, the last of its locations, its licence's state, the first item's
      // description (a field amid others), the second item's code type (the last of its object
      // and its list), and the last methodology (the item's last text) of the first and the
      // third item each lose their closing quote: the text runs on to the next field's name,
      // taking the brackets between for its own (for an item's last text, the end of its item
      // and the start of the next; the scanner finds the third's at the list's end).
      const lose = (text: string) => {
        const lost = text
          .replace(/("hospital_name": ?"Test Hospital)"/, '$1')
          .replace(/("Test Clinic)"/, '$1')
          .replace(/("state": ?"OR)"/, '$1')
          .replace(/("description": ?"Visit 1)"/, '$1')
          .replace(/("code": ?"99212",\s*"type": ?"CPT)"/, '$1');
        const last = (k: number) => nth(lost, '"fee schedule"', 0, 2 * k) + '"fee schedule'.length;
        return cut(cut(lost, last(3)), last(1));
      };
      for (const [name, text] of [
        ['lost-quote-pretty.json', JSON.stringify(json, null, 2)],
        ['lost-quote.json', JSON.stringify(json)],
      ] as const) {
        const path = await file(name, lose(text));
        for (const chunkSize of [7, 64 * 1024]) {
          const { records, header, report } = await readWithReport(path, { chunkSize });
          expect(header.hospitalName).toBe('Test Hospital');
          expect(header.lastUpdatedOn).toBe('2026-01-15');
          expect(header.locationNames).toEqual(['Test Hospital', 'Test Clinic']);
          expect([header.licenseNumber, header.licenseState]).toEqual(['12345', 'OR']);
          expect(
            records.map((r) => [r.description, r.codes.map((c) => c.type), r.payers.length]),
          ).toEqual([
            ['Visit 1', ['CPT'], 2],
            ['Visit 2', ['CPT'], 2],
            ['Visit 3', ['CPT'], 2],
            ['Visit 4', ['CPT'], 2],
          ]);
          expect(report.examples('json.unclosed-string').map((e) => e.location)).toEqual([
            'hospital_name',
            'location_name',
            'license_information',
            'standard_charge_information[0]',
            'standard_charge_information[0]',
          ]);
          // Two more past the five examples: items read together are said under the first.
          expect(report.count('json.unclosed-string')).toBe(7);
          expect(report.count('json.unbalanced-item') + report.count('json.invalid-item')).toBe(0);
          expect(report.rejectedRecords).toBe(0);
        }
      }
      // The file's last text, with only closing brackets and braces after it: in the last item,
      // or in a field after the items. Cut short inside that text, the file is still refused.
      const lastItem = JSON.stringify(json, null, 2);
      const withProvisions = JSON.stringify({ ...json, general_contract_provisions: 'Per case' });
      for (const [name, text, at, location] of [
        [
          'lost-last-quote.json',
          lastItem,
          lastItem.lastIndexOf('"'),
          'standard_charge_information[3]',
        ],
        [
          'lost-last-field-quote.json',
          withProvisions,
          withProvisions.lastIndexOf('"'),
          'general_contract_provisions',
        ],
      ] as const) {
        const { records, header, report } = await readWithReport(await file(name, cut(text, at)));
        expect(records).toHaveLength(4);
        expect(records[3]?.payers.map((p) => p.methodology)).toEqual([
          'fee schedule',
          'fee schedule',
        ]);
        expect(header.generalContractProvisions).toBe(
          name === 'lost-last-quote.json' ? null : 'Per case',
        );
        expect(report.examples('json.unclosed-string').map((e) => e.location)).toEqual([location]);
        const short = await failure(await file(`short-${name}`, text.slice(0, at - 2)));
        expect(short.code).toBe('truncated-json');
      }

      // A quote followed by a word on the same line, neither a comma nor a line break before it,
      // is no field's start: the item is still rejected, and the file read on.
      const kept = await readWithReport(
        await file(
          'lost-quote-inline.json',
          JSON.stringify(json).replace(
            '"Visit 2","code_information"',
            '"Visit 2 "code_information"',
          ),
        ),
      );
      expect(kept.records.map((r) => r.description)).toEqual(['Visit 1', 'Visit 3', 'Visit 4']);
      expect(kept.report.count('json.unclosed-string')).toBe(0);
      expect(kept.report.count('json.invalid-item')).toBe(1);
    });

    it('reads a raw line break or tab, a backslash JSON does not know and a number such as .5, and says so', async () => {
      const [first, second, ...rest] = visits() as Record<string, unknown>[];
      const items = [
        { ...first, description: 'TUBE<TAB>FOLEY<NL>LATEX FREE' },
        { ...second, description: "CT HEAD W<BSL>O CONTRAST, CHILDREN<BSL>'S" },
        ...rest,
      ];
      const text = JSON.stringify({ ...HEADER_FIELDS, standard_charge_information: items })
        .replace('<TAB>', '\t')
        .replace('<NL>', '\r\n')
        .replace(/<BSL>/g, '\\')
        // Visit 2's own minimum, and a rate of Visit 3, as Oracle's TO_CHAR writes numbers under 1.
        .replace('"minimum":102', '"minimum":.5')
        .replace('"standard_charge_dollar":103', '"standard_charge_dollar":103.');
      expect(() => void JSON.parse(text)).toThrow();
      const path = await file('wild.json', text);
      for (const chunkSize of [7, 64 * 1024]) {
        const { records, report } = await readWithReport(path, { chunkSize });
        expect(records.map((r) => [r.description, r.min, r.payers[0]?.dollar])).toEqual([
          ['TUBE\tFOLEY\r\nLATEX FREE', 101, 101],
          ["CT HEAD W\\O CONTRAST, CHILDREN'S", 0.5, 102],
          ['Visit 3', 103, 103],
          ['Visit 4', 104, 104],
        ]);
        expect(report.examples('json.control-character').map((e) => e.location)).toEqual([
          'standard_charge_information[0]',
          'standard_charge_information[0]',
          'standard_charge_information[0]',
        ]);
        expect(report.examples('json.invalid-escape').map((e) => e.location)).toEqual([
          'standard_charge_information[1]',
          'standard_charge_information[1]',
        ]);
        expect(report.examples('json.number-form').map((e) => e.location)).toEqual([
          'standard_charge_information[1]',
          'standard_charge_information[2]',
        ]);
        expect(report.count('json.invalid-item')).toBe(0);
        expect(report.rejectedRecords).toBe(0);
      }
    });

    it('names the top-level value whose closing bracket or brace is missing', async () => {
      const text = JSON.stringify(
        {
          ...HEADER_FIELDS,
          hospital_address: ['1 Main St, Orlando, FL 32803'],
          license_information: { license_number: '1', state: 'FL' },
          standard_charge_information: visits(),
        },
        null,
        2,
      );
      // The list of addresses takes everything after it, to the file's closing brace.
      const addresses = text.indexOf(']', text.indexOf('hospital_address'));
      const list = await failure(await file('addresses.json', cut(text, addresses)));
      expect(list).toMatchObject({ code: 'invalid-json' });
      expect(list.message).toContain('do not pair up in the value of hospital_address');
      // The licence's object ends with the file's brace: broken there, or cut right after it.
      const licence = text.indexOf('}', text.indexOf('license_information'));
      const object = await failure(await file('licence.json', cut(text, licence)));
      expect(object).toMatchObject({ code: 'truncated-json' });
      expect(object.message).toContain('ends where the value of license_information ends');
    });

    it('reads the items after one that lost a list’s closing bracket, the next starting in that list', async () => {
      // Visit 2's code, as a span written twice (from inside its type on) leaves it: its own
      // brackets and braces pair up, and the code list stays open, so the items after it, the
      // list's bracket and the file's brace are taken for its own. Before session 45 the file
      // was refused (invalid-json).
      const twice = (t: string) => {
        const type = t.indexOf('"CPT', t.indexOf('99212')) + 4;
        return add(t, type, 'code_information":[{"code":"99212","type":"CPT');
      };
      for (const layout of ['items last', 'items first'] as const) {
        const fields =
          layout === 'items first'
            ? { standard_charge_information: visits(), ...HEADER_FIELDS }
            : { ...HEADER_FIELDS, standard_charge_information: visits() };
        const path = await file('list-open.json', `${twice(JSON.stringify(fields))}\n`);
        for (const chunkSize of [1, 7, 64 * 1024]) {
          const { records, header, report } = await readWithReport(path, { chunkSize });
          expect(
            records.map((r) => r.description),
            `${layout}, ${chunkSize}`,
          ).toEqual(['Visit 1', 'Visit 3', 'Visit 4']);
          expect(header?.hospitalName).toBe('Test Hospital');
          expect(report.examples('json.unbalanced-item')).toEqual([
            expect.objectContaining({
              location: 'standard_charge_information[1]',
              message: expect.stringContaining(
                'the next item started inside one of its lists',
              ) as string,
            }),
          ]);
          expect(report.rejectedRecords).toBe(1);
        }
      }
      // Followed by more than an item may hold (MAX_VALUE_BYTES): found once it is that long.
      const many = Array.from({ length: 60_000 }, (_, k) => ({
        ...(visits()[k % 4] as object),
        description: `Visit ${k + 1}`,
      }));
      const big = twice(JSON.stringify({ ...HEADER_FIELDS, standard_charge_information: many }));
      expect(big.length).toBeGreaterThan(MAX_VALUE_BYTES);
      const { records, report } = await readWithReport(await file('list-open-big.json', big));
      expect(records).toHaveLength(59_999);
      expect(records[1]?.description).toBe('Visit 3');
      expect(report.examples('json.unbalanced-item').map((e) => e.location)).toEqual([
        'standard_charge_information[1]',
      ]);
      expect(report.count('json.item-too-large')).toBe(0);
    });

    it('does not take an object with an item’s field inside a whole item for the next item', async () => {
      const [first, ...rest] = visits() as Record<string, unknown>[];
      const withNotes = {
        ...first,
        // Not a CMS field: objects of a list, after commas, with an item's field.
        line_items: [{ description: 'Room' }, { description: 'Board', code_information: [] }],
        extra: { description: 'Nested' },
      };
      const { records, report } = await readJson('item-fields-inside.json', {
        ...HEADER_FIELDS,
        standard_charge_information: [withNotes, ...rest],
      });
      expect(records.map((r) => r.description)).toEqual([
        'Visit 1',
        'Visit 2',
        'Visit 3',
        'Visit 4',
      ]);
      expect(report.count('json.unbalanced-item')).toBe(0);
      expect(report.rejectedRecords).toBe(0);
    });
  });

  it('reads a CMS field written in another letter case, plural or spacing as that field', async () => {
    const json = {
      Hospital_Name: 'Test Hospital',
      lastUpdatedOn: '2026-01-15',
      Version: '3.0.0',
      hospital_address: ['1 Main St, Springfield, CA 90001'],
      license_information: { license_number: '12', state: 'CA' },
      attestation: { attestation: 'true', confirm_attestation: true, 'Attester Name': 'A Person' },
      standard_charges_information: [
        {
          Description: 'Visit',
          code_informations: [{ Code: '99213', type: 'CPT' }],
          standard_charge: [
            {
              Setting: 'outpatient',
              'gross-charge': 200,
              payer_information: [
                {
                  Payer_Name: 'Aetna',
                  payer_name: 'Aetna Health', // CMS's own spelling wins: the other is unknown
                  planName: 'PPO',
                  standard_charges_dollar: 120,
                  methodology: 'fee schedule',
                },
              ],
            },
          ],
        },
      ],
    };
    // Streamed in small parts too: a top-level key is respelt before its value is read.
    for (const chunkSize of [undefined, 4]) {
      const { records, header, report } = await readWithReport(
        await file('spellings.json', JSON.stringify(json)),
        { chunkSize },
      );
      expect([
        header.hospitalName,
        header.lastUpdatedOn,
        header.version,
        header.attesterName,
      ]).toEqual(['Test Hospital', '2026-01-15', '3.0.0', 'A Person']);
      expect(
        records.map((r) => [r.description, r.codes, r.setting, r.gross, r.payers.length]),
      ).toEqual([['Visit', [{ code: '99213', type: 'CPT' }], 'outpatient', 200, 1]]);
      expect(records[0]?.payers[0]).toMatchObject({
        payerName: 'Aetna Health',
        planName: 'PPO',
        dollar: 120,
      });
      expect(
        report.examples('json.field-spelling').map((e) => [e.location, e.message.split(': ')[1]]),
      ).toEqual([
        ['file', '"Hospital_Name" for hospital_name'],
        ['file', '"lastUpdatedOn" for last_updated_on'],
        ['file', '"Version" for version'],
        ['file', '"standard_charges_information" for standard_charge_information'],
        ['standard_charge_information[0]', '"Description" for description'],
      ]);
      // Four at the top, the attestation's name, and nine in the item.
      expect(report.count('json.field-spelling')).toBe(14);
      expect(report.examples('json.unknown-field').map((e) => e.message.split(': ')[1])).toEqual([
        '"Payer_Name"',
      ]);
    }
  });

  it('reports each JSON field no schema defines once, with where, its value and how often', async () => {
    const item = (code: string, extra: object = {}) => ({
      description: `Visit ${code}`,
      code_information: [{ code, type: 'CPT', code_description: 'Office visit' }],
      drug_information: { unit: 1, type: 'UN', unit_price: 2 },
      standard_charges: [
        {
          setting: 'outpatient',
          gross_amount: 200, // not CMS's: its value is lost, and the report must say so
          payers_information: [
            {
              payer_name: 'Aetna',
              plan_name: 'PPO',
              standard_charge_dollar: 120,
              methodology: 'fee schedule',
              payer_id: 42,
            },
          ],
          minimum: 120,
          maximum: 120,
        },
      ],
      ...extra,
    });
    const json = {
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
      hospital_phone: '555-0100'.repeat(6),
      license_information: { license_number: '12', state: 'CA', expires: '2027' },
      attestation: { attestation: 'true', confirm_attestation: true, attester_title: 'CFO' },
      // Not CMS's: the items are not read (the file has none), and the report shows their size.
      charge_list: [{ description: 'Visit' }, {}],
      contact: { name: 'A Person', email: 'a@example.org', phone: '555', fax: '556' },
      standard_charge_information: [
        item('99211', { item_notes: 'x' }),
        item('99212'),
        item('99213'),
      ],
      modifier_information: [
        {
          code: '50',
          description: 'Bilateral',
          modifier_payer_information: [
            { payer_name: 'Aetna', plan_name: 'PPO', description: '150%', rate: 1.5 },
          ],
          effective: '2026',
        },
      ],
    };
    const { records, report } = await readJson('unknown-fields.json', json);
    expect(records).toHaveLength(4);
    expect(records[0]?.gross).toBeNull();
    const unknown = (r: typeof report) =>
      r.examples('json.unknown-field').map((e) => [e.location, e.message]);
    expect(report.count('json.unknown-field')).toBe(12);
    const field = 'field is not a CMS field and was ignored';
    expect(unknown(report)).toEqual([
      ['standard_charge_information[0]', `${field}: "item_notes": "x"`],
      [
        'standard_charge_information[0].code_information[0]',
        `${field}: "code_description": "Office visit" (in 3 codes)`,
      ],
      [
        'standard_charge_information[0].drug_information',
        `${field}: "unit_price": 2 (in 3 drug_information objects)`,
      ],
      [
        'standard_charge_information[0].standard_charges[0]',
        `${field}: "gross_amount": 200 (in 3 standard charges)`,
      ],
      [
        'standard_charge_information[0].standard_charges[0].payers_information[0]',
        `${field}: "payer_id": 42 (in 3 payer entries)`,
      ],
    ]);
    // Read three bytes at a time: the same report.
    const small = await readWithReport(await file('unknown-fields.json', JSON.stringify(json)), {
      chunkSize: 3,
    });
    expect(small.report.toJSON()).toEqual(report.toJSON());
    // The report keeps five examples a rule: the header's and the modifiers' alone.
    const cleanItems = { ...json, standard_charge_information: [] };
    const header = await readJson('unknown-header-fields.json', cleanItems);
    expect(unknown(header.report)).toEqual([
      ['license_information', `${field}: "expires": "2027"`],
      ['attestation', `${field}: "attester_title": "CFO"`],
      ['modifier_information[0]', `${field}: "effective": "2026"`],
      ['modifier_information[0].modifier_payer_information[0]', `${field}: "rate": 1.5`],
      // Long values are cut.
      ['file', `${field}: "hospital_phone": "${'555-0100'.repeat(4)}555-01…`],
    ]);
    expect(header.report.count('json.unknown-field')).toBe(7);
    const topOnly = await readJson('unknown-top-fields.json', {
      ...cleanItems,
      hospital_phone: undefined,
      license_information: undefined,
      attestation: undefined,
      modifier_information: [],
    });
    expect(unknown(topOnly.report)).toEqual([
      ['file', `${field}: "charge_list": a list of 2`],
      ['file', `${field}: "contact": an object with "name", "email", "phone", …`],
    ]);
    // A file with only the schemas' fields has none.
    const clean = await readJson('known-fields.json', {
      ...cleanItems,
      hospital_phone: undefined,
      license_information: { license_number: '12', state: 'CA' },
      attestation: { attestation: 'true', confirm_attestation: true },
      charge_list: undefined,
      contact: undefined,
      modifier_information: [],
    });
    expect(clean.report.count('json.unknown-field')).toBe(0);
  });

  it('says a key written twice inside an item, where, keeping its last value', async () => {
    const payer = (name: string, dollar: number) => ({
      payer_name: name,
      plan_name: 'PPO',
      methodology: 'fee schedule',
      standard_charge_dollar: dollar,
    });
    const clean = {
      // Colons, braces and escaped quotes inside strings are not keys or objects.
      description: 'MRI: brain {"no": contrast} \\" :',
      code_information: [{ code: '70551', type: 'CPT' }],
      // An unknown field holding objects, and a field spelt another way: no key written twice.
      codes_by_system: { cpt: { code: '70551' }, list: [{ a: 1 }, { b: 2 }] },
      standard_charges: [
        { setting: 'outpatient', gross_charge: 1200, payers_information: [payer('Aetna', 400)] },
      ],
    };
    const header =
      '{"hospital_name":"Test Hospital","last_updated_on":"2026-01-15","version":"3.0.0"';
    const items = (...texts: string[]) =>
      `${header},"standard_charge_information":[${texts.join(',')}]}`;
    const cleanText = JSON.stringify(clean).replace('"setting"', '"Setting"');
    const twice = JSON.stringify(clean)
      // The charge's payers written twice: the second list is what JSON.parse keeps.
      .replace(
        '"payers_information":',
        `"payers_information":${JSON.stringify([payer('Cigna', 300)])},"payers_information":`,
      )
      // And a payer entry's dollar amount.
      .replace(
        '"standard_charge_dollar":400',
        '"standard_charge_dollar":1,"standard_charge_dollar":400',
      );
    const text = items(cleanText, twice);
    for (const chunkSize of [undefined, 3]) {
      const { records, report } = await readWithReport(await file('twice.json', text), {
        chunkSize,
      });
      expect(records.map((r) => r.payers.map((p) => [p.payerName, p.dollar]))).toEqual([
        [['Aetna', 400]],
        [['Aetna', 400]],
      ]);
      expect(report.examples('json.duplicate-key').map((e) => [e.location, e.message])).toEqual([
        [
          'standard_charge_information[1].standard_charges[0]',
          'field was written twice in one object (its last value read): payers_information',
        ],
        [
          'standard_charge_information[1].standard_charges[0].payers_information[0]',
          'field was written twice in one object (its last value read): standard_charge_dollar',
        ],
      ]);
    }
    // Top-level values too: the licence's state, a modifier's payer description.
    const modifier = {
      code: '50',
      description: 'Bilateral',
      modifier_payer_information: [{ payer_name: 'Aetna', plan_name: 'PPO', description: '150%' }],
    };
    const top = `${header},"license_information":{"license_number":"12","state":"CA","state":"NV"},"standard_charge_information":[${cleanText}],"modifier_information":${JSON.stringify(
      [modifier],
    ).replace('"description":"150%"', '"description":"100%","description":"150%"')}}`;
    const topRead = await readText('top-twice.json', top);
    expect(topRead.header.licenseState).toBe('NV');
    expect(topRead.records[1]?.payers[0]?.notes).toBe('150%');
    expect(topRead.report.examples('json.duplicate-key').map((e) => e.location)).toEqual([
      'license_information',
      'modifier_information[0].modifier_payer_information[0]',
    ]);
    // A comment's colon, dropped with the comment, is no key either.
    const commented = cleanText.replace('"standard_charges"', '/* note: x */ "standard_charges"');
    const alone = await readText('clean.json', items(cleanText, commented));
    expect(alone.records).toHaveLength(2);
    expect(alone.report.count('json.comment')).toBe(1);
    expect(alone.report.count('json.duplicate-key')).toBe(0);
    expect(alone.report.count('json.field-spelling')).toBe(1);
  });

  it('reads a JSON list written as its one entry, and reports a file without items', async () => {
    const header = {
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
    };
    const item = {
      description: 'Office visit',
      code_information: { code: '99213', type: 'CPT' },
      standard_charges: {
        setting: 'outpatient',
        gross_charge: 250,
        minimum: 100,
        maximum: 120,
        modifier_code: '26',
        payers_information: {
          payer_name: 'Aetna',
          plan_name: 'PPO',
          standard_charge_dollar: 120,
          methodology: 'fee schedule',
        },
      },
    };
    const listed = {
      ...item,
      code_information: [item.code_information],
      standard_charges: [
        {
          ...item.standard_charges,
          modifier_code: ['26'],
          payers_information: [item.standard_charges.payers_information],
        },
      ],
    };
    const read = (name: string, value: object) => readJson(name, { ...header, ...value });
    const expected = (await read('listed.json', { standard_charge_information: [listed] })).records;
    expect(expected[0]).toMatchObject({ modifiers: ['26'], payers: [{ dollar: 120 }] });

    const lone = await read('lone.json', { standard_charge_information: [item] });
    expect(lone.records).toEqual(expected);
    expect(lone.report.count('json.single-as-list')).toBe(4);
    // The item itself written without its list: before, it was skipped without a word.
    const bare = await read('bare.json', { standard_charge_information: item });
    expect(bare.records).toEqual(expected);
    expect(bare.report.count('json.single-as-list')).toBe(5);
    expect(bare.report.examples('json.single-as-list')[0]?.location).toBe(
      'standard_charge_information',
    );

    for (const value of [{}, { standard_charge_information: null }]) {
      const none = await read('no-items.json', value);
      expect(none.records).toEqual([]);
      expect(none.report.count('required.standard_charge_information')).toBe(1);
    }
    const wrong = await read('wrong.json', { standard_charge_information: 'none' });
    expect(wrong.report.count('json.wrong-type')).toBe(1);
    // An empty list is said as other empty lists are (before session 43, without a word).
    const empty = await read('empty.json', { standard_charge_information: [] });
    expect(empty.report.count('required.standard_charge_information')).toBe(0);
    expect(empty.report.examples('json.empty-value').map((e) => e.location)).toEqual([
      'standard_charge_information',
    ]);
  });

  it('reads JSON header values of another type once, and reports each once', async () => {
    const item = OFFICE_VISIT;
    const header = {
      hospital_name: 'Test Hospital',
      last_updated_on: 20260115,
      version: '3.0.0',
      location_name: 'Test Hospital',
      hospital_address: '1 Main St, Boston, MA 02110',
      type_2_npi: 1234567893,
      license_information: [{ license_number: 1234, state: 'MA' }],
      attestation: {
        attestation: CMS_ATTESTATION,
        confirm_attestation: 'TRUE',
        attester_name: 'A',
      },
    };
    // Header fields before the items, and after them (read late): the same header either way.
    for (const json of [
      { ...header, standard_charge_information: [item] },
      { standard_charge_information: [item], ...header },
    ]) {
      const { header: read, report } = await readJson('header-types.json', json);
      expect(read).toMatchObject({
        lastUpdatedOn: '2026-01-15',
        locationNames: ['Test Hospital'],
        addresses: ['1 Main St, Boston, MA 02110'],
        type2Npis: ['1234567893'],
        licenseNumber: '1234',
        licenseState: 'MA',
        attestationConfirmed: true,
      });
      expect(report.errorCount).toBe(0);
      expect(report.count('json.wrong-type-read')).toBe(4);
      expect(report.count('json.single-as-list')).toBe(3);
      expect(report.count('date.other-form')).toBe(1);
    }
    // An unreadable date is reported once, however often the header is completed.
    const bad = await readJson('bad-date.json', {
      ...header,
      last_updated_on: 'soon',
      standard_charge_information: [item],
    });
    expect(bad.report.count('date.invalid')).toBe(1);
    // ...and not again as no date at all.
    expect(bad.report.count('required.last_updated_on')).toBe(0);
    // A CSV's attestation confirmed with a tick or a Y is confirmed.
    for (const tick of ['Y', 'X', '1']) {
      const ticked = await readText(
        'ticked.csv',
        V3_HEADER.replace(',true,', `,${tick},`) + TALL_COLUMNS + TALL_ROW,
      );
      expect(ticked.header.attestationConfirmed).toBe(true);
      expect(ticked.report.count('attestation.other-word')).toBe(1);
      expect(ticked.report.count('required.attestation')).toBe(0);
    }
    const csv = await readText(
      'bad-date.csv',
      V3_HEADER.replace('2026-01-15', '01.15.2026') + TALL_COLUMNS + TALL_ROW,
    );
    expect([
      csv.report.count('date.invalid'),
      csv.report.count('required.last_updated_on'),
    ]).toEqual([1, 0]);
  });

  it("checks the attestation's statement against CMS's, in a CSV's column name and a JSON's field", async () => {
    const cut = CMS_ATTESTATION.slice(0, CMS_ATTESTATION.indexOf(' in accordance'));
    const csv = await readText(
      'short-statement.csv',
      V3_HEADER.replace(CMS_ATTESTATION, cut) + TALL_COLUMNS + TALL_ROW,
    );
    const json = await readJson('short-statement.json', {
      version: '3.0.0',
      attestation: { attestation: cut, confirm_attestation: true, attester_name: 'A Person' },
      standard_charge_information: [OFFICE_VISIT],
    });
    for (const [{ report, records }, where] of [
      [csv, 'row 1, column 8'],
      [json, 'attestation'],
    ] as const) {
      expect(report.examples('attestation.wording').map((e) => e.location)).toEqual([where]);
      expect(report.examples('attestation.wording')[0]?.message).toContain(
        'ends before CMS\'s "in accordance with the requirements of 45 CFR…"',
      );
      // The file's confirmation stands, and nothing is rejected for it.
      expect(report.count('required.attestation')).toBe(0);
      expect([records.length, report.rejected()]).toEqual([1, 0]);
    }
  });

  it('reads a JSON null, "" or empty list as a value left out, and says so where it was', async () => {
    const { header, records, report } = await readJson('nulls.json', {
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
      location_name: ['Test Hospital', ''],
      hospital_address: [null, '1 Main St, Boston, MA 02110'],
      type_2_npi: ['1234567893', 1234567901],
      license_information: { license_number: null, state: 'MA' },
      standard_charge_information: [
        {
          ...OFFICE_VISIT,
          standard_charges: [
            {
              setting: 'outpatient',
              modifier_code: [],
              gross_charge: 250,
              discounted_cash: '',
              payers_information: [
                {
                  payer_name: 'Aetna',
                  plan_name: 'PPO',
                  methodology: 'fee schedule',
                  standard_charge_dollar: 120,
                  additional_payer_notes: null,
                },
              ],
            },
            { setting: 'inpatient', gross_charge: 900, payers_information: null },
          ],
        },
      ],
      modifier_information: null,
    });
    expect(header).toMatchObject({
      locationNames: ['Test Hospital'],
      addresses: ['1 Main St, Boston, MA 02110'],
      type2Npis: ['1234567893', '1234567901'],
      licenseNumber: null,
    });
    expect(records.map((r) => [r.setting, r.gross, r.discountedCash, r.payers.length])).toEqual([
      ['outpatient', 250, null, 1],
      ['inpatient', 900, null, 0],
    ]);
    expect(records[0]?.payers[0]?.notes).toBeNull();
    expect(report.rejected()).toBe(0);
    const said = 'value was null or empty, or a list had no entry (read as left out): ';
    const examples = report.examples('json.empty-value');
    expect(examples.map((e) => `${e.location}: ${e.message.replace(said, '')}`)).toEqual([
      'standard_charge_information[0].standard_charges[0]: modifier_code []',
      'standard_charge_information[0].standard_charges[0]: discounted_cash ""',
      'standard_charge_information[0].standard_charges[0].payers_information[0]: additional_payer_notes null',
      'standard_charge_information[0].standard_charges[1]: payers_information null',
      'location_name: location_name ""',
    ]);
    // Five examples are kept; the count has them all: the address, the licence number and the
    // modifiers too.
    expect(report.count('json.empty-value')).toBe(8);
    expect(report.count('json.number-as-text')).toBe(1);
    // No error but those of what the file leaves out.
    const errors = report.rules().filter((r) => r.severity === 'error');
    expect(errors.map((r) => r.rule)).toEqual(['required.min-max', 'required.attestation']);
  });

  it('does not say what the v2 schemas let be empty: free text, and modifier_information', async () => {
    const file = (version: string, empty: '' | null) => ({
      version,
      hospital_address: ['1 Main St, Boston, MA 02110', empty],
      standard_charge_information: [
        {
          ...OFFICE_VISIT,
          standard_charges: [
            {
              setting: 'outpatient',
              gross_charge: 250,
              additional_generic_notes: empty,
              payers_information: [
                {
                  payer_name: 'Aetna',
                  plan_name: 'PPO',
                  methodology: 'fee schedule',
                  standard_charge_dollar: 120,
                  standard_charge_algorithm: empty,
                  additional_payer_notes: empty,
                },
              ],
            },
          ],
        },
      ],
      modifier_information: [],
    });
    for (const [version, empty, said] of [
      ['3.0.0', '', 5],
      ['2.2.1', '', 0],
      // null is no string in any version.
      ['2.2.1', null, 4],
    ] as const) {
      const { records, report } = await readJson(`empty-${version}.json`, file(version, empty));
      expect(report.count('json.empty-value'), `${version} ${empty}`).toBe(said);
      expect(records[0]?.payers[0]).toMatchObject({ algorithm: null, notes: null });
    }
  });

  /** The JSON with every object's keys in alphabetical order, as `jq -S` writes it. */
  const sortedKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sortedKeys)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, sortedKeys(v)]),
          )
        : value;

  for (const [version, example] of [
    ['2.0.0', 'cms-hpt-examples/V2.0.0_JSON_Format_Example.json'],
    ['3.0.0', 'cms-hpt-examples/v3_json_format_example.json'],
  ] as const) {
    itWithDataFile(
      `reads the ${version} example with its keys sorted, its version after the items`,
      example,
      async (path) => {
        const plain = await readWithReport(path);
        const json = JSON.stringify(sortedKeys(JSON.parse(await readFile(path, 'utf8'))));
        expect(json.indexOf('"version"')).toBeGreaterThan(
          json.indexOf('standard_charge_information'),
        );
        const sorted = await readText(`sorted-${version}.json`, json);
        expect(sorted.header).toEqual(plain.header);
        expect(sorted.header.version).toBe(version);
        expect(sorted.records).toEqual(plain.records);
        expect(sorted.report.toJSON()).toEqual(plain.report.toJSON());
      },
    );
  }

  it('says whether the hospital may still be named after the items, until they have been read', async () => {
    const item = OFFICE_VISIT;
    const header = {
      hospital_name: 'Test Hospital',
      license_information: { license_number: '1', state: 'OR' },
      version: '3.0.0',
    };
    // Longer than what the reader looks at to tell the format, so that it opens before the end.
    const items = Array.from({ length: 40 }, () => item);
    const pending = async (json: object) => {
      const reader = await openMrf(await file('identity.json', JSON.stringify(json)), {
        chunkSize: 16,
      });
      const atOpen = reader.identityPending();
      for await (const record of reader.records) expect(record).toBeTruthy();
      return [atOpen, reader.identityPending(), reader.header.hospitalName];
    };
    expect(await pending({ ...header, standard_charge_information: items })).toEqual([
      false,
      false,
      'Test Hospital',
    ]);
    expect(await pending({ standard_charge_information: items, ...header })).toEqual([
      true,
      false,
      'Test Hospital',
    ]);
    // The name alone does not say which hospital: a licence may follow.
    const { license_information, ...named } = header;
    expect(
      await pending({ ...named, standard_charge_information: items, license_information }),
    ).toEqual([true, false, 'Test Hospital']);
  });

  it('checks items that come before the version by the rules every version keeps', async () => {
    // A 2.2.0 percentage rate without its estimated amount: an error once the version is known.
    const item = {
      description: 'Office visit',
      code_information: [{ code: '99213', type: 'CPT' }],
      standard_charges: [
        {
          setting: 'outpatient',
          gross_charge: 250,
          payers_information: [
            {
              payer_name: 'Aetna',
              plan_name: 'PPO',
              standard_charge_percentage: 80,
              methodology: 'percent of total billed charges',
            },
          ],
        },
      ],
    };
    const header = { hospital_name: 'Test Hospital', last_updated_on: '2026-01-15' };
    const read = (name: string, value: object) => readJson(name, { ...header, ...value });
    const first = await read('version-first.json', {
      version: '2.2.0',
      standard_charge_information: [item],
    });
    expect(first.records[0]?.payers).toHaveLength(1); // reported, and kept (ADR 0011)
    expect(first.report.count('v2.estimated-amount-required')).toBe(1);

    const after = await read('version-after.json', {
      standard_charge_information: [item],
      version: '2.2.0',
    });
    expect(after.header.version).toBe('2.2.0');
    expect(after.records[0]?.payers).toHaveLength(1);
    expect(after.report.count('v2.estimated-amount-required')).toBe(0);
    expect(after.report.count('required.version')).toBe(0);
    expect(after.report.examples('version.after-items')[0]?.message).toMatch(
      /: 2\.2\.0, items checked as 2\.0\.0$/,
    );
    // No version at all: told by the keys, as before, or refused at the end.
    const told = await read('no-version.json', {
      standard_charge_information: [item],
      hospital_location: ['Test Hospital'],
    });
    expect(told.header.version).toBe('2.2.1');
    expect(told.report.count('required.version')).toBe(1);
    expect(
      await failure(
        await file('unknown.json', JSON.stringify({ standard_charge_information: [item] })),
      ),
    ).toMatchObject({ code: 'unknown-version' });
  });

  it('reads a file by the version its fields are laid out in when it declares one across 3.0.0', async () => {
    // A percentage rate with 3.0.0's count and percentiles and no estimated amount: 2.2.1's
    // rules would call it an error, 3.0.0's do not.
    const item = {
      description: 'Office visit',
      code_information: [{ code: '99213', type: 'CPT' }],
      standard_charges: [
        {
          setting: 'outpatient',
          gross_charge: 250,
          minimum: 100,
          maximum: 200,
          payers_information: [
            {
              payer_name: 'Aetna',
              plan_name: 'PPO',
              standard_charge_percentage: 80,
              median_amount: 190,
              '10th_percentile': 150,
              '90th_percentile': 210,
              count: '14',
              methodology: 'percent of total billed charges',
            },
          ],
        },
      ],
    };
    const v3 = await readJson(
      'v3-says-v2.json',
      v3JsonHeader({ version: '2.2.1', standard_charge_information: [item] }),
    );
    expect(v3.header).toMatchObject({ version: '3.0.0', declaredVersion: '2.2.1' });
    expect(v3.report.errorCount).toBe(0);
    expect(v3.report.examples('version.layout-differs')[0]?.message).toMatch(
      /: "2\.2\.1", read as 3\.0\.0$/,
    );
    // Not the other way: a 3.0.0 file may keep v2's hospital_location, and lack what 3.0.0 added.
    const v2 = await readJson('v2-says-v3.json', {
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
      hospital_location: ['Test Hospital'],
      hospital_address: ['1 Main St, Portland, OR 97201'],
      license_information: { license_number: '1', state: 'OR' },
      affirmation: { affirmation: 'Yes', confirm_affirmation: true },
      standard_charge_information: [OFFICE_VISIT],
    });
    expect(v2.header).toMatchObject({ version: '3.0.0', declaredVersion: null });
    expect(v2.report.count('version.layout-differs')).toBe(0);
    // A tall CSV with 3.0.0's header names that says 2.2.0.
    const csv = await readText(
      'v3-says-v2.csv',
      V3_HEADER.replace(',3.0.0,', ',2.2.0,') + TALL_COLUMNS + TALL_ROW,
    );
    expect(csv.header).toMatchObject({ version: '3.0.0', declaredVersion: '2.2.0' });
    expect(csv.report.count('version.layout-differs')).toBe(1);
    // Declared and laid out alike, within v2: the declared version stands.
    const v20 = await readJson('v2-0.json', {
      hospital_name: 'Test Hospital',
      version: '2.0.0',
      hospital_location: ['Test Hospital'],
      standard_charge_information: [OFFICE_VISIT],
    });
    expect(v20.header.version).toBe('2.0.0');
    expect(v20.report.count('version.layout-differs')).toBe(0);
  });

  it('reads CMS column names written with spaces instead of underscores', async () => {
    const spaced = (names: string) =>
      names.replace(/\b(hospital_name|last_updated_on|type_2_npi|payer_name|plan_name)\b/g, (k) =>
        k.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase()),
      );
    const [names, values] = V3_HEADER.split('\n');
    const tall = await readText(
      'spaced-tall.csv',
      `${spaced(names ?? '')}\n${values}\n` +
        spaced(TALL_COLUMNS).replace('standard_charge|gross', 'Standard Charge | Gross') +
        TALL_ROW,
    );
    const plain = await readText('plain-tall.csv', V3_HEADER + TALL_COLUMNS + TALL_ROW);
    expect(tall.records).toEqual(plain.records);
    expect(tall.header).toEqual(plain.header);
    expect(tall.report.count('column.spaces')).toBe(6);
    const first = tall.report.examples('column.spaces')[0];
    expect([first?.location, first?.message.endsWith(': Hospital Name')]).toEqual([
      'row 1, column 1',
      true,
    ]);
    // A payer or plan name keeps its spaces; only the CMS keywords around it are read.
    const wide = await readWideXray(
      'spaced-wide.csv',
      'Standard Charge | Blue Cross | Plan Name | Negotiated Dollar,' +
        'standard_charge|Blue Cross|Plan Name|methodology',
    );
    expect(wide.records[0]?.payers[0]).toMatchObject({
      payerName: 'Blue Cross',
      planName: 'Plan Name',
      dollar: 120,
    });
    expect(wide.report.count('column.spaces')).toBe(1);
  });

  it('reads column names in another letter case, with spaces around their pipes, or unnamed', async () => {
    const columns = TALL_COLUMNS.replace('description', 'Description')
      .replace('code|1|type', 'CODE|1|Type')
      .replace('code|1,', ' code | 1,')
      .replace('payer_name', 'Payer_Name');
    const odd = await readText(
      'odd-columns.csv',
      V3_HEADER + `,${columns}`.replace('\n', ',\n') + `,${TALL_ROW}`,
    );
    const plain = await readText('plain-columns.csv', V3_HEADER + TALL_COLUMNS + TALL_ROW);
    expect(odd.records.map((r) => ({ ...r, location: '' }))).toEqual(
      plain.records.map((r) => ({ ...r, location: '' })),
    );
    expect(odd.report.errorCount).toBe(0);
    expect(odd.report.examples('column.case').map((e) => e.location)).toEqual([
      'column 2',
      'column 4',
      'column 11',
    ]);
    expect(odd.report.examples('column.stray-spaces')).toEqual([
      expect.objectContaining({
        location: 'column 3',
        message: expect.stringMatching(/: " code \| 1"$/) as unknown,
      }),
    ]);
    // The leading unnamed column and the trailing one: their values are not read.
    expect(odd.report.examples('column.unnamed').map((e) => e.location)).toEqual([
      'column 1',
      'column 24',
    ]);
    // A payer or plan name in a wide column keeps its letter case.
    const wide = await readWideXray(
      'wide-case.csv',
      'standard_charge|Blue Cross|PPO|negotiated_dollar,standard_charge|Blue Cross|PPO|methodology',
    );
    expect(wide.records[0]?.payers[0]).toMatchObject({ payerName: 'Blue Cross', planName: 'PPO' });
    expect(wide.report.warningCount).toBe(0);
    // One payer's columns written in two letter cases or spacings are one payer's.
    const mixed = await readWideXray(
      'wide-mixed-case.csv',
      'standard_charge|Blue Cross|PPO|negotiated_dollar,standard_charge|BLUE CROSS|PPO|methodology',
    );
    expect(mixed.records[0]?.payers).toEqual([
      expect.objectContaining({
        payerName: 'Blue Cross',
        planName: 'PPO',
        dollar: 120,
        methodology: 'fee schedule',
      }),
    ]);
    // The x-ray's file has but two of the payer's columns: the others are said missing.
    expect(mixed.report.errorCount).toBe(mixed.report.count('column.missing'));
    expect(mixed.report.examples('column.payer-spelling')[0]?.message).toMatch(
      /: "BLUE CROSS\|PPO", read as "Blue Cross\|PPO"$/,
    );
  });

  it('says once which methodology column is missing, and rejects the rates it would describe', async () => {
    const wide = await readWideXray(
      'wide-no-methodology.csv',
      'standard_charge|Blue Cross|PPO|negotiated_dollar,additional_payer_notes|Blue Cross|PPO',
    );
    expect(wide.records[0]?.payers).toEqual([]);
    expect(wide.report.count('required.methodology')).toBe(1);
    expect(wide.report.examples('column.no-methodology')).toEqual([
      expect.objectContaining({
        location: 'row 3',
        message: expect.stringMatching(
          /: standard_charge\|Blue Cross\|PPO\|methodology$/,
        ) as unknown,
      }),
    ]);
    const tall = await readText(
      'tall-no-methodology.csv',
      V3_HEADER +
        TALL_COLUMNS.replace(',standard_charge|methodology', '') +
        TALL_ROW.replace(',fee schedule', ''),
    );
    expect(tall.records[0]?.payers).toEqual([]);
    expect(tall.report.examples('column.no-methodology').map((e) => e.message)).toEqual([
      expect.stringMatching(/: standard_charge\|methodology$/),
    ]);
    // A file of gross and cash prices only has no payer, so no methodology to miss.
    const cashOnly = await readWideXray('wide-no-payers.csv', 'standard_charge|discounted_cash');
    expect(cashOnly.report.count('column.no-methodology')).toBe(0);
  });

  it('reads tall columns named as the JSON template names the fields', async () => {
    const jsonNamed = TALL_COLUMNS.replace('standard_charge|gross', 'gross_charge')
      .replace('standard_charge|discounted_cash', 'discounted_cash')
      .replace('standard_charge|negotiated_dollar', 'standard_charge_dollar')
      .replace('standard_charge|negotiated_percentage', 'Standard_Charge_Percentage')
      .replace('standard_charge|negotiated_algorithm', 'standard_charge_algorithm')
      .replace('standard_charge|min', 'minimum')
      .replace('standard_charge|max', 'maximum')
      .replace('standard_charge|methodology', 'methodology');
    const row = TALL_ROW.replace(',120,,,,,,,', ',120,45,see contract,115,90,130,1 through 10,');
    const read = await readText('json-named.csv', V3_HEADER + jsonNamed + row);
    const plain = await readText('plain.csv', V3_HEADER + TALL_COLUMNS + row);
    expect([read.report.errorCount, plain.report.errorCount]).toEqual([0, 0]);
    expect(read.records).toEqual(plain.records);
    expect(read.records[0]).toMatchObject({ gross: 250, discountedCash: 200, min: 100, max: 150 });
    expect(read.records[0]?.payers[0]).toMatchObject({
      dollar: 120,
      percentage: 45,
      algorithm: 'see contract',
      methodology: 'fee schedule',
    });
    expect(read.report.count('column.json-name')).toBe(8);
    expect(read.report.examples('column.json-name')[0]?.message).toMatch(
      /: gross_charge → standard_charge\|gross$/,
    );
    // Beside the CSV template's own column, the JSON-named one is not read.
    const both = await readText(
      'both.csv',
      V3_HEADER + TALL_COLUMNS.replace('\n', ',gross_charge\n') + TALL_ROW.replace('\n', ',999\n'),
    );
    expect(both.records[0]?.gross).toBe(250);
    expect(both.report.count('column.json-name')).toBe(0);
    expect(both.report.count('column.unknown')).toBe(1);
  });

  it('reads standard_charge columns whose field is named another way, and reads past unknown ones', async () => {
    const otherNamed = TALL_COLUMNS.replace('standard_charge|gross', 'standard_charge|Gross_Charge')
      .replace('standard_charge|negotiated_percentage', 'standard_charge|negotiated_percent')
      .replace('standard_charge|min', 'standard_charge|minimum')
      .replace('standard_charge|max', 'standard_charge|maximum');
    const row = TALL_ROW.replace(',120,,,,,,,', ',120,45,,115,90,130,1 through 10,');
    const read = await readText('other-named.csv', V3_HEADER + otherNamed + row);
    const plain = await readText('plain.csv', V3_HEADER + TALL_COLUMNS + row);
    expect(read.records).toEqual(plain.records);
    expect(read.records[0]).toMatchObject({ gross: 250, min: 100, max: 150 });
    expect(read.report.errorCount).toBe(0);
    expect(read.report.count('column.other-name')).toBe(4);
    expect(read.report.examples('column.other-name')[0]?.message).toMatch(
      /: standard_charge\|Gross_Charge → standard_charge\|gross$/,
    );
    // In a wide file's payer column too.
    const wide = await readWideXray(
      'wide-other-name.csv',
      'standard_charge|Aetna|PPO|negotiated_rate,standard_charge|Aetna|PPO|methodology',
    );
    expect(wide.records[0]?.payers[0]).toMatchObject({ payerName: 'Aetna', dollar: 120 });
    expect(wide.report.count('column.other-name')).toBe(1);
    // A standard_charge column that is no field of CMS's is read past, as other unknown columns are.
    const unknown = await readText(
      'unknown.csv',
      V3_HEADER +
        TALL_COLUMNS.replace('\n', ',standard_charge|facility_fee\n') +
        row.replace('\n', ',12\n'),
    );
    expect(unknown.records).toEqual(plain.records);
    expect(unknown.report.examples('column.unknown')[0]?.message).toMatch(
      /: standard_charge\|facility_fee$/,
    );
  });

  it('trims stray spaces around values and their pipes, and counts each value once', async () => {
    const header = V3_HEADER.replace(
      'Test Hospital,1 Main St,1234,1234567893,true,A Person',
      'Test Hospital | North Campus ,1 Main St|2 Side St,1234,1234567890 |0987654321,true,A Person ',
    );
    const row = TALL_ROW.replace('X-ray chest,', 'X-ray chest ,')
      .replace(',,outpatient,', ',25 | 59,outpatient,')
      .replace(',120,', ', 120,');
    const {
      records,
      header: h,
      report,
    } = await readText('stray-spaces.csv', header + TALL_COLUMNS + row);
    expect(report.errorCount).toBe(0);
    expect(h).toMatchObject({
      locationNames: ['Test Hospital', 'North Campus'],
      addresses: ['1 Main St', '2 Side St'],
      type2Npis: ['1234567890', '0987654321'],
      attesterName: 'A Person',
    });
    expect(records[0]).toMatchObject({ description: 'X-ray chest', modifiers: ['25', '59'] });
    expect(records[0]?.payers[0]).toMatchObject({ dollar: 120 });
    expect(report.examples('whitespace.trimmed').map((e) => e.message.split(': ')[1])).toEqual([
      'location_name "Test Hospital | North Campus "',
      'type_2_npi "1234567890 |0987654321"',
      'attester_name "A Person "',
      'description "X-ray chest "',
      'modifiers "25 | 59"',
    ]);
    // Five examples are kept; the sixth, the dollar amount, is in the count.
    expect(report.count('whitespace.trimmed')).toBe(6);
  });

  itWithDataFile(
    'skips the header rows where an export writes them again, but not another hospital',
    'cms-hpt-examples/V3.0.0_Wide_CSV_Format_Example.csv',
    async (wide) => {
      // Two copies of the CMS wide example joined, the second with its byte-order mark.
      const example = await readFile(wide);
      expect(example.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const once = await readText('wide-once.csv', example);
      const twice = await readText('wide-twice.csv', Buffer.concat([example, example]));
      const rows = once.records.length + 3;
      expect(twice.records.map((r) => r.payers)).toEqual(
        [...once.records, ...once.records].map((r) => r.payers),
      );
      expect(twice.records[once.records.length]?.location).toBe(`row ${rows + 4}`);
      expect(twice.report.errorCount).toBe(0);
      expect(twice.report.examples('csv.repeated-header')).toEqual([
        expect.objectContaining({ location: `row ${rows + 1}` }),
      ]);

      // A paged export repeats the column names alone, inside a tall charge's rows.
      const paged = await readText(
        'paged.csv',
        V3_HEADER + TALL_COLUMNS + TALL_ROW + TALL_COLUMNS + TALL_ROW.replace('Aetna', 'Cigna'),
      );
      expect(paged.records.map((r) => r.payers.map((p) => p.payerName))).toEqual([
        ['Aetna'],
        ['Cigna'],
      ]);
      expect(paged.report.examples('csv.repeated-header')[0]?.location).toBe('row 5');

      const other = await failure(
        await file(
          'two-hospitals.csv',
          V3_HEADER +
            TALL_COLUMNS +
            TALL_ROW +
            V3_HEADER.replace('Test Hospital,', 'Other Hospital,') +
            TALL_COLUMNS +
            TALL_ROW,
        ),
      );
      expect(other.code).toBe('mixed-hospitals');
      expect(other.message).toBe(
        'Row 6 names another hospital ("Other Hospital", not "Test Hospital") in header rows ' +
          "written again inside the file: a file holds one hospital's charges. Split it at those " +
          'rows and ingest each part.',
      );
    },
  );

  itWithDataFile(
    'reads a CSV whose lines end with CR alone as one with LF, however it is cut',
    'cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv',
    async (tall) => {
      const lf = await readFile(tall, 'utf8');
      expect(lf).not.toContain('\r');
      const read = (path: string, chunkSize?: number) => readWithReport(path, { chunkSize });
      const expected = (await read(tall)).records;
      expect(expected).toHaveLength(26);
      const cr = await file('mac.csv', lf.replaceAll('\n', '\r'));
      for (const chunkSize of [undefined, 1, 7, 64]) {
        const { records, report } = await read(cr, chunkSize);
        expect(records).toEqual(expected);
        expect(report.count('csv.cr-line-ends')).toBe(1);
      }
      // CRLF is the usual kind: no warning.
      const crlf = await read(await file('windows.csv', lf.replaceAll('\n', '\r\n')), 7);
      expect(crlf.records).toEqual(expected);
      expect(crlf.report.count('csv.cr-line-ends')).toBe(0);
    },
  );

  itWithDataFile(
    'reads a CSV whose lines end with LF CR, CRLF the wrong way round, as one with LF, however it is cut',
    'cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv',
    async (tall) => {
      const lf = await readFile(tall, 'utf8');
      const read = (path: string, chunkSize?: number) => readWithReport(path, { chunkSize });
      const expected = (await read(tall)).records;
      // Its quoted values with commas (a description, notes) each start a line's CR away.
      expect(lf).toContain('\n"');
      const lfCr = await file('lf-cr.csv', lf.replaceAll('\n', '\n\r'));
      for (const chunkSize of [undefined, 1, 2, 7, 64]) {
        const { records, report } = await read(lfCr, chunkSize);
        expect(records).toEqual(expected);
        expect(report.count('csv.lf-cr-line-ends')).toBe(1);
        expect(report.count('whitespace.trimmed')).toBe(
          (await read(tall)).report.count('whitespace.trimmed'),
        );
      }
      // A blank line (LF LF) is no LF CR.
      const blank = await read(await file('blank-line.csv', lf.replace('\n', '\n\n')), 1);
      const described = (records: ChargeRecord[]) => records.map((r) => r.description);
      expect(described(blank.records)).toEqual(described(expected));
      expect(blank.report.count('csv.lf-cr-line-ends')).toBe(0);
    },
  );

  itWithDataFile(
    'reads lines ended with CR alone inside a file of LF lines as rows, when they make rows that fit',
    'cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv',
    async (tall) => {
      const lines = (await readFile(tall, 'utf8')).split('\n');
      // A gross charge that is not a number, after the CR lines: its row is said where it is.
      const bad = lines.findIndex((line) => line.startsWith('Permethrin 5% cream,'));
      lines[bad] = (lines[bad] as string).replace(',120,75,', ',abc,75,');
      const lf = lines.join('\n');
      const read = (path: string, chunkSize?: number) => readWithReport(path, { chunkSize });
      const expected = await read(await file('lf.csv', lf));
      // Kept without it, apart from the charge's other rows (their gross differs).
      expect(expected.records).toHaveLength(27);
      const where = expected.report.examples('charge.amount-invalid').map((e) => e.location);
      expect(where).toEqual([`row ${bad + 1}`]);
      // Lines 20 to 29 of two files joined: one with LF line ends, one with CR alone.
      const joined = `${lines.slice(0, 19).join('\n')}\n${lines.slice(19, 30).join('\r')}\n${lines.slice(30).join('\n')}`;
      for (const chunkSize of [undefined, 1, 7, 64]) {
        const { records, report } = await read(await file('joined.csv', joined), chunkSize);
        expect(records).toEqual(expected.records);
        expect(report.examples('csv.lone-cr').map((e) => e.location)).toEqual(['row 20']);
        expect(report.examples('charge.amount-invalid').map((e) => e.location)).toEqual(where);
        expect(report.count('csv.misaligned')).toBe(0);
      }
      // A CR inside a value of a row that fits is the value's: the row stays whole.
      const inValue = lf.replaceAll('MRI of brain', 'MRI\rof brain');
      const { records, report } = await read(await file('cr-in-value.csv', inValue));
      expect(records).toHaveLength(27);
      expect(records.some((r) => r.description === 'MRI\rof brain (no contrast)')).toBe(true);
      expect(report.count('csv.lone-cr')).toBe(0);
    },
  );

  it('reads past a title or a note above the header rows, and says so', async () => {
    const titled = await readText(
      'titled.csv',
      `Standard Charges,Effective 1/1/2026\n"Prices are estimates."\n${V3_HEADER}${TALL_COLUMNS}${TALL_ROW}`,
    );
    expect(titled.header.hospitalName).toBe('Test Hospital');
    expect(titled.records.map((r) => [r.location, r.description])).toEqual([
      ['row 6', 'X-ray chest'],
    ]);
    expect(titled.report.examples('csv.title-line')).toEqual([
      expect.objectContaining({
        location: 'row 1',
        message: expect.stringContaining('"Standard Charges Effective 1/1/2026"') as string,
      }),
      expect.objectContaining({ location: 'row 2' }),
    ]);
    expect(titled.report.errorCount).toBe(0);
    // Five at most; and a first row of more values (another file's columns) is refused at once.
    const notes = 'A note\n'.repeat(6);
    const many = await failure(await file('notes.csv', `${notes}${V3_HEADER}${TALL_COLUMNS}`));
    expect(many.code).toBe('not-a-mrf');
    expect(many.message).toBe(
      'No row up to row 6 has a hospital_name column: this is not a CMS hospital price file.',
    );
    const other = await failure(await file('other.csv', `code,price,unit\n${V3_HEADER}`));
    expect(other.message).toBe(
      'The first row has no hospital_name column: this is not a CMS hospital price file.',
    );
  });

  it('reads Excel text formulas (="0611") as the text inside, written bare or quoted', async () => {
    const rows =
      'MRI,="0611",RC,,outpatient,,,="1200.00",1080,Aetna,PPO,400,,,,,,,250,400,fee schedule,\n' +
      '"Say ""ah""","=""00100""",CPT,,outpatient,,,300,,Aetna,PPO,120,,,,,,,100,150,fee schedule,="a ""b"""\n';
    const { header, records, report } = await readText(
      'excel-text.csv',
      V3_HEADER.replace(',1234,', ',="01234",') + TALL_COLUMNS + rows,
    );
    expect(header.licenseNumber).toBe('01234');
    expect(records.map((r) => [r.codes, r.gross, r.description, r.payers[0]?.notes])).toEqual([
      [[{ code: '0611', type: 'RC' }], 1200, 'MRI', null],
      [[{ code: '00100', type: 'CPT' }], 300, 'Say "ah"', 'a "b"'],
    ]);
    expect(report.count('csv.excel-text')).toBe(5);
    expect(report.examples('csv.excel-text')[0]).toMatchObject({
      location: 'row 2',
      message: expect.stringMatching(/: ="01234"$/) as string,
    });
    expect(report.errorCount).toBe(0);
    // Text that only begins with = is kept as written.
    const kept = await readText(
      'equals.csv',
      V3_HEADER + TALL_COLUMNS + TALL_ROW.replace('X-ray chest', '"=""A"" and B"'),
    );
    expect(kept.records[0]?.description).toBe('="A" and B');
    expect(kept.report.count('csv.excel-text')).toBe(0);
  });

  it('reads codes and payers beside no-break or zero-width spaces as the codes and payers they are', async () => {
    const rows =
      TALL_ROW.replace('71046', '71046\u00a0').replace('Aetna', 'Aetna\u200b') +
      TALL_ROW.replace('PPO', '\ufeffPPO').replace(',120,', ',130,');
    const { records, report } = await readText(
      'unseen-spaces.csv',
      V3_HEADER + TALL_COLUMNS + rows,
    );
    expect(records.flatMap((r) => r.codes.map((c) => c.code))).toEqual(['71046']);
    expect(records.flatMap((r) => r.payers.map((p) => [p.payerName, p.planName]))).toEqual([
      ['Aetna', 'PPO'],
      ['Aetna', 'PPO'],
    ]);
    expect(report.count('whitespace.trimmed')).toBe(3);
    expect(report.examples('whitespace.trimmed').map((e) => e.message.split(': ')[1])).toEqual([
      'code|1 "71046\\u00a0"',
      'payer_name "Aetna\\u200b"',
      'plan_name "\\ufeffPPO"',
    ]);
    expect(report.errorCount).toBe(0);
  });

  it('reads a file whose every line ends with a ; after its last value as if it had none', async () => {
    const row = (notes: string) =>
      TALL_ROW.replace('fee schedule,', `other,${notes}`).replace('\n', '');
    const lines = [
      ...V3_HEADER.trimEnd().split('\n'),
      TALL_COLUMNS.trimEnd(),
      row('Paid at 90%; see contract'),
      row(''),
    ];
    const plain = await readText('plain.csv', `${lines.join('\r\n')}\r\n`);
    const ended = await readText('ended.csv', `${lines.map((l) => `${l};`).join('\r\n')}\r\n`);
    // The notes column is found, and its values keep an inner ; and lose the last.
    expect(ended.records.flatMap((r) => r.payers.map((p) => p.notes))).toEqual([
      'Paid at 90%; see contract',
      null,
    ]);
    expect(ended.records).toEqual(plain.records);
    expect(ended.header.attesterName).toBe('A Person');
    expect(ended.report.examples('csv.line-end-semicolon').map((e) => e.location)).toEqual([
      'row 1',
    ]);
    expect(ended.report.count('column.unknown')).toBe(0);
    expect(ended.report.errorCount).toBe(plain.report.errorCount);

    // A ; at the end of a value alone is the value's: the first row says whether lines end with one.
    const notes = await readText(
      'notes.csv',
      `${lines.slice(0, 3).join('\n')}\n${row('See contract;')}\n`,
    );
    expect(notes.records.flatMap((r) => r.payers.map((p) => p.notes))).toEqual(['See contract;']);
    expect(notes.report.count('csv.line-end-semicolon')).toBe(0);
  });

  it('skips an Excel "sep=," line and empty rows around the header rows, not an empty values row', async () => {
    const [names = '', values = ''] = V3_HEADER.split('\n');
    const bent = await readText(
      'excel.csv',
      `sep=,\r\n,,,\r\n${names}\r\n${values}\r\n,,,,,,\r\n${TALL_COLUMNS}${TALL_ROW}`,
    );
    expect(bent.header.hospitalName).toBe('Test Hospital');
    expect(bent.records.map((r) => [r.location, r.description])).toEqual([
      ['row 7', 'X-ray chest'],
    ]);
    expect(bent.report.examples('csv.sep-line').map((e) => e.location)).toEqual(['row 1']);
    expect(bent.report.examples('csv.blank-header-row').map((e) => e.location)).toEqual([
      'row 2',
      'row 5',
    ]);
    expect(bent.report.errorCount).toBe(0);

    // A values row left empty is the values row: its fields are missing, the columns still read.
    const empty = await readText('no-values.csv', `${names}\n,,,,,,,,\n${TALL_COLUMNS}${TALL_ROW}`);
    expect(empty.records).toHaveLength(1);
    expect(empty.report.count('required.hospital_name')).toBe(1);
    expect(empty.report.count('csv.blank-header-row')).toBe(0);

    const semicolons = await failure(await file('sep.csv', `sep=;\n${V3_HEADER}${TALL_COLUMNS}`));
    expect(semicolons.code).toBe('wrong-delimiter');
    expect(semicolons.message).toBe(
      "The CSV's first line (sep=;) declares another delimiter than commas; CMS CSV files use commas.",
    );
  });

  it('passes a tall charge on in parts when its rows run past the most one record holds', async () => {
    const rows = Array.from({ length: MAX_RATES_PER_RECORD + 5 }, (_, i) =>
      TALL_ROW.replace('Aetna,PPO', `Aetna,PPO ${i}`),
    );
    const { records, report } = await readText(
      'long.csv',
      V3_HEADER + TALL_COLUMNS + rows.join(''),
    );
    expect(records.map((r) => [r.location, r.continues, r.payers.length])).toEqual([
      ['row 4', undefined, MAX_RATES_PER_RECORD],
      [`row ${MAX_RATES_PER_RECORD + 4}`, 1, 5],
    ]);
    expect(records[1]?.codes).toEqual(records[0]?.codes);
    expect(records[1]?.payers[0]?.planName).toBe(`PPO ${MAX_RATES_PER_RECORD}`);
    // One charge, however it was passed on.
    expect([report.recordsRead, report.payersRead]).toEqual([1, MAX_RATES_PER_RECORD + 5]);
    expect(report.warningCount).toBe(0);
  });

  it('adds a row to the charge of rows before it but not next to it (a file sorted by payer), and says so', async () => {
    const xray = TALL_ROW;
    const knee = TALL_ROW.replace('X-ray chest,71046', 'Knee MRI,73721');
    const cigna = (row: string) => row.replace('Aetna,PPO,120', 'Cigna,Open,130');
    const rows = [xray, knee, cigna(xray), cigna(knee), cigna(knee.replace('250,200', '260,200'))];
    const { records, report } = await readText(
      'by-payer.csv',
      V3_HEADER + TALL_COLUMNS + rows.join(''),
    );
    expect(records.map((r) => [r.location, r.description, r.continues])).toEqual([
      ['row 4', 'X-ray chest', undefined],
      ['row 5', 'Knee MRI', undefined],
      ['row 6', 'X-ray chest', 1],
      ['row 7', 'Knee MRI', 2],
      // Another gross charge: another charge.
      ['row 8', 'Knee MRI', undefined],
    ]);
    expect([report.recordsRead, report.payersRead]).toEqual([3, 5]);
    expect(report.examples('csv.charge-apart').map((e) => [e.location, e.message])).toEqual([
      ['row 6', expect.stringMatching(/: "X-ray chest"$/)],
      ['row 7', expect.stringMatching(/: "Knee MRI"$/)],
    ]);
    // Row 7 follows row 6, not its charge's row 5: apart too.
    expect(report.count('csv.charge-apart')).toBe(2);
  });

  it('mends a number whose thousands comma was not quoted, and rejects a row that does not line up', async () => {
    // With the row's last value not empty, values past the last column show a value was split.
    const noted = (row: string) => row.replace(/,\n$/, ',see contract\n');
    const unquoted = TALL_ROW.replace(',250,200,', ',1,250.00,200,')
      .replace(',120,', ',1,120,500,')
      .replace(',100,150,', ',100.00,150.00,');
    // "100,150" could be a split number too: which values belong together cannot be told.
    const ambiguous = noted(
      TALL_ROW.replace('X-ray chest', 'Ambiguous').replace(',250,200,', ',1,250,200,'),
    );
    const trailing = TALL_ROW.replace('X-ray chest', 'Trailing').replace('\n', ',\n');
    const shifted = noted(TALL_ROW.replace('X-ray chest', 'Shifted').replace('PPO', 'PPO,Gold'));
    const short = TALL_ROW.replace('X-ray chest', 'Short').replace(/,\n$/, '\n');
    // A min of 150 and a max of 400 read as one split number, when the comma that split the row
    // is the notes': joined, the notes' words would be the max, and the 150,400 the min.
    const notes = TALL_ROW.replace('X-ray chest', 'Notes')
      .replace(',250,200,', ',1250,200,')
      .replace(',100,150,', ',150,400,')
      .replace(/,\n$/, ',Includes contrast, if any\n');
    const { records, report } = await readText(
      'commas.csv',
      V3_HEADER + TALL_COLUMNS + unquoted + trailing + shifted + short + ambiguous + notes,
    );
    expect(records.map((r) => [r.description, r.gross, r.payers[0]?.dollar])).toEqual([
      ['X-ray chest', 1250, 1120500],
      ['Trailing', 250, 120],
      ['Short', 250, 120],
    ]);
    expect(report.examples('csv.unquoted-thousands')[0]?.message).toMatch(
      /: 1,250\.00, 1,120,500$/,
    );
    // Values past the last column that are no number's rest: the row is not read.
    expect(report.examples('csv.misaligned').map((e) => [e.location, e.message])).toEqual([
      ['row 6', expect.stringMatching(/: 23 values for 22 columns$/)],
      ['row 8', expect.stringMatching(/: 23 values for 22 columns$/)],
      ['row 9', expect.stringMatching(/: 23 values for 22 columns$/)],
    ]);
    expect(report.rejectedPayers).toBe(3);
    // Empty values past the last column, or a row short of them, are read, said once.
    expect(report.count('csv.field-count')).toBe(1);
    expect(report.toText({ examples: false, fatal: false })).toContain(
      '1 row has a different number of values than the header (the first such row; later ones are read without a word)',
    );
  });

  it('mends a split number in a row as wide as rows that end with an empty value', async () => {
    // Every row ends with an empty value past the last column, but for the split row, whose
    // own last value was empty: as wide as the others, its words where amounts go tell it.
    const trailing = (row: string) => row.replace('\n', ',\n');
    const first = trailing(TALL_ROW.replace('X-ray chest', 'First'));
    const split = TALL_ROW.replace('X-ray chest', 'Split').replace(',250,200,', ',1,250.00,200,');
    // A word in an amount that no join would move: "12,100" is no split number there.
    const worded = trailing(
      TALL_ROW.replace('X-ray chest', 'Worded').replace(
        ',120,,,,,,,100,',
        ',see contract,,,,,,12,100,',
      ),
    );
    const { records, report } = await readText(
      'trailing.csv',
      V3_HEADER + TALL_COLUMNS + first + split + worded,
    );
    expect(records.map((r) => [r.description, r.gross, r.discountedCash, r.min, r.max])).toEqual([
      ['First', 250, 200, 100, 150],
      ['Split', 1250, 200, 100, 150],
      ['Worded', 250, 200, 100, 150],
    ]);
    expect(records[1]?.payers.map((p) => [p.payerName, p.dollar])).toEqual([['Aetna', 120]]);
    expect(report.count('csv.unquoted-thousands')).toBe(1);
    expect(report.examples('csv.unquoted-thousands')[0]?.location).toBe('row 5');
  });

  it('remembers the most recent charges only, so memory stays flat', async () => {
    const charge = (n: number) => TALL_ROW.replace('X-ray chest', `Charge ${n}`);
    const rows = Array.from({ length: RECENT_CHARGES + 1 }, (_, n) => charge(n));
    // Charge 0 is forgotten by now; charge 2 is remembered.
    rows.push(charge(0).replace('Aetna', 'Cigna'), charge(2).replace('Aetna', 'Cigna'));
    const { records, report } = await readText(
      'many.csv',
      V3_HEADER + TALL_COLUMNS + rows.join(''),
    );
    expect(records.slice(-2).map((r) => [r.description, r.continues])).toEqual([
      ['Charge 0', undefined],
      ['Charge 2', 3],
    ]);
    expect(report.recordsRead).toBe(RECENT_CHARGES + 2);
    expect(report.count('csv.charge-apart')).toBe(1);
  });

  it('normalises Title Case enums, US dates and formatted numbers, with warnings', async () => {
    const header = V3_HEADER.replace('2026-01-15', '1/5/2026');
    const row = TALL_ROW.replace('outpatient', 'Outpatient')
      .replace('fee schedule', 'Fee Schedule')
      .replace(',250,', ',"$1,250.50",');
    const reader = await openMrf(await file('bent.csv', header + TALL_COLUMNS + row));
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(reader.header.lastUpdatedOn).toBe('2026-01-05');
    expect(records[0]).toMatchObject({ setting: 'outpatient', gross: 1250.5 });
    expect(records[0]?.payers[0]?.methodology).toBe('fee schedule');
    expect(reader.report.count('enum.title-case')).toBe(2);
    expect(reader.report.count('date.mm-dd-yyyy')).toBe(1);
    expect(reader.report.count('number.formatted')).toBe(1);
    expect(reader.report.errorCount).toBe(0);
  });

  it('applies the v3 rules: count for percentages, notes for "other" and for count "0"', async () => {
    const percentNoCount = TALL_ROW.replace(',120,,,,,,,', ',,80,,,,,,').replace(
      'fee schedule',
      'percent of total billed charges',
    );
    const otherNoNotes = TALL_ROW.replace('fee schedule', 'other');
    const zeroNoNotes = TALL_ROW.replace(',120,,,,,,,', ',,,formula,,,,0,');
    const zeroWithNotes = zeroNoNotes.replace(/,$/m, ',no claims in the period');
    const reader = await openMrf(
      await file(
        'rules.csv',
        V3_HEADER + TALL_COLUMNS + percentNoCount + otherNoNotes + zeroNoNotes + zeroWithNotes,
      ),
    );
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(reader.report.count('v3.count-required')).toBe(1);
    expect(reader.report.count('other.notes-required')).toBe(1);
    expect(reader.report.count('v3.count-zero-notes')).toBe(1);
    // Errors on the facts around a price, not on the price: reported, and the rates kept.
    expect(reader.report.rejected()).toBe(0);
    expect(records.flatMap((r) => r.payers)).toEqual([
      expect.objectContaining({ percentage: 80, count: null }),
      expect.objectContaining({ dollar: 120, methodology: 'other', notes: null }),
      expect.objectContaining({ algorithm: 'formula', count: '0' }),
      expect.objectContaining({ algorithm: 'formula', count: '0' }),
    ]);
    // A tall row's notes are its rate's.
    expect(records.at(-1)?.genericNotes).toBeNull();
    expect(records.flatMap((r) => r.payers).at(-1)?.notes).toBe('no claims in the period');
  });

  it('reads a count written in another form as CMS writes it, and leaves out one that is no count', async () => {
    // Each its own algorithm: rows whose counts read alike would be one rate written twice.
    const withCount = (count: string, i: number) =>
      TALL_ROW.replace(',120,,,,,,,', `,,,formula ${i + 1},90,80,100,"${count}",`);
    const counts = ['1 Through 10', '1-10', '1,200', '12.0', '5', '0012', 'many', '12.5', '25'];
    const reader = await openMrf(
      await file('counts.csv', V3_HEADER + TALL_COLUMNS + counts.map(withCount).join('')),
    );
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(records.flatMap((r) => r.payers.map((p) => p.count))).toEqual([
      '1 through 10',
      '1 through 10',
      '1200',
      '12',
      '1 through 10',
      '12',
      null,
      null,
      '25',
    ]);
    expect(reader.report.count('count.other-form')).toBe(6);
    expect(reader.report.count('v3.count-invalid')).toBe(2);
    expect(reader.report.count('v3.count-required')).toBe(0);
    expect(reader.report.rejected()).toBe(0);
    expect(reader.report.examples('v3.count-invalid')[0]?.message).toBe(
      'rate had a count other than "0", "1 through 10" or a number above 10 (the count left out): "many"',
    );
  });

  it('reports a charge whose dollar rate has no minimum and maximum, and keeps it', async () => {
    const noMinMax = TALL_ROW.replace(',100,150,', ',,,');
    const reader = await openMrf(
      await file(
        'minmax.csv',
        V3_HEADER + TALL_COLUMNS + noMinMax + TALL_ROW.replace('X-ray chest', 'Other'),
      ),
    );
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(records.map((r) => [r.description, r.min, r.payers.length])).toEqual([
      ['X-ray chest', null, 1],
      ['Other', 100, 1],
    ]);
    expect(reader.report.count('required.min-max')).toBe(1);
    expect(reader.report.errorCount).toBe(1);
    expect(reader.report.rejected()).toBe(0);
    expect(reader.report.toJSON().rules[0]).toMatchObject({ rule: 'required.min-max', count: 1 });
    expect(reader.report.toText()).toContain(
      'Error: 1 charge with a dollar rate had no minimum or maximum, kept all the same (rule required.min-max)',
    );
  });

  it('leaves out a code written without its type, or a type without its code, and keeps the charge by its other codes', async () => {
    const columns = TALL_COLUMNS.replace('code|1|type,', 'code|1|type,code|2,code|2|type,');
    const row = (codes: string, description: string) =>
      TALL_ROW.replace('X-ray chest,71046,CPT,', `${description},${codes},`);
    const csv = await readText(
      'half-codes.csv',
      V3_HEADER +
        columns +
        row('71046,CPT,0320,', 'No type') +
        row('71046,CPT,,RC', 'No code') +
        row(',CPT,,', 'Nothing whole'),
    );
    const json = await readJson('half-codes.json', {
      version: '3.0.0',
      standard_charge_information: [
        ['No type', [{ code: '71046', type: 'CPT' }, { code: '0320' }]],
        ['No code', [{ code: '71046', type: 'CPT' }, { type: 'RC' }]],
        ['Not an entry', [{ code: '71046', type: 'CPT' }, '0320']],
        ['Nothing whole', [{ type: 'CPT' }]],
      ].map(([description, codes]) => ({ ...OFFICE_VISIT, description, code_information: codes })),
    });
    for (const [name, { records, report }, halfCodes] of [
      ['csv', csv, 2],
      ['json', json, 3],
    ] as const) {
      expect(
        records.map((r) => [r.description, r.codes.map((c) => `${c.type} ${c.code}`)]),
        name,
      ).toEqual([
        ['No type', ['CPT 71046']],
        ['No code', ['CPT 71046']],
        ...(name === 'json' ? [['Not an entry', ['CPT 71046']]] : []),
      ]);
      expect(report.count('required.code_type'), name).toBe(1);
      expect(report.count('required.code_value'), name).toBe(halfCodes);
      // A charge with no whole code left is rejected, as one without codes is.
      expect(report.count('required.code'), name).toBe(1);
      expect(report.rejectedRecords, name).toBe(1);
    }
    expect(csv.report.toText()).toContain(
      'Error: 2 charges had code entries without a code (those entries left out), kept all the same (rule required.code_value)',
    );
  });

  it("reads nine 9s in an estimated or allowed amount as none, CMS's old sign for no claims data", async () => {
    const csv = await readText(
      'nines.csv',
      V3_HEADER +
        TALL_COLUMNS +
        'X-ray chest,71046,CPT,,outpatient,,,250,200,Aetna,PPO,,50,,999999999,100,999999999.00,11,100,150,' +
        'percent of total billed charges,\n',
    );
    const json = await readJson('nines.json', {
      version: '3.0.0',
      standard_charge_information: [
        {
          ...OFFICE_VISIT,
          standard_charges: [
            {
              setting: 'outpatient',
              payers_information: [
                {
                  payer_name: 'Aetna',
                  plan_name: 'PPO',
                  methodology: 'case rate',
                  standard_charge_algorithm: 'See contract',
                  median_amount: 999999999,
                  '10th_percentile': 100,
                  '90th_percentile': '999999999',
                  count: '11',
                },
              ],
            },
          ],
        },
      ],
    });
    for (const [name, { records, report }] of [
      ['csv', csv],
      ['json', json],
    ] as const) {
      // Not a median of $999,999,999, which the rate's dollar figure would have come from.
      expect(records[0]?.payers[0], name).toMatchObject({ median: null, p10: 100, p90: null });
      expect(report.count('number.nine-nines'), name).toBe(2);
      // Written, if unusable: its own warning alone (CMS's validator only alerts on nine 9s).
      expect(report.count('v3.percentiles-required'), name).toBe(0);
      expect(report.rejected(), name).toBe(0);
    }
  });

  it('keeps a rate whose estimated or allowed amount cannot be read, without that amount', async () => {
    const { records, report } = await readText(
      'allowed.csv',
      V3_HEADER +
        TALL_COLUMNS +
        'X-ray chest,71046,CPT,,outpatient,,,250,200,Aetna,PPO,120,,,abc,100,-5,11,100,150,fee schedule,\n',
    );
    expect(records[0]?.payers[0]).toMatchObject({ dollar: 120, median: null, p10: 100, p90: null });
    expect(report.count('allowed.invalid')).toBe(2);
    expect(report.rejected()).toBe(0);
    const json = await readText(
      'allowed.json',
      JSON.stringify({
        hospital_name: 'H',
        last_updated_on: '2025-01-01',
        version: '2.2.0',
        standard_charge_information: [
          {
            description: 'X-ray chest',
            code_information: [{ code: '71046', type: 'CPT' }],
            standard_charges: [
              {
                setting: 'outpatient',
                gross_charge: 250,
                payers_information: [
                  {
                    payer_name: 'Aetna',
                    plan_name: 'PPO',
                    standard_charge_percentage: 50,
                    estimated_amount: { amount: 125 },
                    methodology: 'percent of total billed charges',
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(json.records[0]?.payers[0]).toMatchObject({ percentage: 50, estimatedAmount: null });
    expect(json.report.examples('allowed.invalid').map((e) => e.message)).toEqual([
      'rate had an estimated or allowed amount that is not a number above 0 (that amount left out): estimated_amount should be a number',
    ]);
    expect(json.report.rejected()).toBe(0);
  });

  it("leaves a wide payer's notes where it has no rate, rather than rejecting a rate it never had", async () => {
    const { records, report } = await readText(
      'wide-notes.csv',
      `${V3_HEADER}description,code|1,code|1|type,setting,standard_charge|gross,` +
        'standard_charge|Aetna|PPO|negotiated_dollar,standard_charge|Aetna|PPO|methodology,' +
        'standard_charge|Cigna|HMO|negotiated_dollar,standard_charge|Cigna|HMO|methodology,' +
        'additional_payer_notes|Cigna|HMO,10th_percentile|Cigna|HMO,standard_charge|min,standard_charge|max\n' +
        'X-ray chest,71046,CPT,outpatient,250,120,fee schedule,,,N/A,,120,120\n' +
        'X-ray knee,73560,CPT,outpatient,300,140,fee schedule,,,,-5,140,140\n',
    );
    expect(records.map((r) => r.payers.map((p) => p.payerName))).toEqual([['Aetna'], ['Aetna']]);
    expect(report.rejected()).toBe(0);
    expect(report.count('csv.values-without-rate')).toBe(2);
    // A value that breaks its own rule is still said.
    expect(report.count('allowed.invalid')).toBe(1);
  });

  it('reports an EIN in the licence field as a warning', async () => {
    const header = V3_HEADER.replace(',1234,', ',04-2104691,');
    const reader = await openMrf(await file('ein.csv', header + TALL_COLUMNS + TALL_ROW));
    expect(reader.header.licenseNumber).toBe('04-2104691');
    expect(reader.report.count('license.ein')).toBe(1);
  });

  /** A v3 JSON file of one office visit whose type 2 NPIs are `npis`. */
  const v3JsonWithNpis = (npis: string[]) =>
    v3JsonHeader({ type_2_npi: npis, standard_charge_information: [OFFICE_VISIT] });

  it('reports a type 2 NPI that is no NPI as a warning, and keeps it as written', async () => {
    // 1194866210 is Martha's Vineyard's; the others have a digit wrong, one too few, or lost
    // theirs to a spreadsheet's scientific notation.
    const header = V3_HEADER.replace(
      ',1234567893,',
      ',1194866210|1194866211|119486621|1.19487E+09,',
    );
    const csv = await readText('npis.csv', header + TALL_COLUMNS + TALL_ROW);
    expect(csv.header.type2Npis).toEqual(['1194866210', '1194866211', '119486621', '1.19487E+09']);
    expect(csv.report.examples('npi.invalid').map((e) => [e.severity, e.location])).toEqual([
      ['warning', 'type_2_npi'],
      ['warning', 'type_2_npi'],
      ['warning', 'type_2_npi'],
    ]);
    expect(csv.report.examples('npi.invalid')[0]?.message).toContain('"1194866211"');
    expect(csv.records).toHaveLength(1);

    const json = await readJson('npis.json', v3JsonWithNpis(['1306938071', '0000000001']));
    expect(json.report.count('npi.invalid')).toBe(1);
    expect(json.report.examples('npi.invalid')[0]?.message).toContain('"0000000001"');
  });

  it('reads a type 2 NPI written as a decimal (pandas) without its decimals, with a warning', async () => {
    const header = V3_HEADER.replace(',1234567893,', ',1194866210.0|1306938071.00|1194866211.0,');
    const csv = await readText('decimal-npis.csv', header + TALL_COLUMNS + TALL_ROW);
    expect(csv.header.type2Npis).toEqual(['1194866210', '1306938071', '1194866211']);
    expect(csv.report.examples('npi.decimal').map((e) => e.message.split(': ')[1])).toEqual([
      '"1194866210.0"',
      '"1306938071.00"',
      '"1194866211.0"',
    ]);
    expect(csv.report.examples('npi.decimal')[0]?.location).toBe('row 2, type_2_npi');
    // Read so, the third still has a digit wrong; a decimal other than zeros is no NPI either.
    expect(csv.report.count('npi.invalid')).toBe(1);
    const other = await readText(
      'other.csv',
      V3_HEADER.replace(',1234567893,', ',1194866210.5,') + TALL_COLUMNS + TALL_ROW,
    );
    expect(other.header.type2Npis).toEqual(['1194866210.5']);
    expect(other.report.count('npi.decimal')).toBe(0);

    const json = await readJson('decimal-npis.json', v3JsonWithNpis(['1306938071.0']));
    expect(json.header.type2Npis).toEqual(['1306938071']);
    expect(json.report.examples('npi.decimal')[0]?.location).toBe('type_2_npi');
    expect(json.report.count('npi.invalid')).toBe(0);
  });

  it('fills header fields that a JSON file writes after its items', async () => {
    const json =
      '{"version":"3.0.0","standard_charge_information":[{"description":"A","code_information":[{"code":"1","type":"cpt"}],' +
      '"standard_charges":[{"setting":"both","gross_charge":5}]}],"hospital_name":"Late Hospital"}';
    const reader = await openMrf(await file('late.json', json));
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(records[0]?.codes).toEqual([{ code: '1', type: 'CPT' }]);
    expect(reader.header.hospitalName).toBe('Late Hospital');
  });

  it('skips an item or value larger than it builds, holding none of it, and reads on', async () => {
    const item = (description: string, notes = '') =>
      JSON.stringify({
        description,
        code_information: [{ code: '70551', type: 'CPT' }],
        standard_charges: [
          { setting: 'outpatient', gross_charge: 2000, additional_generic_notes: notes },
        ],
      });
    // Escaped quotes and backslashes all the way, so chunk ends fall between them.
    const long = 'a \\" b \\\\\\" c '.repeat(Math.ceil((MAX_VALUE_BYTES + (1 << 20)) / 14));
    const json =
      `{"hospital_name":"${long}","version":"3.0.0","standard_charge_information":[` +
      `${item('small A')},${item('huge', long)},${item('small B')}]}`;
    const { records, report } = await readText('huge-item.json', json);
    expect(records.map((r) => [r.location, r.description])).toEqual([
      ['standard_charge_information[0].standard_charges[0]', 'small A'],
      ['standard_charge_information[2].standard_charges[0]', 'small B'],
    ]);
    const size = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
    expect(report.examples('json.item-too-large')).toEqual([
      expect.objectContaining({
        location: 'standard_charge_information[1]',
        message: `item was larger than 16 MB and was not read: ${size(item('huge', long).length)}`,
      }),
    ]);
    expect(report.examples('json.value-too-large')).toEqual([
      expect.objectContaining({ location: 'hospital_name' }),
    ]);
    expect(report.count('required.hospital_name')).toBe(1);
    expect(report.rejectedRecords).toBe(1);
  });

  itWithDataFile(
    'reports what follows the JSON object instead of dropping it unseen',
    'cms-hpt-examples/v3_json_format_example.json',
    async (example) => {
      const original = await readFile(example);
      const readWith = async (tail: Buffer | string) => {
        const { records, report } = await readText(
          'after-end.json',
          Buffer.concat([original, Buffer.from(tail)]),
        );
        return { records: records.length, errors: report.examples('json.after-end') };
      };

      // Two documents written one after the other: the first is read, the second named.
      const twice = await readWith(original);
      expect(twice.records).toBe(25);
      expect(twice.errors).toHaveLength(1);
      expect(twice.errors[0]?.message).toBe(
        'file had text after the end of its JSON object, which was not read: ' +
          `${original.length} bytes, starting "{\\n  \\"hospital_name\\": \\"West Mercy Hospita"`,
      );
      expect((await readWith(' \r\n garbage')).errors[0]?.message).toMatch(
        /: 7 bytes, starting "garbage"$/,
      );
      // White space and NUL padding are not content.
      expect((await readWith(`\n\n  ${'\0'.repeat(512)}`)).errors).toEqual([]);
    },
  );

  it("keeps a drug's charge and prices without a unit or type it cannot read, and says so", async () => {
    const ndc = (description: string, unit: string, type: string) =>
      `${description},00409-4888-20,NDC,,outpatient,${unit},${type},50,40,Aetna,PPO,30,,,,,,,30,30,fee schedule,\n`;
    const csv = await readText(
      'drugs.csv',
      V3_HEADER +
        TALL_COLUMNS +
        ndc('Heparin a', '2', 'ML') +
        ndc('Heparin b', 'two', 'ML') +
        ndc('Heparin c', '-1', 'ML') +
        ndc('Heparin d', '1', 'VIAL') +
        ndc('Heparin e', 'two', 'VIAL'),
    );
    expect(
      csv.records.map((r) => [r.description, r.drugUnit, r.drugType, r.payers.length]),
    ).toEqual([
      ['Heparin a', 2, 'ML', 1],
      ['Heparin b', null, 'ML', 1],
      ['Heparin c', null, 'ML', 1],
      ['Heparin d', 1, null, 1],
      ['Heparin e', null, null, 1],
    ]);
    expect(csv.report.count('drug.unit-invalid')).toBe(3);
    expect(csv.report.count('enum.drug-type')).toBe(2);
    // Written, though unreadable: their own errors say so, as CMS's validator's do.
    expect(csv.report.count('required.drug-information')).toBe(0);
    expect(csv.report.count('required.drug-pair')).toBe(0);
    expect(csv.report).toMatchObject({ rejectedRecords: 0, rejectedPayers: 0 });

    // A 2.2.0 JSON file's unit is a string, which CMS's schema lets be any text.
    const json = await readText(
      'drugs.json',
      JSON.stringify({
        hospital_name: 'H',
        last_updated_on: '2026-01-01',
        version: '2.2.0',
        standard_charge_information: [
          {
            description: 'Heparin',
            code_information: [{ code: '00409-4888-20', type: 'NDC' }],
            drug_information: { unit: '1 vial', type: 'UN' },
            standard_charges: [{ setting: 'outpatient', gross_charge: 50 }],
          },
        ],
      }),
    );
    expect(json.records.map((r) => [r.drugUnit, r.drugType, r.gross])).toEqual([[null, 'UN', 50]]);
    expect(json.report.examples('drug.unit-invalid').map((e) => e.message)).toEqual([
      'charge had a drug unit that is not a number above 0 (that unit left out): drug_information.unit "1 vial"',
    ]);
  });

  it('keeps a charge and its rates when its own gross, cash, minimum or maximum cannot be read', async () => {
    const row = (description: string, gross: string, min: string) =>
      `${description},99213,CPT,,outpatient,,,${gross},40,Aetna,PPO,30,,,,,,,${min},30,fee schedule,\n`;
    const csv = await readText(
      'charge-amounts.csv',
      V3_HEADER +
        TALL_COLUMNS +
        row('Unreadable gross', 'abc', '30') +
        row('Negative gross', '-50', '30') +
        row('Unreadable minimum', '50', 'N/A30') +
        row('No minimum', '50', ''),
    );
    // Before session 44 the first three were rejected with their rates.
    expect(csv.records.map((r) => [r.description, r.gross, r.min, r.payers.length])).toEqual([
      ['Unreadable gross', null, 30, 1],
      ['Negative gross', null, 30, 1],
      ['Unreadable minimum', 50, null, 1],
      ['No minimum', 50, null, 1],
    ]);
    expect(csv.report.examples('charge.amount-invalid').map((e) => e.location)).toEqual([
      'row 4',
      'row 5',
      'row 6',
    ]);
    // A minimum written, though unreadable, has its own error, not the missing one's too (as in
    // CMS's validator).
    expect(csv.report.examples('required.min-max').map((e) => e.location)).toEqual(['row 7']);
    expect(csv.report.rejectedRecords).toBe(0);

    const json = await readText(
      'charge-amounts.json',
      JSON.stringify({
        hospital_name: 'H',
        last_updated_on: '2026-01-01',
        version: '3.0.0',
        standard_charge_information: [
          {
            description: 'Visit',
            code_information: [{ code: '99213', type: 'CPT' }],
            standard_charges: [
              {
                setting: 'outpatient',
                gross_charge: { amount: 50 },
                minimum: 'abc',
                maximum: 30,
                payers_information: [
                  {
                    payer_name: 'Aetna',
                    plan_name: 'PPO',
                    standard_charge_dollar: 30,
                    methodology: 'fee schedule',
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    expect(json.records.map((r) => [r.gross, r.min, r.max, r.payers.length])).toEqual([
      [null, null, 30, 1],
    ]);
    expect(json.report.count('charge.amount-invalid')).toBe(2);
    expect(json.report.count('required.min-max')).toBe(0);
  });

  it("says a drug's unit without its type, or its type without its unit, since 2.2.0", async () => {
    const row = (description: string, code: string, unit: string, type: string) =>
      `${description},${code},${/-/.test(code) ? 'NDC' : 'HCPCS'},,outpatient,${unit},${type},50,40,Aetna,PPO,30,,,,,,,30,30,fee schedule,\n`;
    const rows =
      row('Unit alone', 'J1644', '2', '') +
      row('Type alone', 'J1644', '', 'ML') +
      row('Both', 'J1644', '2', 'ML') +
      row('Neither', 'J1644', '', '') +
      row('NDC unit alone', '00409-4888-20', '2', '') +
      row('NDC neither', '00409-4888-20', '', '');
    const csv = await readText('drug-pairs.csv', V3_HEADER + TALL_COLUMNS + rows);
    // Each kept as written: a half still marks the item as a drug.
    expect(csv.records.map((r) => [r.description, r.drugUnit, r.drugType])).toEqual([
      ['Unit alone', 2, null],
      ['Type alone', null, 'ML'],
      ['Both', 2, 'ML'],
      ['Neither', null, null],
      ['NDC unit alone', 2, null],
      ['NDC neither', null, null],
    ]);
    expect(csv.report.examples('required.drug-pair').map((e) => e.location)).toEqual([
      'row 4',
      'row 5',
      'row 8',
    ]);
    expect(csv.report.examples('required.drug-information').map((e) => e.location)).toEqual([
      'row 9',
    ]);
    expect(csv.report.rejectedRecords).toBe(0);

    // CMS's rules for 2.1.0 know no such pair.
    const v21 = await readText(
      'drug-pairs-2.1.csv',
      V21_HEADER +
        V21_TALL_COLUMNS +
        row('Unit alone', 'J1644', '2', '').replace('30,,,,,,,30', '30,,,,30'),
    );
    expect(v21.records).toHaveLength(1);
    expect(v21.report.count('required.drug-pair')).toBe(0);

    // In JSON, drug_information asks both.
    const json = await readText(
      'drug-pairs.json',
      JSON.stringify({
        hospital_name: 'H',
        last_updated_on: '2026-01-01',
        version: '3.0.0',
        standard_charge_information: [
          {
            description: 'Heparin',
            code_information: [{ code: 'J1644', type: 'HCPCS' }],
            drug_information: { unit: 2 },
            standard_charges: [{ setting: 'outpatient', gross_charge: 50 }],
          },
        ],
      }),
    );
    expect(json.records.map((r) => [r.drugUnit, r.drugType])).toEqual([[2, null]]);
    expect(json.report.examples('required.drug-pair').map((e) => e.message)).toEqual([
      'charge had a drug unit without its type, or a type without its unit: no drug type',
    ]);
  });

  it("says what a JSON item's drug_information leaves out once per item, from what was written", async () => {
    const item = (code: string, drug?: unknown) => ({
      description: 'Heparin',
      code_information: [{ code, type: /-/.test(code) ? 'NDC' : 'HCPCS' }],
      ...(drug === undefined ? {} : { drug_information: drug }),
      standard_charges: [
        { setting: 'outpatient', gross_charge: 50 },
        { setting: 'inpatient', gross_charge: 60 },
      ],
    });
    const NDC = '00409-4888-20';
    const { records, report } = await readText(
      'drug-information.json',
      JSON.stringify({
        hospital_name: 'H',
        last_updated_on: '2026-01-01',
        version: '3.0.0',
        standard_charge_information: [
          item(NDC),
          item(NDC, { unit: 'two', type: 'VIAL' }),
          item(NDC, 'ML'),
          item('J1644', {}),
          item('J1644', null),
          item('J1644', []),
          item('J1644', { unit: '  ', type: 'ML' }),
        ],
      }),
    );
    // Every charge kept, two per item.
    expect(records).toHaveLength(14);
    expect(report.rejectedRecords).toBe(0);
    // An NDC with neither written: said once for its item, not once per standard charge.
    expect(report.examples('required.drug-information').map((e) => e.location)).toEqual([
      'standard_charge_information[0]',
    ]);
    // Both written, neither readable: their own errors only, as CMS's validator gives.
    expect(report.count('drug.unit-invalid')).toBe(1);
    expect(report.count('enum.drug-type')).toBe(1);
    // No object at all: left out and said, the charges kept.
    expect(report.examples('json.wrong-type-left-out').map((e) => [e.location, e.message])).toEqual(
      [
        [
          'standard_charge_information[2]',
          'value had the wrong JSON type and was left out: drug_information should be an object, not a string',
        ],
        [
          'standard_charge_information[5]',
          'value had the wrong JSON type and was left out: drug_information should be an object, not a list',
        ],
      ],
    );
    expect(
      report
        .examples('json.empty-value')
        .filter((e) => e.message.includes('drug_information'))
        .map((e) => [e.location, e.message.replace(/^.*: /, '')]),
    ).toEqual([
      ['standard_charge_information[3]', 'drug_information {}'],
      ['standard_charge_information[4]', 'drug_information null'],
      ['standard_charge_information[6]', 'drug_information.unit "  "'],
    ]);
    // A unit of spaces is none, as in a CSV cell: the type is alone.
    expect(report.examples('required.drug-pair').map((e) => e.location)).toEqual([
      'standard_charge_information[6]',
    ]);
  });

  it("keeps a JSON drug's charge whatever its type's shape, and says a 2.2.0 unit that is a number", async () => {
    const file = (version: string, drug: object) =>
      JSON.stringify({
        hospital_name: 'H',
        last_updated_on: '2026-01-01',
        version,
        standard_charge_information: [
          {
            description: 'Heparin',
            code_information: [{ code: 'J1644', type: 'HCPCS' }],
            drug_information: drug,
            standard_charges: [{ setting: 'outpatient', gross_charge: 50 }],
          },
        ],
      });
    for (const type of [{}, [], { code: 'ML' }]) {
      const shaped = await readText('drug-type-shape.json', file('3.0.0', { unit: 2, type }));
      // Before, a wrong JSON type (json.wrong-type) rejected the charge.
      expect(shaped.records.map((r) => [r.drugUnit, r.drugType, r.gross])).toEqual([[2, null, 50]]);
      expect(shaped.report.count('enum.drug-type')).toBe(1);
      expect(shaped.report.count('required.drug-pair')).toBe(0);
      expect(shaped.report.rejectedRecords).toBe(0);
    }
    // 2.2.0 asks the unit as a string (3.0.0 as a number): a number is read, and said.
    const numbered = await readText(
      'drug-unit-number.json',
      file('2.2.0', { unit: 2, type: 'ML' }),
    );
    expect(numbered.records.map((r) => [r.drugUnit, r.drugType])).toEqual([[2, 'ML']]);
    expect(numbered.report.examples('json.wrong-type-read').map((e) => e.message)).toEqual([
      "value had another JSON type than the schema's, and was read all the same: drug_information.unit 2",
    ]);
  });

  it("reads a CSV modifier's row without a setting, as CMS's CSV rules do", async () => {
    const { records, report } = await readText(
      'modifier-settings.csv',
      V3_HEADER +
        TALL_COLUMNS +
        TALL_ROW +
        // A modifier's row needs a description and one value, no setting (CMS v3 CSV dictionary).
        'Bilateral procedure,,,50,,,,,,Aetna,PPO,,150,,,,,,,,,\n' +
        'Co-surgeon,,,62,both,,,,,Aetna,PPO,,62.5,,,,,,,,,\n' +
        // One that is no CMS value is read as none (and said); a charge with a code needs one.
        'Assistant surgeon,,,80,clinic,,,,,Aetna,PPO,,16,,,,,,,,,\n' +
        'X-ray hand,73120,CPT,,,,,90,80,Aetna,PPO,60,,,,,,,50,70,fee schedule,\n',
    );
    expect(records.map((r) => [r.description, r.setting, r.modifiers])).toEqual([
      ['X-ray chest', 'outpatient', []],
      ['Bilateral procedure', null, ['50']],
      ['Co-surgeon', 'both', ['62']],
      ['Assistant surgeon', null, ['80']],
    ]);
    expect(report.count('required.setting')).toBe(1);
    expect(report.examples('required.setting').map((e) => e.location)).toEqual(['row 8']);
    expect(report.count('enum.setting')).toBe(0);
    const [odd] = report.examples('enum.modifier-setting');
    expect([odd?.severity, odd?.location, odd?.message.includes('"clinic"')]).toEqual([
      'error',
      'row 7',
      true,
    ]);
    expect(report.errorCount).toBe(2);
    expect(report).toMatchObject({ modifiersRead: 3, rejectedModifiers: 0, rejectedRecords: 1 });

    // Before 2.2.0 CMS's CSV rules know no modifier's row: every row needs a CMS setting.
    const v21 = await readText(
      'modifier-settings-2.1.csv',
      V21_HEADER +
        V21_TALL_COLUMNS +
        TALL_ROW.replace('120,,,,,,,', '120,,,,') +
        'Bilateral procedure,,,50,,,,,,Aetna,PPO,,150,,,,,,\n' +
        'Assistant surgeon,,,80,clinic,,,,,Aetna,PPO,,16,,,,,,\n',
    );
    expect(v21.records.map((r) => r.description)).toEqual(['X-ray chest']);
    expect(v21.report.count('required.setting')).toBe(1);
    expect(v21.report.count('enum.setting')).toBe(1);
    expect(v21.report.count('enum.modifier-setting')).toBe(0);
  });

  it('reads modifiers that pandas or a spreadsheet wrote as decimals, quoted or in lower case', async () => {
    const csv = await readText(
      'modifier-decimals.csv',
      V3_HEADER +
        TALL_COLUMNS +
        TALL_ROW.replace(',,outpatient', ",'26|tc,outpatient") +
        'Bilateral procedure,,,50.0,,,,,,Aetna,PPO,,150,,,,,,,,,\n',
    );
    expect(csv.records.map((r) => r.modifiers)).toEqual([['26', 'TC'], ['50']]);
    expect(csv.report.examples('code.apostrophe').map((e) => e.location)).toEqual(['row 4']);
    expect(csv.report.examples('code.lower-case')[0]?.message).toContain('modifier tc');
    expect(csv.report.examples('code.decimal')[0]?.message).toContain('modifier 50.0');

    const json = await readJson('modifier-decimals.json', {
      version: '3.0.0',
      standard_charge_information: [
        {
          ...OFFICE_VISIT,
          standard_charges: [{ setting: 'outpatient', gross_charge: 250, modifier_code: ['lt'] }],
        },
      ],
      modifier_information: [
        {
          description: 'Bilateral',
          code: '50.0',
          setting: 'both',
          modifier_payer_information: [
            { payer_name: 'Aetna', plan_name: 'PPO', description: '150% of the fee schedule' },
          ],
        },
      ],
    });
    expect(json.records.map((r) => r.modifiers)).toEqual([['LT'], ['50']]);
    expect(json.report.count('code.lower-case')).toBe(1);
    expect(json.report.examples('code.decimal').map((e) => e.location)).toEqual([
      'modifier_information[0]',
    ]);
  });

  it('reads modifier_information before or after the items; bad entries are kept out', async () => {
    const item =
      '{"description":"A","code_information":[{"code":"1","type":"CPT"}],' +
      '"standard_charges":[{"setting":"both","payers_information":[{"payer_name":"AETNA",' +
      '"plan_name":"PPO","standard_charge_dollar":5,"methodology":"fee schedule"}],' +
      '"minimum":5,"maximum":5}]}';
    const payer = (name: string, description?: string) =>
      JSON.stringify({ payer_name: name, plan_name: 'ppo', description });
    const modifiers = [
      `{"description":"Bilateral","code":"50 | LT","setting":"Both",` +
        `"modifier_payer_information":[${payer('Aetna', '150%')},${payer('Cigna')}]}`,
      `{"description":"No code","modifier_payer_information":[${payer('Aetna', 'x')}]}`,
      `{"description":"No payer","code":"62","modifier_payer_information":[]}`,
      `{"description":"Odd setting","code":"TC","setting":"clinic",` +
        `"modifier_payer_information":[${payer('Aetna', 'y')}]}`,
      `"not an object"`,
    ].join(',');
    for (const [name, json] of [
      [
        'before',
        `{"version":"3.0.0","modifier_information":[${modifiers}],` +
          `"standard_charge_information":[${item}]}`,
      ],
      [
        'after',
        `{"version":"3.0.0","standard_charge_information":[${item}],` +
          `"modifier_information":[${modifiers}]}`,
      ],
    ] as const) {
      const reader = await openMrf(await file(`modifiers-${name}.json`, json));
      const records: ChargeRecord[] = [];
      for await (const r of reader.records) records.push(r);
      expect(
        records.map((r) => r.location),
        name,
      ).toEqual([
        'standard_charge_information[0].standard_charges[0]',
        'modifier_information[0]',
        'modifier_information[3]',
      ]);
      expect(records[1]).toMatchObject({ modifiers: ['50', 'LT'], setting: 'both', codes: [] });
      // A setting that is no CMS value: read for every setting, and said.
      expect(records[2]).toMatchObject({ modifiers: ['TC'], setting: null });
      // "Aetna"/"ppo" is the item's "AETNA"/"PPO": one plan, as the file first spelt it.
      expect(records[1]?.payers).toEqual([
        expect.objectContaining({ payerName: 'AETNA', planName: 'PPO', notes: '150%' }),
      ]);
      const report = reader.report;
      expect(report.count('required.modifier-description')).toBe(1);
      expect(report.count('required.code')).toBe(1);
      expect(report.count('required.charge')).toBe(1);
      expect(report.count('enum.setting')).toBe(0);
      expect(report.count('enum.modifier-setting')).toBe(1);
      expect(report.count('json.wrong-type')).toBe(1);
      // Modifiers are counted apart from the charges: the file's one charge and its rate stand.
      expect(report).toMatchObject({
        recordsRead: 1,
        payersRead: 1,
        rejectedRecords: 0,
        rejectedPayers: 0,
        modifiersRead: 2,
        modifierEntriesRead: 2,
        rejectedModifiers: 3,
        rejectedModifierEntries: 2, // Cigna's, and that of the modifier with no code
      });
      const rule = report.toJSON().rules.find((r) => r.rule === 'required.modifier-description');
      expect(rule?.examples.map((e) => e.location)).toEqual([
        'modifier_information[0].modifier_payer_information[1]',
      ]);
    }
  });

  it('lets go of the file when closed before its records are read', async () => {
    const rows = Array.from({ length: 200 }, (_, i) =>
      TALL_ROW.replace('X-ray chest', `X-ray ${i}`),
    );
    const path = await file('unread.csv', V3_HEADER + TALL_COLUMNS + rows.join(''));
    const reader = await openMrf(path, { chunkSize: 1024 });
    expect(await openHandles(path)).toBe(1);
    await reader.close();
    expect(await openHandles(path)).toBe(0);
  });

  it('lets go of a file it refuses at its start', async () => {
    const rows = Array.from({ length: 200 }, () => TALL_ROW);
    const path = await file('no-header.csv', TALL_COLUMNS + rows.join(''));
    await expect(openMrf(path, { chunkSize: 1024 })).rejects.toThrow(MrfReadError);
    expect(await openHandles(path)).toBe(0);
  });
});

describe('encodings and compression', () => {
  const example = sharedDataFile('cms-hpt-examples/V3.0.0_Tall_CSV_Format_Example.csv');

  it('reads a JSON object written inside a list, and comments around its fields', async () => {
    const json = sharedDataFile('cms-hpt-examples/v3_json_format_example.json') as string;
    const text = await readFile(json, 'utf8');
    const expected = await readAll(json);
    const listed = await readText('listed.json', `[\n${text}\n]\n`);
    expect(listed.records).toEqual(expected);
    expect(listed.report.count('json.in-list')).toBe(1);
    expect(listed.report.count('json.after-end')).toBe(0);
    // A second object in the list is not read, and said.
    const two = await readText('two.json', `[${text}, ${text}]`);
    expect(two.report.examples('json.after-end')[0]?.message).toMatch(/bytes, starting ", \{/);
    // A key written twice at the top: its last value, said.
    const twice = await readText('twice.json', text.replace('{', '{"hospital_name": "Old name",'));
    expect(twice.report.examples('json.duplicate-key')[0]?.message).toMatch(/: hospital_name$/);
    // Comments before the object, between fields and items, and after it: read past, said.
    const commented =
      '// exported 2026-04-01\n/* RateLens */\n' +
      text
        .replace('\n  "version"', '\n  // the template\'s\n  "version"')
        .replace(
          '"standard_charge_information": [',
          '"standard_charge_information": [ /* items */',
        ) +
      '\n// end';
    for (const chunkSize of [undefined, 5]) {
      const read = await readWithReport(await file('commented.json', commented), { chunkSize });
      expect(read.records).toEqual(expected);
      expect(read.report.count('json.comment')).toBe(5);
      expect(read.report.count('json.after-end')).toBe(0);
    }
    // A comment over 1 MB without its end: between fields the file is broken; after the object,
    // text after its end, counted and not read.
    const endless = `/*${'x'.repeat(1_100_000)}`;
    const broken = await failure(await file('endless.json', text.replace('"version"', endless)));
    expect(broken.message).toMatch(/^The JSON has a comment running over 1 MB without its end/);
    const tail = await readText('tail.json', `${text}\n${endless}`);
    expect(tail.records).toEqual(expected);
    expect(tail.report.examples('json.after-end')[0]?.message).toMatch(/: 1100002 bytes, starting/);
    // First chunks of white space alone (a download's may be that short) do not make it a CSV.
    const spaced = await file('spaced.json', `${'\n'.repeat(12)}${text}`);
    expect((await readWithReport(spaced, { chunkSize: 5 })).records).toEqual(expected);
    // A comment and then no object: neither JSON nor a CSV's first row.
    const csv = await failure(await file('comment.csv', `// exported\nhospital_name,version\n`));
    expect(csv).toMatchObject({ code: 'not-a-mrf', records: 0 });
    expect(csv.message).toBe(
      'The file starts with a comment ("// exported"), which JSON does not have and a ' +
        "CSV's first row cannot be: remove the comments and the file may be read as JSON.",
    );
  });

  it('reads a JSON file after a UTF-8 BOM, whatever its line ends, exactly like the plain file', async () => {
    const json = sharedDataFile('cms-hpt-examples/v3_json_format_example.json') as string;
    const bytes = await readFile(json);
    const expected = await readAll(json);
    expect(expected.length).toBeGreaterThan(0);
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const crlf = Buffer.from(bytes.toString('utf8').replace(/\r?\n/g, '\r\n'));
    const variants = [
      Buffer.concat([bom, bytes]),
      Buffer.concat([bom, crlf]),
      Buffer.concat([bom, Buffer.from('\n'), bytes]),
    ];
    for (const [n, content] of variants.entries()) {
      expect(await readAll(await file(`bom-${n}.json`, content))).toEqual(expected);
    }
    // The mark split over the first pushes, as a slow server may send it.
    const parser = new JsonMrfParser(new ValidationReport());
    const first = variants[0] as Buffer;
    for (let at = 0; at < 4; at++) parser.push(first.subarray(at, at + 1));
    parser.push(first.subarray(4));
    parser.end();
    expect(parser.out).toHaveLength(expected.length);
  });

  it.skipIf(!example)(
    'reads a UTF-8 BOM, gzip and zip copy of an example exactly like the plain file',
    async () => {
      const bytes = await readFile(example as string);
      const expected = await readAll(example as string);
      expect(expected.length).toBeGreaterThan(0);
      const bom = await file('bom.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]));
      const gz = await file('example.csv.gz', gzipSync(bytes));
      const zip = await file('example.zip', zipOf('folder/example.csv', bytes));
      const bin = await file('misnamed.bin', gzipSync(bytes)); // detected by magic bytes, not name
      for (const path of [bom, gz, zip, bin]) expect(await readAll(path)).toEqual(expected);
      const reader = await openMrf(gz);
      for await (const record of reader.records) expect(record.description).not.toBe('');
      expect(reader.stats()).toMatchObject({ compression: 'gzip', complete: true });
    },
  );

  it.skipIf(!example)(
    'reads UTF-16 with or without a byte-order mark like the UTF-8 file, with a warning',
    async () => {
      // A typographic apostrophe and a character outside the BMP (a surrogate pair), cut across
      // chunks by an odd chunk size.
      const text = (await readFile(example as string, 'utf8')).replace(
        'MRI of brain (no contrast)',
        'Patient\u2019s \u{1F3E5} MRI of brain',
      );
      const utf8 = await file('utf8.csv', text);
      const expected = await readAll(utf8);
      expect(expected.some((r) => r.description.includes('\u2019s \u{1F3E5}'))).toBe(true);
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.from(le).swap16();
      const variants: [string, Buffer, string][] = [
        ['le-bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), le]), 'UTF-16LE'],
        ['be-bom.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'UTF-16BE'],
        ['le.csv', le, 'UTF-16LE'],
        ['be.csv', be, 'UTF-16BE'],
        ['le-bom.csv.gz', gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), le])), 'UTF-16LE'],
      ];
      for (const [name, bytes, encoding] of variants) {
        const path = await file(name, bytes);
        const reader = await openMrf(path, { chunkSize: 63 });
        const records: ChargeRecord[] = [];
        for await (const record of reader.records) records.push(record);
        expect(records, name).toEqual(expected);
        expect(
          reader.report.toJSON().rules.find((r) => r.rule === 'encoding.utf-16'),
        ).toMatchObject({
          severity: 'warning',
          count: 1,
          examples: [{ location: `file (${encoding})` }],
        });
        // The file's own bytes are what is counted and hashed.
        expect(reader.stats().bytes).toBe(bytes.length);
      }
      const json = sharedDataFile('cms-hpt-examples/v3_json_format_example.json');
      if (json) {
        const utf16 = Buffer.concat([
          Buffer.from([0xff, 0xfe]),
          Buffer.from(await readFile(json, 'utf8'), 'utf16le'),
        ]);
        expect(await readAll(await file('v3.json', utf16))).toEqual(await readAll(json));
      }
    },
  );

  it('decodes a Windows-1252 file whose first non-ASCII byte is deep inside', async () => {
    const filler = TALL_ROW.repeat(3000); // ~230 KB of ASCII before the first 0x92
    const tail = Buffer.from(TALL_ROW.replace('X-ray chest', 'Add\x92l view'), 'latin1');
    const path = await file(
      'cp1252.csv',
      Buffer.concat([Buffer.from(V3_HEADER + TALL_COLUMNS + filler), tail]),
    );
    const reader = await openMrf(path, { chunkSize: 4096 });
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(records.at(-1)?.description).toBe('Add\u2019l view');
    expect(reader.report.count('encoding.cp1252')).toBe(1);
    // The two header rows, the column names and 3,000 rows come before it.
    const [example] = reader.report.examples('encoding.cp1252');
    const at = Buffer.byteLength(V3_HEADER + TALL_COLUMNS + filler) + tail.indexOf(0x92);
    expect(example?.location).toBe('row 3004');
    expect(example?.message).toContain(`0x92 at byte ${at.toLocaleString('en-US')}, read as "’"`);
  });

  it('names the line of a Windows-1252 byte in a CSV with CR line ends and a value over two lines', async () => {
    const text =
      V3_HEADER +
      TALL_COLUMNS +
      TALL_ROW.replace('X-ray chest', '"X-ray\nchest"') +
      TALL_ROW.replace('X-ray chest', 'Café Add#l view');
    const bytes = Buffer.from(text.replaceAll('\n', '\r'));
    bytes[bytes.indexOf('#')] = 0x92;
    for (const chunkSize of [7, 4096]) {
      const { records, report } = await readWithReport(await file('cr-cp1252.csv', bytes), {
        chunkSize,
      });
      expect(records.map((r) => r.description)).toEqual(['X-ray\nchest', 'Café Add\u2019l view']);
      // The header rows are lines 1–2, the column names line 3, the first charge lines 4–5.
      expect(report.examples('encoding.cp1252').map((e) => e.location)).toEqual(['row 6']);
    }
  });

  it('reads UTF-8 and Windows-1252 mixed in one JSON item, and names the item', async () => {
    const item = (description: string) => ({
      description,
      code_information: [{ code: '71045', type: 'CPT' }],
      standard_charges: [{ setting: 'outpatient', gross_charge: 100 }],
    });
    const json = JSON.stringify({
      hospital_name: 'Test Hospital',
      last_updated_on: '2026-01-15',
      version: '3.0.0',
      standard_charge_information: [item('Café'), item('Café Add#L view'), item('X-ray')],
    });
    // The second item's "#" becomes a Windows-1252 apostrophe beside UTF-8 "é".
    const bytes = Buffer.from(json);
    const at = bytes.indexOf('#');
    bytes[at] = 0x92;
    const { records, report } = await readText('mixed.json', bytes);
    expect(records.map((r) => r.description)).toEqual(['Café', 'Café Add\u2019L view', 'X-ray']);
    expect(report.count('encoding.cp1252')).toBe(1);
    expect(report.examples('encoding.cp1252')[0]).toMatchObject({
      location: 'standard_charge_information[1]',
      message: expect.stringContaining(`0x92 at byte ${at}, read as "’": "`) as unknown,
    });
  });
});

describe('http(s) sources', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/mrf.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(V3_HEADER + TALL_COLUMNS + TALL_ROW);
      } else if (req.url === '/encoded.csv') {
        // Compressed for the wire: the length announced is the compressed one.
        const body = gzipSync(V3_HEADER + TALL_COLUMNS + tallRows(50));
        res.writeHead(200, {
          'content-type': 'text/csv',
          'content-encoding': 'gzip',
          'content-length': String(body.length),
        });
        res.end(body);
      } else if (req.url === '/endless.csv') {
        // An answer that never ends: a charge every millisecond, until the reader hangs up.
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write(V3_HEADER + TALL_COLUMNS);
        const more = setInterval(() => res.write(TALL_ROW.repeat(20)), 1);
        res.on('close', () => clearInterval(more));
      } else if (req.url === '/bomb.csv.gz') {
        // 120 bytes of gzip a 100 KB limit lets through, then unpacking to a megabyte.
        res.writeHead(200, { 'content-type': 'application/gzip' });
        res.end(gzipSync(V3_HEADER + TALL_COLUMNS + TALL_ROW.repeat(10_000)));
      } else if (req.url === '/silent.csv') {
        // The connection is taken, and nothing is ever said.
      } else if (req.url === '/trickle.csv') {
        // Three charges, 50 ms apart: a server well within the stall time. The first part is
        // longer than what the reader looks at to tell the format, so it starts reading on it.
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write(
          V3_HEADER +
            TALL_COLUMNS +
            TALL_ROW.replace('X-ray chest', `X-ray chest${' PA'.repeat(1500)}`),
        );
        const next = TALL_ROW.replace('X-ray chest,71046', 'MRI knee,73721');
        setTimeout(() => res.write(next), 50);
        setTimeout(() => res.end(next.replace('MRI knee,73721', 'CT head,70450')), 100);
      } else if (req.url === '/dribble.csv') {
        // A charge, then 16 bytes every 20 ms for ever: never quiet for long, never done.
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write(V3_HEADER + TALL_COLUMNS + TALL_ROW);
        let at = 0;
        const more = setInterval(() => {
          res.write(TALL_ROW.repeat(2).slice(at, at + 16));
          at = (at + 16) % TALL_ROW.length;
        }, 20);
        res.on('close', () => clearInterval(more));
      } else if (req.url === '/stalls.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write(V3_HEADER + TALL_COLUMNS + TALL_ROW);
      } else if (req.url === '/broken.csv') {
        // Half of what was announced, then the connection is lost.
        const body = Buffer.from(V3_HEADER + TALL_COLUMNS + TALL_ROW.repeat(2000));
        res.writeHead(200, { 'content-length': String(body.length * 2) });
        res.write(body, () => res.destroy());
      } else {
        res.writeHead(404, 'Not Found');
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads a file by URL and counts the bytes served', async () => {
    const reader = await openMrf(`${base}/mrf.csv`);
    const records: ChargeRecord[] = [];
    for await (const r of reader.records) records.push(r);
    expect(reader.header.hospitalName).toBe('Test Hospital');
    expect(records[0]?.payers[0]).toMatchObject({ payerName: 'Aetna', dollar: 120 });
    expect(reader.stats().bytes).toBe(Buffer.byteLength(V3_HEADER + TALL_COLUMNS + TALL_ROW));
  });

  it('stops a download, unpacked, past INGEST_MAX_DOWNLOAD_GB: an endless answer, a gzip bomb', async () => {
    vi.stubEnv('INGEST_MAX_DOWNLOAD_GB', '0.0001');
    try {
      for (const path of ['/endless.csv', '/bomb.csv.gz']) {
        const result = await failure(`${base}${path}`);
        expect(result.code).toBe('too-large');
        expect(result.message).toBe(
          `${base}${path} gave more than 0.0001 GB, the most a download is read (INGEST_MAX_DOWNLOAD_GB).`,
        );
      }
      // Hashed first (the refresh asks whether it changed), spooled to disk: stopped as well.
      const spoolTo = join(await mkdtemp(join(tmpdir(), 'ratelens-spool-')), 'endless.csv');
      await expect(hashDownload(`${base}/endless.csv`, () => true, { spoolTo })).rejects.toThrow(
        'gave more than 0.0001 GB',
      );
      await expect(readFile(spoolTo)).rejects.toMatchObject({ code: 'ENOENT' });
      // A file of this machine's own is the operator's: no limit.
      const local = await file('big.csv', Buffer.from(V3_HEADER + TALL_COLUMNS + tallRows(2000)));
      let rates = 0;
      for await (const record of (await openMrf(local)).records) rates += record.payers.length;
      expect(rates).toBe(2000);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('reads a file sent with Content-Encoding: gzip, its total then unknown', async () => {
    const reader = await openMrf(`${base}/encoded.csv`);
    let rates = 0;
    for await (const record of reader.records) rates += record.payers.length;
    expect(rates).toBe(50);
    // The bytes counted are the file's, after the wire's compression, as a path would give them.
    const plain = V3_HEADER + TALL_COLUMNS + tallRows(50);
    expect(reader.stats()).toMatchObject({ bytes: Buffer.byteLength(plain), totalBytes: null });
    expect(reader.stats().sha256).toBe(createHash('sha256').update(plain).digest('hex'));
  });

  it('says when the connection is lost halfway through the file', async () => {
    const result = await failure(`${base}/broken.csv`);
    expect(result.code).toBe('http-error');
    expect(result.message).toMatch(
      new RegExp(`^The download of ${base}/broken\\.csv broke off after \\d+ bytes: `),
    );
  });

  it('gives up on a server that does not answer, or stops sending, for the stall time', async () => {
    const silent = await failure(`${base}/silent.csv`, { stallMs: 300 });
    expect(silent).toMatchObject({
      code: 'server-silent',
      message: `The server of ${base}/silent.csv did not answer within 0.3 s.`,
    });
    const stalls = await failure(`${base}/stalls.csv`, { stallMs: 300 });
    expect(stalls.code).toBe('server-silent');
    expect(stalls.message).toMatch(
      new RegExp(
        `^The download of ${base}/stalls\\.csv broke off after \\d+ bytes: the server sent nothing for 0\\.3 s\\.$`,
      ),
    );
  });

  it('gives up on a server that sends less than 64 KB in the stall time, however often', async () => {
    const dribble = await failure(`${base}/dribble.csv`, { stallMs: 300 });
    expect(dribble.code).toBe('server-silent');
    expect(dribble.message).toMatch(
      new RegExp(
        `^The download of ${base}/dribble\\.csv broke off after \\d+ bytes: the server sent \\d+ bytes in 0\\.3 s of waiting, less than the 64 KB it must\\.$`,
      ),
    );
  });

  it('says a silent server when asked for the files of a zip, as the read would wait as long', async () => {
    await expect(zipFiles(`${base}/silent.csv`, { stallMs: 300 })).rejects.toMatchObject({
      code: 'server-silent',
    });
    // Any other failure leaves it to the read to say.
    expect(await zipFiles(`${base}/missing.csv`)).toBeNull();
  });

  it('does not count the time the reader itself takes as the server stalling', async () => {
    const reader = await openMrf(`${base}/trickle.csv`, { stallMs: 400 });
    const codes: (string | undefined)[] = [];
    for await (const record of reader.records) {
      // Longer than the stall time, as a slow database would take.
      await new Promise((resolve) => setTimeout(resolve, 600));
      codes.push(record.codes[0]?.code);
    }
    expect(codes).toEqual(['71046', '73721', '70450']);
  });

  it('ends with "cancelled" when the read is cancelled while the reader holds a part', async () => {
    const cancel = new AbortController();
    const reader = await openMrf(`${base}/trickle.csv`, { signal: cancel.signal });
    let records = 0;
    const ending = (async () => {
      for await (const record of reader.records) {
        records += record ? 1 : 0;
        // The server has sent the rest by now, and no read of the body is pending.
        await new Promise((resolve) => setTimeout(resolve, 300));
        cancel.abort();
      }
    })();
    await expect(ending).rejects.toMatchObject({
      code: 'aborted',
      message: 'The read was cancelled.',
    });
    expect(records).toBe(1);
  });

  it('says what the server answered for a missing URL', async () => {
    const result = await failure(`${base}/missing.csv`);
    expect(result.code).toBe('http-error');
    expect(result.message).toContain('404');
  });
});

describe('zip archives with more than one file', () => {
  const csv = (name: string) =>
    Buffer.from(V3_HEADER.replace('Test Hospital', name) + TALL_COLUMNS + TALL_ROW);
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  /** Reads the archive to its end; the records, the report's other-file rule and the stats. */
  async function readZip(bytes: Buffer) {
    const reader = await openMrf(await file('archive.zip', bytes), { chunkSize: 64 });
    const hospitals: string[] = [];
    for await (const record of reader.records) hospitals.push(record.description);
    const rule = reader.report.toJSON().rules.find((r) => r.rule === 'archive.other-file');
    return { reader, hospital: reader.header.hospitalName, rule, stats: reader.stats() };
  }

  it('reads the first file, names the others in the report, and hashes the whole archive', async () => {
    const bytes = zipArchive([
      { name: 'mrf/' },
      { name: 'mrf/a.csv', content: csv('Hospital A') },
      { name: '__MACOSX/mrf/._a.csv', content: Buffer.from('resource fork') },
      { name: 'mrf/b.csv', content: csv('Hospital B'), method: 0 },
      { name: 'mrf/c.json', content: Buffer.from('{}') },
    ]);
    const { reader, hospital, rule, stats } = await readZip(bytes);
    expect(hospital).toBe('Hospital A');
    expect(rule).toMatchObject({ severity: 'warning', count: 2 });
    expect(rule?.examples.map((e) => e.location)).toEqual(['mrf/b.csv', 'mrf/c.json']);
    expect(reader.report.toText()).toContain(
      'Warning: 2 other files in the zip archive were not read, only its first (rule archive.other-file), first at mrf/b.csv',
    );
    expect(stats).toMatchObject({ compression: 'zip', complete: true, bytes: bytes.length });
    expect(stats.sha256).toBe(sha256(bytes));
  });

  it('finds the others after a file whose sizes follow its data (a data descriptor)', async () => {
    const bytes = zipArchive([
      { name: 'a.csv', content: csv('Hospital A'), descriptor: true },
      { name: 'b.csv', content: csv('Hospital B'), descriptor: true },
    ]);
    const { hospital, rule, stats } = await readZip(bytes);
    expect(hospital).toBe('Hospital A');
    expect(rule?.examples.map((e) => e.location)).toEqual(['b.csv']);
    expect(stats.sha256).toBe(sha256(bytes));
  });

  it("refuses a file whose bytes do not match the archive's checksum, and names it", async () => {
    const a = csv('Hospital A');
    // One price changed in the stored bytes, the length kept: only the CRC-32 can tell.
    const damage = (bytes: Buffer) => {
      const at = bytes.indexOf('120,,,');
      expect(at).toBeGreaterThan(0);
      const copy = Buffer.from(bytes);
      copy.write('9', at);
      return copy;
    };
    const mismatch = {
      code: 'unsupported-archive',
      message:
        'The zip archive is damaged: the bytes of "a.csv" do not match its checksum (CRC-32), ' +
        'so they are not the ones the archive was made with.',
    };
    // Streamed, the CRC-32 from the file's header; read by its name, from the directory.
    const stored = await file(
      'stored.zip',
      damage(zipArchive([{ name: 'a.csv', content: a, method: 0 }])),
    );
    for (const source of [stored, `${stored}#a.csv`]) {
      for (const chunkSize of [7, 64 * 1024]) {
        expect(await failure(source, { chunkSize })).toMatchObject(mismatch);
      }
    }
    // With the CRC-32 after the data (a descriptor), from the directory at the archive's end.
    const streamed = zipArchive([
      { name: 'a.csv', content: a, descriptor: true },
      { name: 'b.csv', content: csv('Hospital B') },
    ]);
    const second = streamed.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
    const first = streamed.indexOf(Buffer.from('PK\x01\x02', 'latin1'));
    expect(second).toBeGreaterThan(first);
    const wrong = Buffer.from(streamed);
    wrong.writeUInt32LE((wrong.readUInt32LE(first + 16) + 1) >>> 0, first + 16);
    expect((await failure(await file('descriptor.zip', wrong))).message).toBe(mismatch.message);
    // The archive's other file, whole, still reads.
    expect((await openMrf(`${await file('other.zip', wrong)}#b.csv`)).header.hospitalName).toBe(
      'Hospital B',
    );
  });

  it('refuses a file of an archive at a URL replaced between its Range requests', async () => {
    const version = (price: string) =>
      zipArchive([
        {
          name: 'a.csv',
          content: Buffer.from(csv('Hospital A').toString().replace('120,', price)),
          method: 0,
        },
      ]);
    const before = version('120,');
    const after = version('980,');
    expect(after.length).toBe(before.length);
    // The first three answers (the archive's start, its directory, the file's header) are of
    // the archive as it was; its data comes from the one that replaced it.
    let asked = 0;
    const files = new Proxy<Record<string, Buffer>>(
      {},
      {
        get: (_target, path) =>
          path === '/system.zip' ? (asked++ < 3 ? before : after) : undefined,
      },
    );
    const server = await serveFiles(files);
    try {
      expect(await failure(`${server.url('/system.zip')}#a.csv`)).toMatchObject({
        code: 'unsupported-archive',
        message: expect.stringContaining('do not match its checksum (CRC-32)') as string,
      });
      expect(server.statuses).toEqual([206, 206, 206, 206]);
    } finally {
      await server.close();
    }
  });

  it('reads a zip64 directory, and says nothing of an archive with one file', async () => {
    const two = zipArchive(
      [
        { name: 'a.csv', content: csv('Hospital A') },
        { name: 'b.csv', content: csv('Hospital B') },
      ],
      { zip64: true },
    );
    expect(centralDirectory(two)?.map((e) => e.name)).toEqual(['a.csv', 'b.csv']);
    expect((await readZip(two)).rule?.count).toBe(1);
    const one = await readZip(zipArchive([{ name: 'a.csv', content: csv('Hospital A') }]));
    expect(one.rule).toBeUndefined();
    expect(one.stats.complete).toBe(true);
  });

  it('lists the files of a local archive that has several, and reads one by its name', async () => {
    const b = csv('Hospital B');
    for (const options of [{}, { zip64: true }]) {
      const archive = await file(
        'system.zip',
        zipArchive(
          [
            { name: 'mrf/' },
            { name: 'mrf/a.csv', content: csv('Hospital A'), descriptor: true },
            { name: '__MACOSX/mrf/._a.csv', content: Buffer.from('resource fork') },
            { name: 'mrf/b.csv', content: b },
            { name: 'mrf/c.csv', content: csv('Hospital C'), method: 0 },
          ],
          options,
        ),
      );
      expect(await zipFiles(archive)).toEqual(['mrf/a.csv', 'mrf/b.csv', 'mrf/c.csv']);
      for (const [name, hospital] of [
        ['mrf/a.csv', 'Hospital A'],
        ['mrf/b.csv', 'Hospital B'],
        ['mrf/c.csv', 'Hospital C'],
      ]) {
        const reader = await openMrf(`${archive}#${name}`, { chunkSize: 64 });
        const records: ChargeRecord[] = [];
        for await (const record of reader.records) records.push(record);
        expect(reader.header.hospitalName).toBe(hospital);
        expect(records).toHaveLength(1);
        expect(reader.report.count('archive.other-file')).toBe(0);
        expect(reader.stats()).toMatchObject({ compression: 'zip', complete: true });
      }
      // Only that file's bytes, as stored in the archive, are read and hashed.
      const reader = await openMrf(`${archive}#mrf/b.csv`);
      for await (const record of reader.records) void record;
      const stored = deflateRawSync(b);
      expect(reader.stats()).toMatchObject({ bytes: stored.length, sha256: sha256(stored) });
    }
  });

  it('says which file an archive lacks; a path with a "#" of its own is a file', async () => {
    const archive = await file(
      'two.zip',
      zipArchive([
        { name: 'a.csv', content: csv('Hospital A') },
        { name: 'b.csv', content: csv('Hospital B') },
      ]),
    );
    const missing = await failure(`${archive}#c.csv`);
    expect(missing).toMatchObject({
      code: 'source-not-found',
      message: 'The zip archive two.zip has no file named "c.csv".',
    });
    expect((await failure(`${await file('plain.csv', 'x')}#a.csv`)).code).toBe(
      'unsupported-archive',
    );
    const hashed = await file('file#1.csv', csv('Hospital Hash'));
    expect((await openMrf(hashed)).header.hospitalName).toBe('Hospital Hash');
    // One file, or not a zip: nothing to list.
    expect(
      await zipFiles(await file('one.zip', zipArchive([{ name: 'a.csv', content: csv('A') }]))),
    ).toBeNull();
    expect(await zipFiles(hashed)).toBeNull();
    expect(await zipFiles(join(dir, 'absent.zip'))).toBeNull();
  });

  it('reads one file of an archive at a URL by HTTP Range requests, not the whole archive', async () => {
    const b = csv('Hospital B');
    // A first file larger than the directory's read (1 MiB), so that a whole download would show.
    const filler = Buffer.alloc(2 << 20, 'x');
    const archive = zipArchive([
      { name: 'mrf/a.bin', content: filler, method: 0 },
      { name: 'mrf/b.csv', content: b, descriptor: true },
      { name: 'mrf/c d.csv', content: csv('Hospital C'), method: 0 },
    ]);
    const server = await serveFiles({ '/system.zip': archive, '/plain.csv': csv('Plain') });
    try {
      const url = server.url('/system.zip');
      expect(await zipFiles(url)).toEqual(['mrf/a.bin', 'mrf/b.csv', 'mrf/c d.csv']);
      expect(server.ranges).toEqual(['bytes=0-3', 'bytes=-1048576']);
      // One of its files named is that file, not the archive's list again (asked of nobody).
      expect(await zipFiles(`${url}#mrf/b.csv`)).toBeNull();
      expect(server.ranges).toHaveLength(2);

      const before = server.served();
      const reader = await openMrf(`${url}#mrf/b.csv`, { chunkSize: 64 });
      const records: ChargeRecord[] = [];
      for await (const record of reader.records) records.push(record);
      expect(reader.header.hospitalName).toBe('Hospital B');
      expect(records).toHaveLength(1);
      const stored = deflateRawSync(b);
      // The same bytes and hash as the file read from a local copy of the archive.
      expect(reader.stats()).toMatchObject({
        compression: 'zip',
        complete: true,
        bytes: stored.length,
        sha256: sha256(stored),
      });
      expect(server.served() - before).toBeLessThan(archive.length - filler.length / 2);

      // A name as a fragment may carry it, percent-encoded.
      expect((await openMrf(`${url}#mrf/c%20d.csv`)).header.hospitalName).toBe('Hospital C');
      expect(await failure(`${url}#mrf/e.csv`)).toMatchObject({
        code: 'source-not-found',
        message: `The zip archive ${url} has no file named "mrf/e.csv".`,
      });
      expect((await failure(`${server.url('/plain.csv')}#a.csv`)).code).toBe('unsupported-archive');
      server.ranges.length = 0;
      expect(await zipFiles(server.url('/plain.csv'))).toBeNull();
      expect(server.ranges).toEqual(['bytes=0-3']);
      expect((await failure(`${server.url('/absent.zip')}#a.csv`)).message).toContain('404');
      expect(await zipFiles(server.url('/absent.zip'))).toBeNull();
    } finally {
      await server.close();
    }
  });

  it("keeps a URL's validators, and asks with them for the file only if it changed", async () => {
    const files = { '/a.csv': csv('Hospital A') };
    const server = await serveFiles(files, { validators: true });
    try {
      const url = server.url('/a.csv');
      const reader = await openMrf(url);
      for await (const record of reader.records) void record;
      const validators = reader.stats().validators;
      expect(validators?.etag).toMatch(/^"[0-9a-f]{16}"$/);
      expect(validators?.lastModified).toBe('Wed, 01 Apr 2026 10:00:00 GMT');
      expect(await failure(url, { ifChanged: validators ?? undefined })).toMatchObject({
        code: 'not-modified',
        message: `The server says ${url} has not changed since the copy loaded (HTTP 304 Not Modified).`,
      });
      // Either validator alone is asked with.
      expect(
        (
          await failure(url, {
            ifChanged: { etag: null, lastModified: validators?.lastModified ?? null },
          })
        ).code,
      ).toBe('not-modified');
      files['/a.csv'] = csv('Hospital A Renamed');
      const changed = await openMrf(url, { ifChanged: validators ?? undefined });
      expect(changed.header.hospitalName).toBe('Hospital A Renamed');
      await changed.close();
      expect(server.statuses).toEqual([200, 304, 304, 200]);
      // A local file has none.
      const local = join(dir, 'local.csv');
      await writeFile(local, csv('Hospital L'));
      expect((await openMrf(local)).stats().validators).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('reads the first file of an archive at a URL whose server sends whole files only', async () => {
    const archive = zipArchive([
      { name: 'a.csv', content: csv('Hospital A') },
      { name: 'b.csv', content: csv('Hospital B') },
    ]);
    const server = await serveFiles({ '/system.zip': archive }, { ranges: false });
    try {
      const url = server.url('/system.zip');
      expect(await zipFiles(url)).toBeNull();
      expect(await failure(`${url}#b.csv`)).toMatchObject({
        code: 'http-error',
        message:
          `The server of ${url} does not send parts of files (HTTP Range requests), so one file ` +
          'of the zip archive cannot be read alone; download the archive and ingest it from disk.',
      });
      const reader = await openMrf(url);
      for await (const record of reader.records) void record;
      expect(reader.header.hospitalName).toBe('Hospital A');
      expect(reader.report.count('archive.other-file')).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('has no names when the end of the directory is missing or damaged', () => {
    const bytes = zipArchive([{ name: 'a.csv', content: csv('Hospital A') }]);
    expect(centralDirectory(bytes.subarray(0, bytes.length - 22))).toBeNull();
    // The last bytes kept hold the end record and only part of the directory.
    expect(centralDirectory(bytes.subarray(bytes.length - 22 - 20))).toBeNull();
  });
});

/** A one-entry zip archive (deflate, sizes in the local header), plus a directory entry first. */
function zipOf(name: string, content: Buffer): Buffer {
  const entry = (entryName: string, data: Buffer, method: number, raw: Buffer) => {
    const nameBytes = Buffer.from(entryName);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(crc32(raw), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(raw.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    return Buffer.concat([header, nameBytes, data]);
  };
  const deflated = deflateRawSync(content);
  return Buffer.concat([
    entry('folder/', Buffer.alloc(0), 0, Buffer.alloc(0)),
    entry(name, deflated, 8, content),
    Buffer.from('PK\x01\x02central directory follows', 'latin1'),
  ]);
}

describe('stillThere', () => {
  it('finds a local file, or the archive of a member named with #; takes a URL to be there', async () => {
    const plain = await file('there.json', '{}');
    const archive = await file(
      'there.zip',
      zipArchive([{ name: 'a.json', content: Buffer.from('{}') }]),
    );
    // A path with a # of its own is a file, not a member.
    const hashed = await file('odd#name.json', '{}');
    expect(await stillThere(plain)).toBe(true);
    expect(await stillThere(`${archive}#a.json`)).toBe(true);
    expect(await stillThere(hashed)).toBe(true);
    expect(await stillThere(join(dir, 'gone.json'))).toBe(false);
    expect(await stillThere(join(dir, 'gone.zip#a.json'))).toBe(false);
    expect(await stillThere(dir)).toBe(false);
    expect(await stillThere('https://hospital.example/gone.json')).toBe(true);
  });
});
