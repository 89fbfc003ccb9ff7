import { ApiErrorSchema } from '@ratelens/core';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The error shape (docs/decisions/0004-error-format.md) as an OpenAPI component. */
export const API_ERROR_COMPONENT = {
  // Zod's JSON Schema types `type` more loosely than OpenAPI's; it writes one of OpenAPI's.
  ApiError: z.toJSONSchema(ApiErrorSchema, { target: 'openapi-3.0' }),
} as Record<'ApiError', { type: 'object' }>;

const apiError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
});

/**
 * jsonSchemaTransform, plus the error answers every route gives that its schema does not list:
 * 400 where it takes input (each field and rule in `errors`), 401 where it needs a session.
 * A route's own entry for a code wins. The document only: answers are not checked against these.
 */
export const withErrorResponses: typeof jsonSchemaTransform = (input) => {
  const transformed = jsonSchemaTransform(input);
  const schema = transformed.schema as Record<string, unknown>;
  const errors: Record<string, unknown> = {};
  if (schema.querystring || schema.body || schema.params)
    errors['400'] = apiError('The request broke a rule; `errors` names each field and rule.');
  if (schema.security) errors['401'] = apiError('No session, or it has ended: sign in again.');
  // Without a response schema (a file download) the 200 is swagger's own default, a description
  // alone: `type: 'null'` is how @fastify/swagger is told to give it no content.
  const response = (schema.response ?? {
    200: { description: 'Default Response', type: 'null' },
  }) as Record<string, unknown>;
  return { ...transformed, schema: { ...schema, response: { ...errors, ...response } } };
};
