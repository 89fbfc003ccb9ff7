import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** When every file served with validators last changed, as servers write it (RFC 9110 §5.6.7). */
const LAST_MODIFIED = 'Wed, 01 Apr 2026 10:00:00 GMT';

export interface FileServer {
  /** The address of the file served at `path` ("/name"). */
  url(path: string): string;
  /** The Range header of every request, in order ("" when there was none). */
  readonly ranges: string[];
  /** The status of every answer, in order. */
  readonly statuses: number[];
  /** Body bytes sent so far, over all requests. */
  readonly served: () => number;
  /** From now on, whether answers carry validators (a server that begins, or stops, to send them). */
  sendValidators(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server of the given files, answering Range requests as RFC 9110 §14 says
 * (`bytes=a-b`, `bytes=a-`, `bytes=-n`; 206 with Content-Range, 416 when none of it exists), or,
 * with `ranges: false`, sending the whole file whatever is asked, as many servers do. With
 * `holdBack`, an answer longer than `after` bytes sends those, then the rest once `until` resolves:
 * a download in progress, for as long as a test needs one. With `validators`, each answer carries
 * an ETag (from the file's bytes, as they are when asked: a test may change them) and a
 * Last-Modified, and a conditional GET of an unchanged file is answered 304 Not Modified
 * (RFC 9110 §13: If-None-Match first, If-Modified-Since without it). With `length: false`, no
 * answer says its length (Content-Length): the body is sent in chunks, as generated files often are.
 */
export async function serveFiles(
  files: Record<string, Buffer>,
  {
    ranges = true,
    holdBack,
    validators = false,
    length = true,
  }: {
    ranges?: boolean;
    holdBack?: { after: number; until: Promise<void> };
    validators?: boolean;
    length?: boolean;
  } = {},
): Promise<FileServer> {
  const asked: string[] = [];
  const statuses: number[] = [];
  let served = 0;
  const server = createServer((req, res) => {
    const body = files[req.url ?? ''];
    const range = req.headers.range ?? '';
    asked.push(range);
    if (!body) {
      statuses.push(404);
      res.writeHead(404, 'Not Found').end();
      return;
    }
    const version: Record<string, string> = validators
      ? {
          etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`,
          'last-modified': LAST_MODIFIED,
        }
      : {};
    if (validators) {
      const ifNoneMatch = req.headers['if-none-match'];
      const ifModifiedSince = req.headers['if-modified-since'];
      const same =
        ifNoneMatch !== undefined
          ? ifNoneMatch.split(',').some((tag) => tag.trim() === version.etag)
          : ifModifiedSince !== undefined &&
            Date.parse(ifModifiedSince) >= Date.parse(LAST_MODIFIED);
      if (same) {
        statuses.push(304);
        res.writeHead(304, version).end();
        return;
      }
    }
    const send = (status: number, bytes: Buffer, headers: Record<string, string> = {}) => {
      served += bytes.length;
      statuses.push(status);
      res.writeHead(status, {
        ...(length ? { 'content-length': String(bytes.length) } : {}),
        ...version,
        ...headers,
      });
      if (!holdBack || bytes.length <= holdBack.after) {
        res.end(bytes);
        return;
      }
      res.write(bytes.subarray(0, holdBack.after));
      void holdBack.until.then(() => res.end(bytes.subarray(holdBack.after)));
    };
    const match = ranges ? /^bytes=(\d*)-(\d*)$/.exec(range) : null;
    if (!match || (match[1] === '' && match[2] === '')) {
      send(200, body, ranges ? { 'accept-ranges': 'bytes' } : {});
      return;
    }
    const size = body.length;
    const [first, last] =
      match[1] === ''
        ? [Math.max(0, size - Number(match[2])), size - 1]
        : [Number(match[1]), Math.min(size - 1, match[2] === '' ? size - 1 : Number(match[2]))];
    if (first >= size || first > last) {
      statuses.push(416);
      res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
      return;
    }
    send(206, body.subarray(first, last + 1), {
      'content-range': `bytes ${first}-${last}/${size}`,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${base}${path}`,
    ranges: asked,
    statuses,
    served: () => served,
    sendValidators: (on) => (validators = on),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
