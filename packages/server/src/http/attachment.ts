const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A `content-disposition: attachment` value that survives any file name: an ASCII fallback in
 * quotes (quotes, backslashes and control characters replaced) plus the RFC 5987 UTF-8 form. A
 * lone surrogate, which encodeURIComponent refuses with a URIError, is written as U+FFFD.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName.replace(LONE_SURROGATE, '\uFFFD')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
