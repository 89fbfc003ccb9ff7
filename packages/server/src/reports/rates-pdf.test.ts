import { beforeAll, describe, expect, it } from 'vitest';
import { renderRatesPdf, winAnsi, type RatesPdfInput } from './rates-pdf.ts';
import { sampleRateRow, sampleSummaryRow } from './sample-rows.ts';
import { pagesOf } from '../test/pdf-text.ts';

const base: RatesPdfInput = {
  header: 'RateLens report: 70551 in Anchorage, AK',
  footer:
    'Hospitals can change their prices without notice. Always get a Good Faith Estimate first to lock in your rate.',
  rows: [
    sampleRateRow({ FacilityName: 'Charlie Hospital', rates: 3000, MemberOOP: 2600 }),
    sampleRateRow({ FacilityName: 'Alpha Hospital', rates: 1234.56, MemberOOP: 1234.56 }),
    sampleRateRow({ FacilityName: 'Bravo Hospital', rates: 2000, MemberOOP: 1800 }),
    sampleRateRow({
      FacilityName: 'Echo Hospital',
      payername: 'AETNA [1001]',
      medicalcode: '47562',
      modifiers: ['80'],
      rates: 484.2,
      MemberOOP: 484.2,
    }),
    sampleRateRow({
      FacilityName: 'Delta Hospital',
      rates: 4000,
      MemberOOP: null,
      LOB: 'medicare-advantage',
    }),
  ],
  summary: [
    sampleSummaryRow({ FacilityName: 'Alpha Hospital', LowAmt: 800, AvgAmt: 1017.25 }),
    sampleSummaryRow({ FacilityName: 'Bravo Hospital', CASH_RATE: null, HighAmt: 12345.6 }),
  ],
  includeNotes: true,
  assumptions: ['Coverage: single person, deductible $1,650.00.', 'Coinsurance: 20%.'],
  generatedAt: new Date('2026-11-21T15:00:00Z'),
};

describe('renderRatesPdf', () => {
  let pdf: Buffer;
  let text: string;
  beforeAll(async () => {
    pdf = await renderRatesPdf(base);
    text = (await pagesOf(pdf)).join('\n');
  });

  it('writes a PDF file', () => {
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it('lists the rates from the lowest to the highest', () => {
    const positions = ['Alpha Hospital', 'Bravo Hospital', 'Charlie Hospital'].map((name) =>
      text.indexOf(name),
    );
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("writes a line's modifiers after its code, as billing does (47562-80)", () => {
    expect(text).toMatch(/47562-80\s+Echo Hospital/);
  });

  it("names the payer without the file's bracketed id", () => {
    expect(text).toMatch(/Echo Hospital\s+AETNA\s+—\s+PPO\s+Gold/);
    expect(text).not.toContain('[1001]');
  });

  it('says "Not estimated" where a public plan has no out-of-pocket estimate', () => {
    expect(text).toMatch(/Delta Hospital[\s\S]*\$4,000\.00\s+Not\s+estimated/);
  });

  it('formats money as US dollars', () => {
    expect(text).toContain('$1,234.56');
    expect(text).toContain('$3,000.00');
    expect(text).toContain('$1,017.25');
    expect(text).toContain('$12,345.60');
  });

  it('summarises each hospital with its low, average, high and cash amounts', () => {
    expect(text).toMatch(/Summary by hospital/);
    expect(text).toMatch(/Low\s+Average\s+High\s+Cash/);
    expect(text).toMatch(/Alpha Hospital\s+\$800\.00\s+\$1,017\.25\s+\$1,234\.50\s+\$999\.99/);
    expect(text).toMatch(/Bravo Hospital\s+\$800\.00\s+\$1,017\.25\s+\$12,345\.60\s+n\/a/);
  });

  it('shows the assumptions, the header, the footer and the date', () => {
    expect(text).toContain('Coverage: single person, deductible $1,650.00.');
    expect(text).toContain('Coinsurance: 20%.');
    expect(text).toContain('RateLens report: 70551 in Anchorage, AK');
    expect(text).toContain('Always get a Good Faith Estimate first');
    expect(text).toContain('Generated November 21, 2026');
  });

  it('keeps the notes for the employer report', () => {
    expect(text).toMatch(/Your OOP\s+Notes/);
    expect(text).toContain('Per case; includes professional fee');
  });

  it('leaves the notes out of the individual report', async () => {
    const individual = (await pagesOf(await renderRatesPdf({ ...base, includeNotes: false }))).join(
      '\n',
    );
    expect(individual).not.toContain('Notes');
    expect(individual).not.toContain('Per case; includes professional fee');
    expect(individual).toContain('Alpha Hospital');
  });

  it('says so when there are no rates', async () => {
    const empty = (await pagesOf(await renderRatesPdf({ ...base, rows: [], summary: [] }))).join(
      '\n',
    );
    expect(empty).toContain('No rates were found for this search.');
  });
});

describe('renderRatesPdf with a long table', () => {
  let pages: string[];
  beforeAll(async () => {
    const rows = Array.from({ length: 150 }, (_, i) =>
      sampleRateRow({ FacilityName: `Hospital ${String(150 - i).padStart(3, '0')}`, rates: 150 - i }),
    );
    pages = await pagesOf(await renderRatesPdf({ ...base, rows }));
  });

  it('continues the table on further pages', () => {
    expect(pages.length).toBeGreaterThan(3);
    const text = pages.join('\n');
    for (let i = 1; i <= 150; i += 1)
      expect(text).toContain(`Hospital ${String(i).padStart(3, '0')}`);
    expect(text.indexOf('Hospital 001')).toBeLessThan(text.indexOf('Hospital 150'));
  });

  it('repeats the table header on each page of the table', () => {
    const tablePages = pages.filter((page) => page.includes('Hospital 0'));
    expect(tablePages.length).toBeGreaterThan(2);
    for (const page of tablePages) expect(page).toMatch(/Code\s+Facility\s+Plan\s+Rate\s+Your OOP/);
  });

  it('prints the header, the footer and the page number on every page', () => {
    pages.forEach((page, index) => {
      expect(page).toContain('RateLens report: 70551 in Anchorage, AK');
      expect(page).toContain('Hospitals can change their prices without notice.');
      expect(page).toContain(`Page ${index + 1} of ${pages.length}`);
    });
  });
});

describe('winAnsi', () => {
  it('keeps Latin-1 accents and typographic punctuation', () => {
    expect(winAnsi('Hôpital Saint-Éloi — “Gold” plan')).toBe('Hôpital Saint-Éloi — “Gold” plan');
  });

  it('drops accents the core fonts lack and replaces other characters', () => {
    expect(winAnsi('Łódź Ōsaka 東京')).toBe('?ódz Osaka ??');
  });
});
