import type { FastifyInstance, FastifyRequest } from 'fastify';

export const JSON_ONLY = 'Send the request body as JSON (Content-Type: application/json).';
export const MULTIPART_ONLY =
  'Send the form as multipart/form-data, with the file as one of its parts.';

/** Whether the route takes a multipart form (its schema `consumes` multipart/form-data). */
export function takesMultipart(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.consumes?.includes('multipart/form-data') ?? false;
}

/**
 * The bodies this API reads: JSON and (on the routes that say so) multipart forms.
 *
 * - JSON sent as text/plain is a 415 ("Send the request body as JSON"), not a 400 saying the body
 *   is no object: text/plain's parser is removed.
 * - An empty body labelled JSON is no body, as if the header were not sent: a client library that
 *   always sends `Content-Type: application/json`, on a DELETE or a POST without fields, is
 *   answered. Fastify refused it with 400 "body cannot be empty"; a route that needs a body still
 *   refuses, with its schema's 400 ("The request body must be a JSON object.", field `body`).
 * - Otherwise Fastify's own JSON parser, which refuses `__proto__` and `constructor.prototype`.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}
