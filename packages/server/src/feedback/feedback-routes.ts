import fastifyMultipart from '@fastify/multipart';
import {
  FEEDBACK_FILE,
  FeedbackItemSchema,
  FeedbackSchema,
  FeedbackUploadResponseSchema,
  ResultSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthService } from '../auth/auth-service.ts';
import { attachmentDisposition } from '../http/attachment.ts';
import { AUTHENTICATED, currentUser, requireUser } from '../http/auth-hooks.ts';
import { readMultipartForm } from '../http/multipart.ts';
import { FILE_TOO_LARGE_MESSAGE, type FeedbackService } from './feedback-service.ts';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';

export interface FeedbackRoutesOptions {
  auth: AuthService;
  feedback: FeedbackService;
  /** Requests per minute and client address for each public call, as for sign-in. */
  rateLimitPerMinute: number;
}

/** The contact form's two public calls and the administrators' reading of what arrived. */
export const feedbackRoutes: FastifyPluginAsyncZod<FeedbackRoutesOptions> = async (
  app,
  { auth, feedback, rateLimitPerMinute },
) => {
  await app.register(fastifyMultipart);
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };
  const tags = ['Feedback'];
  const adminOnly = requireUser(auth);

  app.post('/Feedback/uploadfeedbackfile', {
    config: limited,
    schema: {
      tags,
      summary: `Upload a contact-form attachment (multipart field File: CSV, XLSX, PDF or EDI, at most ${FEEDBACK_FILE.maxBytes / (1024 * 1024)} MB); message is its token`,
      consumes: ['multipart/form-data'],
      response: { 200: FeedbackUploadResponseSchema },
    },
    handler: async (request) => {
      const form = await readMultipartForm(request, {
        maxBytes: FEEDBACK_FILE.maxBytes,
        tooLargeMessage: FILE_TOO_LARGE_MESSAGE,
      });
      return feedback.upload(form.file);
    },
  });

  app.post('/Feedback/savefeedback', {
    config: limited,
    schema: {
      tags,
      summary: 'Send the contact form; fileName is the token of an uploaded attachment, or empty',
      body: FeedbackSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => feedback.save(request.body, request.log),
  });

  app.get('/Feedback/list', {
    config: { refusals: { 403: ADMIN_ONLY } },
    onRequest: adminOnly,
    schema: {
      tags,
      summary: 'Contact-form submissions, newest first (admin only)',
      security: AUTHENTICATED,
      response: { 200: z.array(FeedbackItemSchema) },
    },
    handler: (request) => feedback.list(currentUser(request)),
  });

  app.get('/Feedback/file/:id', {
    config: { refusals: { 403: ADMIN_ONLY, 404: 'No attachment has this id.' } },
    onRequest: adminOnly,
    schema: {
      tags,
      summary: "Download a submission's attachment (admin only)",
      security: AUTHENTICATED,
      params: z.object({ id: z.uuid('id must be an attachment id.') }),
    },
    handler: async (request, reply) => {
      const file = await feedback.attachment(currentUser(request), request.params.id);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', attachmentDisposition(file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.content);
    },
  });
};
