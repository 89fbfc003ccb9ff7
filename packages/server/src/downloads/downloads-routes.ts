import { Readable } from 'node:stream';
import type { Pool } from '@ratelens/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { attachmentDisposition } from '../http/attachment.ts';
import { ALASKA_RATES_FILE_NAME, alaskaRatesCsv } from './alaska-rates.ts';

/** Public files built from the database on request. */
export const downloadsRoutes: FastifyPluginAsyncZod<{ pool: Pool }> = async (app, { pool }) => {
  const tags = ['Downloads'];

  app.get('/downloads/alaska-rates.csv', {
    schema: {
      tags,
      summary: 'The free Alaska rates file: every Alaska hospital rate in the database, as CSV',
      produces: ['text/csv'],
    },
    handler: (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(ALASKA_RATES_FILE_NAME))
        .header('cache-control', 'no-cache')
        .send(Readable.from(alaskaRatesCsv(pool))),
  });
};
