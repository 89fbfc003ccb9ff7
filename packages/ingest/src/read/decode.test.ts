import { describe, expect, it } from 'vitest';
import { Utf8OrCp1252Decoder } from './decode.ts';

function decodeInChunks(bytes: Buffer, size: number): { text: string; cp1252: number } {
  const decoder = new Utf8OrCp1252Decoder();
  let text = '';
  for (let i = 0; i < bytes.length; i += size) text += decoder.decode(bytes.subarray(i, i + size));
  text += decoder.decode(Buffer.alloc(0), true);
  return { text, cp1252: decoder.cp1252Chunks };
}

describe('Utf8OrCp1252Decoder', () => {
  it('keeps a UTF-8 character split across chunks whole and drops the BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Café – 1 € 𝄞')]);
    for (let size = 1; size <= 5; size++) {
      expect(decodeInChunks(bytes, size)).toEqual({ text: 'Café – 1 € 𝄞', cp1252: 0 });
    }
  });

  it('decodes Windows-1252 chunks with the cp1252 table, not Latin-1', () => {
    const bytes = Buffer.from('Add\x92L \x96 caf\xe9 \x80', 'latin1');
    expect(decodeInChunks(bytes, 1024).text).toBe('Add\u2019L \u2013 café €');
  });
});
