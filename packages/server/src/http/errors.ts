import type { ApiError, FieldError } from '@ratelens/core';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { JSON_ONLY, MULTIPART_ONLY, takesMultipart } from './body-types.ts';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';

/** An expected failure: services throw these; one handler turns them into the response. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError(400, message, errors);
export const fieldError = (field: string, rule: string, message: string) =>
  badRequest(message, [{ field, rule, message }]);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, message);
export const forbidden = (message = 'You do not have access to this.') =>
  new AppError(403, message);
export const notFound = (message = 'Not found.') => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message: string) => new AppError(429, message);

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function errorBody(
  statusCode: number,
  message: string,
  requestId: string,
  errors?: FieldError[],
): ApiError {
  return {
    isSuccess: false,
    statusCode,
    error: REASONS[statusCode] ?? 'Error',
    message,
    ...(errors && errors.length > 0 ? { errors } : {}),
    requestId,
  };
}

/** The value at `path`, reading a query parameter that holds JSON (FilterJson) as its JSON. */
function valueAt(input: unknown, path: string[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value === 'string') value = jsonOf(value);
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The JSON a text holds, or undefined when it is not JSON. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function validationErrors(
  error: FastifyError & { validationContext?: string },
  request: FastifyRequest,
): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  const input =
    error.validationContext === 'querystring'
      ? request.query
      : error.validationContext === 'params'
        ? request.params
        : request.body;
  return error.validation.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const value = valueAt(input, path ? path.split('.') : []);
    const missing = issue.keyword === 'invalid_type' && value == null;
    // "?state=a&state=b" reaches the schema as a list.
    const repeated =
      issue.keyword === 'invalid_type' &&
      error.validationContext === 'querystring' &&
      !path.includes('.') &&
      Array.isArray(value);
    const rule = missing ? 'required' : repeated ? 'repeated' : issue.keyword;
    const field = path || (error.validationContext ?? 'body');
    const message =
      !path && issue.keyword === 'invalid_type'
        ? `The request ${error.validationContext === 'querystring' ? 'query string' : 'body'} must be a JSON object.`
        : repeated
          ? `${field} must be given once.`
          : issue.message === undefined || ZOD_DEFAULT_MESSAGE.test(issue.message)
            ? fieldMessage(field, rule, issue.params)
            : issue.message;
    return { field, rule, message };
  });
}

/** Zod's own wording ("Invalid input: expected string, received number"), which names no field. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid |Too big|Too small|Unrecognized key)/;

const EXPECTED: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/**
 * A schema's rule in words that name the field, for a rule whose schema gave no message of its
 * own: "codeType must be text.", "donation-token must not be more than 200 characters."
 */
export function fieldMessage(
  field: string,
  rule: string,
  params: Record<string, unknown> = {},
): string {
  const { expected, maximum, minimum, inclusive, origin, format, values, keys } = params;
  const unit = origin === 'string' ? ' characters' : origin === 'array' ? ' items' : '';
  switch (rule) {
    case 'required':
      return `${field} is required.`;
    case 'invalid_type':
      return `${field} must be ${EXPECTED[String(expected)] ?? String(expected)}.`;
    // `inclusive: false` is `.positive()` or `.lt()`: the bound itself is not allowed.
    case 'too_big':
      return inclusive === false
        ? `${field} must be less than ${String(maximum)}${unit}.`
        : `${field} must not be more than ${String(maximum)}${unit}.`;
    case 'too_small':
      return inclusive === false
        ? `${field} must be more than ${String(minimum)}${unit}.`
        : `${field} must be at least ${String(minimum)}${unit}.`;
    case 'invalid_format':
      return format === 'regex'
        ? `${field} is not in the expected form.`
        : `${field} must be a valid ${String(format)}.`;
    case 'invalid_value':
      return Array.isArray(values)
        ? `${field} must be one of: ${values.map(String).join(', ')}.`
        : `${field} is not an allowed value.`;
    case 'unrecognized_keys':
      return `${field} has fields this call does not take: ${Array.isArray(keys) ? keys.join(', ') : ''}.`;
    default:
      return `${field} is not valid.`;
  }
}

/** PostgreSQL's "invalid byte sequence" (SQLSTATE 22021), which a NUL character in text raises. */
const UNTRANSLATABLE_CHARACTER = '22021';

/**
 * PostgreSQL's data exceptions for a value it cannot store: a number out of range (22003), a
 * date and time it cannot read or hold (22007, 22008), a time zone offset (22009), text that is
 * no number (22P02). Each schema checks its values first; this is for one that reached a query
 * anyway, which is still the request's value, not the server's fault.
 */
const VALUE_OUT_OF_RANGE = new Set(['22003', '22007', '22008', '22009', '22P02']);

/** The SQLSTATE of a failed query, whether the driver's error or the ORM's wrapping of it. */
function databaseErrorCode(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The one error handler: every failure leaves as the ApiError shape, never with a stack or SQL. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .send(errorBody(error.statusCode, error.message, request.id, error.errors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = validationErrors(error, request);
      const message = [...new Set(errors.map((e) => e.message))].join(' ');
      return reply.status(400).send(errorBody(400, message, request.id, errors));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its contract');
      return reply
        .status(500)
        .send(errorBody(500, 'Something went wrong on our side. Please try again.', request.id));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large, …
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request is too large.'
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? takesMultipart(request)
              ? MULTIPART_ONLY
              : JSON_ONLY
            : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
              ? 'The request body is not valid JSON, or holds a __proto__ or constructor.prototype key.'
              : error.message;
      return reply.status(status).send(errorBody(status, message, request.id));
    }
    // PostgreSQL's text holds no NUL character. The check before validation refuses one wherever
    // a request carries text (nul-characters.ts); this is for text that reached a query another way.
    if (databaseErrorCode(error) === UNTRANSLATABLE_CHARACTER) {
      return reply
        .status(400)
        .send(errorBody(400, 'Text must not contain a NUL character.', request.id));
    }
    if (VALUE_OUT_OF_RANGE.has(databaseErrorCode(error) ?? '')) {
      // An error in the log: a schema let the value through and should not have (or the server
      // made the value itself, which would be its own fault).
      request.log.error({ err: error }, 'a value of the request reached the database unchecked');
      return reply
        .status(400)
        .send(
          errorBody(
            400,
            'A value of the request is outside what this server can store.',
            request.id,
          ),
        );
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(errorBody(500, 'Something went wrong on our side. Please try again.', request.id));
  });
}
