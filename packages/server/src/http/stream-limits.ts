import type { Readable, Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Ties a response body that is written as it is read (an export, a built file) to its client:
 * destroyed when the client goes, now or before the handler ran, and cut off, with an error
 * naming `what`, once it has been sent for `minutes` (a client reading a trickle). Answers the
 * function that stops the clock, for when the body has ended.
 */
export function boundToClient(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Readable | (Readable & Writable),
  what: string,
  minutes: number,
): () => void {
  const gone = () => {
    // Written to the end, its last bytes may still be on their way: not taken from the client.
    if (!(body as Partial<Writable>).writableFinished) body.destroy();
  };
  reply.raw.once('close', gone);
  if (request.raw.socket?.destroyed === true) gone();
  const deadline = setTimeout(
    () => body.destroy(new Error(`The ${what} took more than ${minutes} minutes.`)),
    minutes * 60_000,
  ).unref();
  return () => clearTimeout(deadline);
}
