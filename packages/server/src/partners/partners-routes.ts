import fastifyMultipart from '@fastify/multipart';
import { PartnerListSchema, PartnerSchema, ResultSchema } from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/auth-service.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import { readMultipartForm } from '../http/multipart.ts';
import {
  IMAGE_TOO_LARGE_MESSAGE,
  PARTNER_IMAGE_MAX_BYTES,
  type PartnersService,
} from './partners-service.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

const IdParamsSchema = z.object({ id: z.uuid('id must be a partner id.') });

/** A year: an image's address changes with its partner row, so a cached copy never goes stale. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';

export const partnersRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  partners: PartnersService;
}> = async (app, { auth, partners }) => {
  await app.register(fastifyMultipart);
  const tags = ['Partners'];
  const adminOnly = requireUser(auth);

  app.get('/Partner/list', {
    schema: {
      tags,
      summary: 'Partner logos in display order',
      response: { 200: PartnerListSchema },
    },
    handler: () => partners.list(),
  });

  app.get('/Partner/image/:id', {
    config: { refusals: { 404: 'No partner image has this id.' } },
    schema: { tags, summary: "A partner's logo", params: IdParamsSchema },
    handler: async (request, reply) => {
      const image = await partners.image(request.params.id);
      void reply
        .header('content-type', image.contentType)
        .header('cache-control', IMAGE_CACHE)
        .header('x-content-type-options', 'nosniff');
      // An SVG opened on its own must not run scripts or load anything.
      if (image.contentType === 'image/svg+xml')
        void reply.header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
        );
      return reply.send(image.content);
    },
  });

  app.post('/Partner', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest: adminOnly,
    schema: {
      tags,
      summary:
        'Add a partner (admin only; multipart fields name, website (https), optional position, and image: PNG, JPEG, WebP or SVG up to 1 MB)',
      security: AUTHENTICATED,
      consumes: ['multipart/form-data'],
      response: { 200: PartnerSchema },
    },
    handler: (request) =>
      partners.create(currentUser(request), () =>
        readMultipartForm(request, {
          maxBytes: PARTNER_IMAGE_MAX_BYTES,
          tooLargeMessage: IMAGE_TOO_LARGE_MESSAGE,
          fields: ['name', 'website', 'position'],
        }),
      ),
  });

  app.delete('/Partner/:id', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No partner has this id.' } },
    onRequest: adminOnly,
    schema: {
      tags,
      summary: 'Remove a partner (admin only)',
      security: AUTHENTICATED,
      params: IdParamsSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => partners.remove(currentUser(request), request.params.id),
  });
};
