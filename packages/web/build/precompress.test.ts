import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressedCopies } from './precompress.ts';

describe('compressedCopies', () => {
  it('writes Brotli and gzip copies of a text file that give back its bytes', async () => {
    const script = Buffer.from(
      Array.from({ length: 400 }, (_, i) => `export const rate${i} = ${i * 1.5};`).join('\n'),
    );

    const { br, gz } = await compressedCopies(script);

    expect(br && brotliDecompressSync(br).equals(script)).toBe(true);
    expect(gz && gunzipSync(gz).equals(script)).toBe(true);
    expect(br?.length).toBeLessThan(script.length / 4);
    expect(br?.length).toBeLessThan(gz?.length ?? 0);
  });

  it('leaves a file under 1 KB, and one that does not shrink, as it is', async () => {
    expect(await compressedCopies(Buffer.from('export {};'.repeat(100)))).toEqual({});
    expect(await compressedCopies(randomBytes(4096))).toEqual({});
  });
});
