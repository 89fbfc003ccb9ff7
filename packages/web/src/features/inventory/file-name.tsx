import { Fragment } from 'react';

/**
 * A file's name in the pieces a line may end after: its stem cut after each underscore, hyphen
 * and dot, and its extension (with a short one before it, as in .json.gz), which stays whole.
 */
export function fileNameParts(name: string): { stem: string[]; extension: string } {
  const match = /(\.[A-Za-z0-9]{1,5}){1,2}$/.exec(name);
  const extension = match !== null && match.index > 0 ? match[0] : '';
  const stem = name.slice(0, name.length - extension.length);
  return { stem: stem.split(/(?<=.[_.-])/), extension };
}

/**
 * A file's name that wraps, on a narrow screen, after an underscore, hyphen or dot rather than
 * anywhere, and never inside its extension ("…standardcharges.cs" over "v"). A piece still too
 * long for the line is broken by its container's overflow-wrap, the extension kept whole.
 */
export function FileName({ name }: { name: string }) {
  const { stem, extension } = fileNameParts(name);
  return (
    <>
      {stem.map((piece, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
      {extension !== '' && <span style={{ whiteSpace: 'nowrap' }}>{extension}</span>}
    </>
  );
}
