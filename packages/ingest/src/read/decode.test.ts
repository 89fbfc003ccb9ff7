import { describe, expect, it } from 'vitest';
import { decodeText, Utf8OrCp1252Decoder } from './decode.ts';

function decodeInChunks(bytes: Buffer, size: number) {
  const decoder = new Utf8OrCp1252Decoder();
  let text = '';
  for (let i = 0; i < bytes.length; i += size) text += decoder.decode(bytes.subarray(i, i + size));
  text += decoder.decode(Buffer.alloc(0), true);
  return { text, cp1252: decoder.cp1252Bytes, examples: decoder.cp1252Examples };
}

describe('Utf8OrCp1252Decoder', () => {
  it('keeps a UTF-8 character split across chunks whole and drops the BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Café – 1 € 𝄞')]);
    for (let size = 1; size <= 5; size++) {
      expect(decodeInChunks(bytes, size)).toEqual({
        text: 'Café – 1 € 𝄞',
        cp1252: 0,
        examples: [],
      });
    }
  });

  it('decodes Windows-1252 bytes with the cp1252 table, not Latin-1', () => {
    const bytes = Buffer.from('Add\x92L \x96 caf\xe9 \x80', 'latin1');
    expect(decodeInChunks(bytes, 1024).text).toBe('Add\u2019L \u2013 café €');
  });

  it('reads UTF-8 beside a stray Windows-1252 byte as UTF-8, in chunks of any size', () => {
    // "Café" in UTF-8, then an en dash pasted in from a Windows program (0x96), then "naïve".
    const bytes = Buffer.concat([
      Buffer.from('Café '),
      Buffer.from([0x96]),
      Buffer.from(' naïve, 1 €'),
    ]);
    for (let size = 1; size <= 7; size++) {
      const { text, cp1252 } = decodeInChunks(bytes, size);
      expect({ size, text, cp1252 }).toEqual({ size, text: 'Café – naïve, 1 €', cp1252: 1 });
    }
  });

  it('reads invalid UTF-8 forms byte by byte: stray continuations, overlongs, surrogates, cut short', () => {
    const cases: [number[], string][] = [
      [[0x80], '€'],
      [[0xc0, 0xaf], 'À¯'], // overlong '/'
      [[0xe0, 0x80, 0xaf], 'à€¯'], // overlong
      [[0xed, 0xa0, 0x80], 'í\u00a0€'], // a surrogate half
      [[0xf4, 0x90, 0x80, 0x80], 'ô\u0090€€'], // past U+10FFFF
      [[0xe2, 0x82], 'â‚'], // cut short at the end
    ];
    for (const [bytes, text] of cases) {
      expect(decodeInChunks(Buffer.from([0x61, ...bytes]), 64).text).toBe(`a${text}`);
    }
  });

  it('counts each byte read as Windows-1252 and keeps the first five with their place', () => {
    const line = Buffer.concat([
      Buffer.from('Chem IV Infus Ea Add'),
      Buffer.from([0x92]),
      Buffer.from('L Seq\n'),
    ]);
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ...Array<Buffer>(7).fill(line)]);
    for (const size of [1, 10, 64 << 10]) {
      const { text, cp1252, examples } = decodeInChunks(bytes, size);
      expect(cp1252).toBe(7);
      expect(examples).toHaveLength(5);
      expect(examples.map((e) => e.byte)).toEqual([23, 50, 77, 104, 131]);
      expect(examples.map((e) => text.charAt(e.char))).toEqual(Array(5).fill('’'));
      // The words around come from the chunk the byte was in (whole lines here).
      if (size < 64) continue;
      expect(examples[0]).toEqual({
        byte: 23,
        char: 20,
        detail: '0x92 at byte 23, read as "’": "Chem IV Infus Ea Add’L Seq Chem IV Infus Ea A…"',
      });
    }
  });
});

describe('decodeText', () => {
  it('reads UTF-8 without its byte-order mark', () => {
    expect(decodeText(Buffer.from('\ufeffcode', 'utf8'))).toBe('code');
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', () => {
    expect(decodeText(Buffer.from([0x4d, 0x92, 0x73]))).toBe('M’s');
  });
});
