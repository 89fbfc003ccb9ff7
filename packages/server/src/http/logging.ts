import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Structured JSON logs with the request id. The request serializer keeps method and path only:
 * no headers (tokens, secret_key), no query string (e-mail addresses), never bodies.
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
        path: request.url.split('?')[0],
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}
