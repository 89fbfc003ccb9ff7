import { Readable } from 'node:stream';
import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentDisposition } from '../http/attachment.ts';
import { tooManyRequests } from '../http/errors.ts';
import { PerKeyLimit } from '../http/per-key-limit.ts';
import { boundToClient } from '../http/stream-limits.ts';
import { ALASKA_RATES_FILE_NAME, alaskaRatesCsv } from './alaska-rates.ts';

/**
 * How many Alaska files this process builds at once. Each reads every Alaska rate (tens of MB of
 * rows a batch with wide payer files) for anyone who asks, signed in or not.
 */
const ALASKA_BUILDS = 2;
/** A build still being read after this long is cut off (its client reads too slowly). */
const ALASKA_MINUTES = 15;
export const ALASKA_BUSY_MESSAGE =
  'The Alaska rates file is being prepared for other visitors. Please try again in a minute.';

/** Public files built from the database on request. */
export const downloadsRoutes: FastifyPluginAsyncZod<{ pool: Pool }> = async (app, { pool }) => {
  const tags = ['Downloads'];
  const builds = new PerKeyLimit(ALASKA_BUILDS);

  app.get('/downloads/alaska-rates.csv', {
    config: { refusals: { 429: ALASKA_BUSY_MESSAGE } },
    schema: {
      tags,
      summary: 'The free Alaska rates file: every Alaska hospital rate in the database, as CSV',
      produces: ['text/csv'],
    },
    handler: (request, reply) => {
      const giveBack = builds.take('alaska');
      if (!giveBack) {
        void reply.header('retry-after', '60');
        throw tooManyRequests(ALASKA_BUSY_MESSAGE);
      }
      // The place is given back when the file has been read to its end or cut off: by the
      // client going (now, or before this ran), or by a client reading too slowly.
      const csv = Readable.from(alaskaRatesCsv(pool));
      const stopClock = boundToClient(request, reply, csv, 'Alaska file', ALASKA_MINUTES);
      csv.once('close', () => {
        stopClock();
        giveBack();
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(ALASKA_RATES_FILE_NAME))
        .header('cache-control', 'no-cache')
        .send(csv);
    },
  });
};
