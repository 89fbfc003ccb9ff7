import { ApiErrorSchema } from '@ratelens/core';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The error shape (docs/decisions/0004-error-format.md) as an OpenAPI component. */
export const API_ERROR_COMPONENT = {
  // Zod's JSON Schema types `type` more loosely than OpenAPI's; it writes one of OpenAPI's.
  ApiError: z.toJSONSchema(ApiErrorSchema, { target: 'openapi-3.0' }),
} as Record<'ApiError', { type: 'object' }>;

/** The 403 of a route only administrators may call. */
export const ADMIN_ONLY = "The session is not an administrator's.";
/** The 403 of a route that names an account (userId, e-mail) and serves only the session's own. */
export const OWN_ACCOUNT = "The call names another account than the session's.";

/**
 * The refusals a route can answer with besides 400, 401 and its rate limit's 429, each with what
 * it means (a 429 here is one of its own, a limit on work under way).
 */
export type Refusals = Partial<Record<403 | 404 | 409 | 429, string>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For the OpenAPI document only: the 403, 404, 409 and 429 answers of the route (thrown by
     * it or the services it calls), so that a client knows which to handle.
     */
    refusals?: Refusals;
  }
}

const apiError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

/**
 * jsonSchemaTransform, plus the error answers every route gives that its schema does not list:
 * 400 where it takes input (each field and rule in `errors`), 401 where it needs a session,
 * 429 where it has its own rate limit, and the 403, 404, 409 and 429 its `config.refusals` names.
 * A route's own entry for a code wins. The document only: answers are not checked against these.
 */
export const withErrorResponses: typeof jsonSchemaTransform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const schema = transformed.schema as Record<string, unknown>;
  const errors: Record<string, unknown> = {};
  if (schema.querystring || schema.body || schema.params)
    errors['400'] = apiError('The request broke a rule; `errors` names each field and rule.');
  if (schema.security) errors['401'] = apiError('No session, or it has ended: sign in again.');
  const route = input.route as
    { config?: { rateLimit?: unknown; refusals?: Refusals } } | undefined;
  const config = route?.config;
  for (const [code, description] of Object.entries(config?.refusals ?? {}))
    errors[code] = apiError(description);
  if (config?.rateLimit) {
    const limit = 'Too many calls from this address; `message` says how long to wait.';
    const own = config.refusals?.[429];
    errors['429'] = apiError(own ? `${limit} Or: ${own}` : limit);
  }
  // Without a response schema (a file download) the 200 is swagger's own default, a description
  // alone: `type: 'null'` is how @fastify/swagger is told to give it no content.
  const response = (schema.response ?? {
    200: { description: 'Default Response', type: 'null' },
  }) as Record<string, unknown>;
  return { ...transformed, schema: { ...schema, response: { ...errors, ...response } } };
};
