import { describe, expect, it } from 'vitest';
import { pdf, png, x12, xlsx, zip } from '../test/files.ts';
import { detectFeedbackFileKind, safeFileName } from './file-kind.ts';

const text = (value: string) => Buffer.from(value, 'utf8');

describe('detectFeedbackFileKind', () => {
  it('knows a PDF, a workbook, an X12 interchange and a CSV by their bytes', () => {
    expect([pdf(), xlsx(), x12(), text('a,b\n1,2\n')].map(detectFeedbackFileKind)).toEqual([
      'pdf',
      'xlsx',
      'edi',
      'csv',
    ]);
  });

  it('accepts a semicolon CSV in UTF-8 with a byte-order mark and accented names', () => {
    expect(detectFeedbackFileKind(text('\ufeffpatient;montant\nJosé;12,50\n'))).toBe('csv');
  });

  it('accepts an 8-bit (Windows-1252) CSV', () => {
    expect(detectFeedbackFileKind(Buffer.from('name,amount\nZo\xeb,12\n', 'latin1'))).toBe('csv');
  });

  it('rejects text without any delimited line', () => {
    expect(detectFeedbackFileKind(text('just a note\nwith two lines\n'))).toBeNull();
  });

  it('rejects binary content: an image, a program, UTF-16 text', () => {
    const utf16 = Buffer.from('\ufeffa,b\n1,2\n', 'utf16le');
    const program = Buffer.concat([Buffer.from('MZ', 'latin1'), Buffer.alloc(10)]);
    expect([png(1, 1), program, utf16].map(detectFeedbackFileKind)).toEqual([null, null, null]);
  });

  it('rejects a zip that is not a workbook (a .docx, say)', () => {
    const docx = zip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w/>' });
    expect(detectFeedbackFileKind(docx)).toBeNull();
  });

  it('rejects an X12 file whose segments do not end with the ISA terminator', () => {
    const broken = x12().toString('latin1').replace('~\nGS*', '!\nGS*');
    expect(detectFeedbackFileKind(Buffer.from(broken, 'latin1'))).toBeNull();
  });

  it('rejects an empty file', () => {
    expect(detectFeedbackFileKind(Buffer.alloc(0))).toBeNull();
  });
});

describe('safeFileName', () => {
  it('keeps a plain name', () => {
    expect(safeFileName('claims-2026 (Q1).csv', 'csv')).toBe('claims-2026 (Q1).csv');
  });

  it('drops directories and replaces unsafe characters', () => {
    expect(safeFileName('../../etc/pass"wd;.csv', 'csv')).toBe('pass_wd_.csv');
  });

  it('adds the extension of what the content is', () => {
    expect(safeFileName('claims.exe', 'pdf')).toBe('claims.exe.pdf');
  });

  it('names a nameless file', () => {
    expect(safeFileName('...', 'xlsx')).toBe('attachment.xlsx');
  });
});
