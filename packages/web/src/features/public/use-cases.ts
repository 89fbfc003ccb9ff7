export interface UseCase {
  /** From the file name: stable, for ids. */
  id: string;
  title: string;
  /** The paragraph on the card. */
  summary: string;
  /** The rest of the file, from its first `##` heading: the dialog's body. */
  details: string;
}

/**
 * Splits a use-case file (`# Title`, a summary, then `##` sections) into its parts. A file
 * without a title line is a mistake an editor should see, so it fails loudly.
 */
export function parseUseCase(id: string, markdown: string): UseCase {
  const text = markdown.replace(/\r\n/g, '\n').trim();
  const title = /^# (.+)$/m.exec(text);
  if (!title?.[1]) throw new Error(`Use case ${id}: the file must start with "# Title".`);
  const afterTitle = text.slice(title.index + title[0].length);
  const firstSection = afterTitle.search(/^## /m);
  return {
    id,
    title: title[1].trim(),
    summary: (firstSection === -1 ? afterTitle : afterTitle.slice(0, firstSection)).trim(),
    details: firstSection === -1 ? '' : afterTitle.slice(firstSection).trim(),
  };
}

const files = import.meta.glob<string>('../../content/use-cases/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The use-case cards, in file-name order (`01-…`, `02-…`). */
export const USE_CASES: UseCase[] = Object.keys(files)
  .sort()
  .map((path) => {
    const id = (/([^/]+)\.md$/.exec(path)?.[1] ?? path).replace(/^\d+-/, '');
    return parseUseCase(id, files[path] ?? '');
  });
