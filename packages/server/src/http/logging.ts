import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/** A texted report's link is the only key to it (ADR 0016): its token stays out of the log. */
const REPORT_LINK = /^(\/+api\/+reports\/+)[^/]+/i;

/**
 * Structured JSON logs with the request id. The request serializer keeps method and path only:
 * no headers (tokens, secret_key), no query string (e-mail addresses), no report link's token,
 * never bodies; the error serializer never a failed query's values (`errorForLog`).
 */
export function loggerOptions(
  config: Config,
  stream?: { write: (line: string) => void },
): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers.secret_key', 'req.headers.cookie'],
      remove: true,
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        path: request.url.split('?')[0]?.replace(REPORT_LINK, '$1:token'),
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      err: errorForLog,
    },
  };
}

/** Fields of a driver's error that name what failed without holding the values. */
const SAFE_FIELDS = ['code', 'statusCode', 'constraint', 'table', 'column', 'routine'] as const;

/**
 * An error as logged: its type, message, stack, code and causes, and never the values of a failed
 * query. The ORM writes them into its message ("Failed query: … params: …": an e-mail address and
 * a password hash for a failed sign-up, a contact message's text, a logo's bytes) and keeps them
 * in `params`; PostgreSQL names them in `detail` ("Key (email)=(…) already exists").
 */
interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function errorForLog(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const fields = error as Error & Record<string, unknown>;
  const at = 'params' in error ? error.message.lastIndexOf('\nparams: ') : -1;
  const message = at === -1 ? error.message : `${error.message.slice(0, at)}\nparams: (not logged)`;
  const logged: LoggedError = {
    type: error.constructor.name,
    message,
    stack: error.stack?.replace(error.message, message) ?? '',
  };
  for (const field of SAFE_FIELDS) if (fields[field] !== undefined) logged[field] = fields[field];
  if (error.cause !== undefined && depth < 3) logged.cause = errorForLog(error.cause, depth + 1);
  return logged;
}
