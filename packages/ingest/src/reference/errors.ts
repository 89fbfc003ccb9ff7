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
    options?: {
      cause?: unknown;
      /** The other rows refused for the same or another reason: how many, and the first few. */
      otherRows?: { count: number; first: readonly string[]; all: boolean };
    },
  ) {
    const others = options?.otherRows;
    const more = !others?.count
      ? ''
      : others.all
        ? others.count === 1
          ? '; nor could the row after it be read'
          : `; nor could any of the ${others.count} rows after it be read`
        : `; and ${others.count} more refused (${others.first.join(', ')}` +
          `${others.count > others.first.length ? ', …' : ''})`;
    super(
      `${file}: expected ${expected}${found ? `; found ${shortened(found)}` : ''}${more}`,
      options,
    );
  }
}
