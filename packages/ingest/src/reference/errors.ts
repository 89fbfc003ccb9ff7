/** The first characters of what was found: a wrong file's first line can run to thousands. */
const FOUND_MAX = 120;
const shortened = (found: string) =>
  found.length > FOUND_MAX ? `${found.slice(0, FOUND_MAX - 1)}…` : found;

/** A reference file that is not what its parser expects: the wrong file, a changed layout. */
export class ReferenceFileError extends Error {
  override readonly name = 'ReferenceFileError';

  constructor(
    /** The file name or URL. */
    readonly file: string,
    /** What the parser expected, e.g. "a header row with CBSA Code". */
    readonly expected: string,
    /** What it found instead, and where. */
    readonly found?: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: expected ${expected}${found ? `; found ${shortened(found)}` : ''}`, options);
  }
}
