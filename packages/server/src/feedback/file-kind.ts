import type { FEEDBACK_FILE } from '@ratelens/core';

export type FeedbackFileKind = (typeof FEEDBACK_FILE.kinds)[number];

export const FEEDBACK_CONTENT_TYPES: Record<FeedbackFileKind, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  edi: 'application/edi-x12',
};

const EXTENSIONS: Record<FeedbackFileKind, string[]> = {
  csv: ['.csv', '.txt'],
  xlsx: ['.xlsx'],
  pdf: ['.pdf'],
  edi: ['.edi', '.x12', '.txt', '.dat'],
};

const ZIP_LOCAL_HEADER = 0x04034b50;
const ZIP_CENTRAL_HEADER = 0x02014b50;
const ZIP_END_OF_DIRECTORY = 0x06054b50;

/** The names in a zip's central directory, or null when the bytes are not a readable zip. */
export function zipEntryNames(bytes: Buffer): string[] | null {
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== ZIP_LOCAL_HEADER) return null;
  // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
  let end = -1;
  for (let p = bytes.length - 22; p >= Math.max(0, bytes.length - 22 - 0xffff); p--) {
    if (bytes.readUInt32LE(p) === ZIP_END_OF_DIRECTORY) {
      end = p;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  let p = bytes.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > end || bytes.readUInt32LE(p) !== ZIP_CENTRAL_HEADER) return null;
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    if (p + 46 + nameLength > end) return null;
    names.push(bytes.toString('utf8', p + 46, p + 46 + nameLength));
    p += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Text has no control bytes but tab, line feed, form feed and carriage return (UTF-8 or 8-bit). */
function isPlainText(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (
      (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) ||
      byte === 0x7f
    )
      return false;
  }
  return true;
}

function withoutBom(text: string): string {
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

/**
 * An X12 interchange: a fixed-width 106-character ISA segment fixes the element separator (4th
 * character) and the segment terminator (106th); a GS segment follows, every segment starts with
 * a segment id and that separator, and the last is IEA.
 */
function isX12(text: string): boolean {
  if (text.length < 106) return false;
  const separator = text.charAt(3);
  const terminator = text.charAt(105);
  const special = (c: string) => c !== '' && !/[A-Za-z0-9\s]/.test(c);
  if (!special(separator) || !special(terminator) || separator === terminator) return false;
  if (text.slice(0, 105).split(separator).length !== 17) return false;
  const segments = text
    .split(terminator)
    .map((segment) => segment.trim())
    .filter((segment) => segment.length > 0);
  const segmentStart = new RegExp(`^[A-Z][A-Z0-9]{1,2}\\${separator}`);
  if (!segments.every((segment) => segmentStart.test(segment))) return false;
  return (
    segments[1]?.startsWith(`GS${separator}`) === true &&
    segments.at(-1)?.startsWith(`IEA${separator}`) === true
  );
}

/** At least one line with two values separated by a comma, semicolon, tab or pipe. */
function isDelimited(text: string): boolean {
  return text.split(/\r\n|\n|\r/).some((line) => /[,;\t|]/.test(line) && /[^,;\t|\s]/.test(line));
}

/**
 * What an attachment really is, judged by its bytes and never by its name or declared type;
 * null for anything else (an image or program renamed .csv or .pdf, for instance).
 */
export function detectFeedbackFileKind(bytes: Buffer): FeedbackFileKind | null {
  if (bytes.length === 0) return null;
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const names = zipEntryNames(bytes);
  if (names) {
    const isWorkbook =
      names.includes('[Content_Types].xml') && names.some((name) => name.startsWith('xl/'));
    return isWorkbook ? 'xlsx' : null;
  }
  if (!isPlainText(bytes)) return null;
  const text = withoutBom(bytes.toString('utf8')).trimStart();
  if (/^ISA[^A-Za-z0-9\s]/.test(text)) return isX12(text) ? 'edi' : null;
  return isDelimited(text) ? 'csv' : null;
}

/** A stored name: no path, only safe characters, at most 100 of them, the kind's extension. */
export function safeFileName(name: string, kind: FeedbackFileKind): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._ ()-]+/g, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(-100);
  const stem = cleaned || 'attachment';
  const lower = stem.toLowerCase();
  return EXTENSIONS[kind].some((ext) => lower.endsWith(ext)) ? stem : `${stem}.${kind}`;
}
