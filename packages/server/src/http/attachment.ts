/**
 * A `content-disposition: attachment` value that survives any file name: an ASCII fallback in
 * quotes (quotes, backslashes and control characters replaced) plus the RFC 5987 UTF-8 form.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
