/**
 * A mailto: link to one address, nothing more: `?`, `&` and `%` are allowed in an address but in
 * a mailto: URL start headers (RFC 6068), so a hospital's `contact-email:
 * billing@x.org?bcc=…&body=…` would fill in the visitor's message. They are percent-encoded.
 */
export function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return `mailto:${encodeURIComponent(address)}`;
  return `mailto:${encodeURIComponent(address.slice(0, at))}@${encodeURIComponent(address.slice(at + 1))}`;
}
