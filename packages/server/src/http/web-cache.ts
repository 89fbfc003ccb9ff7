import path from 'node:path';

/**
 * Cache headers for a file of the built web app. Vite names every file under `assets/` after its
 * content, so a browser may keep it for a year without asking again; `index.html`, which names
 * them, is checked on every visit (its ETag makes that a 304), so a new build is seen at once.
 * The same path is answered with Brotli, gzip or plain bytes by the request's Accept-Encoding, so
 * a shared cache must key on it.
 */
export function webCacheHeaders(
  response: { setHeader(name: string, value: string): unknown },
  file: string,
): void {
  const hashed = path.basename(path.dirname(file)) === 'assets';
  response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
  response.setHeader('vary', 'accept-encoding');
}
