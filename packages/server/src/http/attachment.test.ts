import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './attachment.ts';

describe('attachmentDisposition', () => {
  it('names any file, with an ASCII fallback and the UTF-8 form', () => {
    expect(attachmentDisposition('Alaska.xlsx')).toBe(
      `attachment; filename="Alaska.xlsx"; filename*=UTF-8''Alaska.xlsx`,
    );
    expect(attachmentDisposition('Año "2026".csv')).toBe(
      `attachment; filename="A_o _2026_.csv"; filename*=UTF-8''A%C3%B1o%20%222026%22.csv`,
    );
  });

  it('writes a lone surrogate as U+FFFD instead of throwing', () => {
    expect(attachmentDisposition('\ud800.xlsx')).toBe(
      `attachment; filename="_.xlsx"; filename*=UTF-8''%EF%BF%BD.xlsx`,
    );
    expect(attachmentDisposition('a\udc00b😀.csv')).toContain(`UTF-8''a%EF%BF%BDb%F0%9F%98%80.csv`);
  });
});
