/** How long the object URL of a saved file lives: the download must have started by then. */
const REVOKE_AFTER_MS = 10_000;

/**
 * Saves a Blob as a file named `fileName`, through a temporary `<a download>`. The object URL is
 * revoked a little later, as some browsers read it after the click returns.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
