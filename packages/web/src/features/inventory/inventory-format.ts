import type { HospitalDetail } from '@ratelens/core';

export type HospitalFile = HospitalDetail['files'][number];

/** A file's ingest status in plain words; an unknown status is shown as it came. */
const FILE_STATUS_WORDS: Record<string, string> = {
  loaded: 'In use',
  replaced: 'Replaced by a newer file',
  unchanged: 'Same file as before: nothing changed',
  older: 'Older than the file in use: not loaded',
  failed: 'Failed',
  loading: 'Loading',
};

const FILE_FORMAT_WORDS: Record<string, string> = {
  json: 'JSON',
  'csv-tall': 'CSV (tall)',
  'csv-wide': 'CSV (wide)',
};

export function fileStatusWords(status: string): string {
  return FILE_STATUS_WORDS[status] ?? status;
}

export function fileFormatWords(format: string): string {
  return FILE_FORMAT_WORDS[format] ?? format;
}

const counting = new Intl.NumberFormat('en-US');

function count(value: number, one: string, many: string): string {
  return `${counting.format(value)} ${value === 1 ? one : many}`;
}

/** '10,452 items, 29,143 rates, 12 rejected'. */
export function fileCounts(file: Pick<HospitalFile, 'items' | 'rates' | 'rejected'>): string {
  return [
    count(file.items, 'item', 'items'),
    count(file.rates, 'rate', 'rates'),
    `${counting.format(file.rejected)} rejected`,
  ].join(', ');
}
