/**
 * Headers of the server's answers that concern the browser: security (docs/decisions/0020) and
 * the caching of the built web app (docs/decisions/0019).
 */
import path from 'node:path';

/** Sent with every answer; a route may replace one with a stricter value. */
export const BASELINE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/**
 * The policy of the web app's page (index.html, every route of the single-page app): scripts,
 * styles, fonts and calls from this server only. Mantine writes inline styles; the bot check runs
 * its proof of work in a Worker made from a blob: URL; the how-to videos come from a host set at
 * build time, so any https: video or frame is allowed, and only once the visitor presses play.
 */
export const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "media-src 'self' https:",
  'frame-src https:',
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

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
