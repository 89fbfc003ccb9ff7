import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentDisposition } from '../http/attachment.ts';
import { boundToClient } from '../http/stream-limits.ts';
import { StoredAlaskaFile } from './alaska-file.ts';
import { ALASKA_RATES_FILE_NAME } from './alaska-rates.ts';

/** A download still being read after this long is cut off (a client reading a trickle). */
const ALASKA_MINUTES = 15;

/** Whether an If-None-Match header names `etag` (a list, weak or not, or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

/** Public files built from the database and stored until its data changes. */
export const downloadsRoutes: FastifyPluginAsyncZod<{ pool: Pool }> = async (app, { pool }) => {
  const tags = ['Downloads'];
  const alaska = new StoredAlaskaFile(pool, (error) =>
    app.log.error({ err: error }, 'the Alaska rates file could not be built'),
  );
  app.addHook('onClose', () => alaska.close());

  app.get('/downloads/alaska-rates.csv', {
    schema: {
      tags,
      summary: 'The free Alaska rates file: every Alaska hospital rate in the database, as CSV',
      description:
        'Built once for each version of the Alaska data and stored; while a newer one is built ' +
        'the one before is served. Its ETag is a hash of the bytes: If-None-Match with it ' +
        'answers 304.',
      produces: ['text/csv'],
    },
    handler: async (request, reply) => {
      const opened = await alaska.open();
      void reply
        .header('etag', opened.etag)
        // Stored by the browser, asked again each time: a new load is a new version.
        .header('cache-control', 'no-cache');
      if (matchesEtag(request.headers['if-none-match'], opened.etag)) {
        await opened.file.close();
        return reply.code(304).send();
      }
      const body = opened.file.createReadStream();
      const stopClock = boundToClient(request, reply, body, 'Alaska file', ALASKA_MINUTES);
      body.once('close', stopClock);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-length', String(opened.size))
        .header('content-disposition', attachmentDisposition(ALASKA_RATES_FILE_NAME))
        .send(body);
    },
  });
};
