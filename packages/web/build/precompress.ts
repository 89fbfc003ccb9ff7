/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build, which the
 * server sends to a browser that accepts them (`preCompressed` in packages/server/src/app.ts), so
 * no request pays for compression and the browser downloads a quarter of the bytes
 * (docs/decisions/0019).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Files worth compressing: text. Images and fonts are compressed already. */
const TEXT = /\.(?:js|css|html|svg|json|txt|map)$/;
/** Below this, the headers of a compressed answer weigh about what compression saves. */
const MIN_BYTES = 1024;

/** The compressed copies of one file's bytes, each kept only when it is smaller. */
export async function compressedCopies(bytes: Buffer): Promise<{ br?: Buffer; gz?: Buffer }> {
  if (bytes.length < MIN_BYTES) return {};
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipped(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return {
    ...(br.length < bytes.length && { br }),
    ...(gz.length < bytes.length && { gz }),
  };
}

export function precompress(): Plugin {
  return {
    name: 'ratelens-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => TEXT.test(name))
          .map(async (name) => {
            const file = path.join(dir, name);
            const copies = await compressedCopies(await readFile(file));
            await Promise.all(
              Object.entries(copies).map(([extension, data]) =>
                writeFile(`${file}.${extension}`, data),
              ),
            );
          }),
      );
    },
  };
}
