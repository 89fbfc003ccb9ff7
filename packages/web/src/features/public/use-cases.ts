import type { Element, RootContent } from 'hast';
import type { MarkdownTree } from './markdown.tsx';

export interface UseCase {
  /** From the file name: stable, for ids. */
  id: string;
  title: string;
  /** The paragraph on the card. */
  summary: MarkdownTree;
  /** The rest of the file, from its first `##` heading: the dialog's body. */
  details: MarkdownTree;
}

const isHeading = (node: RootContent, tagName: 'h1' | 'h2'): node is Element =>
  node.type === 'element' && node.tagName === tagName;

function textOf(node: RootContent): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/**
 * Splits a use-case file (`# Title`, a summary, then `##` sections) into its parts. A file
 * without a title line is a mistake an editor should see, so it fails loudly.
 */
export function parseUseCase(id: string, tree: MarkdownTree): UseCase {
  const nodes = tree.children;
  const titleAt = nodes.findIndex((node) => isHeading(node, 'h1'));
  const heading = nodes[titleAt];
  const title = heading ? textOf(heading).trim() : '';
  if (!title) throw new Error(`Use case ${id}: the file must start with "# Title".`);
  const afterTitle = nodes.slice(titleAt + 1);
  const firstSection = afterTitle.findIndex((node) => isHeading(node, 'h2'));
  const split = firstSection === -1 ? afterTitle.length : firstSection;
  return {
    id,
    title,
    summary: { type: 'root', children: afterTitle.slice(0, split) },
    details: { type: 'root', children: afterTitle.slice(split) },
  };
}

const files = import.meta.glob<MarkdownTree>('../../content/use-cases/*.md', {
  query: '?tree',
  import: 'default',
  eager: true,
});

/** The use-case cards, in file-name order (`01-…`, `02-…`). */
export const USE_CASES: UseCase[] = Object.entries(files)
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([path, tree]) => {
    const id = (/([^/]+)\.md$/.exec(path)?.[1] ?? path).replace(/^\d+-/, '');
    return parseUseCase(id, tree);
  });
