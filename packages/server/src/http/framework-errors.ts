import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.ts';
import { BASELINE_HEADERS } from './web-headers.ts';

const MESSAGES: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, 'The address is not valid: it holds a broken %-escape.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'The address is too long: a part of it is over 100 characters.'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};
const UNREADABLE: [number, string] = [400, 'The request could not be read as HTTP.'];

/**
 * Fastify's own answers before any route runs (a broken %-escape, too long a path parameter), in
 * the ApiError shape with the baseline headers, where Fastify wrote its own JSON and echoed the
 * whole path back.
 */
export function frameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, message] = MESSAGES[error.code] ?? UNREADABLE;
  void reply
    .headers(BASELINE_HEADERS)
    .status(status)
    .send(errorBody(status, message, request.id));
}

/**
 * Node's answer to a request it cannot parse (headers over 16 KB, a garbled request line), written
 * to the socket as Fastify's default handler writes it, in the ApiError shape with the baseline
 * headers. A reset connection has nobody to answer.
 */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = MESSAGES[error.code ?? ''] ?? UNREADABLE;
  const body = JSON.stringify(errorBody(status, message, randomUUID()));
  const headers = Object.entries(BASELINE_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${headers.join('')}\r\n${body}`,
    );
  }
  socket.destroy(error);
}
