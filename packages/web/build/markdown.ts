/**
 * The editors' Markdown (src/content/) compiled when the app is built: `import tree from
 * './file.md?tree'` gives a hast tree, which <Markdown> renders. The browser then ships no
 * Markdown parser (it was a fifth of the main chunk) and parses nothing at run time.
 * vite.config.ts and vitest.config.ts load the plugin; tests compile their own snippets.
 */
import { readFile } from 'node:fs/promises';
import type { Element, Nodes, Root } from 'hast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';
import type { Plugin } from 'vite';

const SAFE_PROTOCOL = /^(https?|ircs?|mailto|xmpp)$/i;

/**
 * A link target as written, or '' when it names a protocol other than http(s), irc(s), mailto or
 * xmpp (`javascript:`, `data:`): react-markdown's rule, which the content was written against.
 */
export function safeUrl(value: string): string {
  const colon = value.indexOf(':');
  if (colon === -1) return value;
  // A colon after `/`, `?` or `#` is part of a relative path, not a protocol.
  for (const mark of ['/', '?', '#']) {
    const at = value.indexOf(mark);
    if (at !== -1 && colon > at) return value;
  }
  return SAFE_PROTOCOL.test(value.slice(0, colon)) ? value : '';
}

/** Drops source positions (bulk the browser has no use for) and unsafe link targets. */
function tidy(node: Nodes): void {
  delete node.position;
  if (node.type === 'element') sanitiseUrls(node);
  if ('children' in node) for (const child of node.children) tidy(child);
}

function sanitiseUrls(element: Element): void {
  for (const name of ['href', 'src'] as const) {
    const value = element.properties[name];
    if (typeof value === 'string') element.properties[name] = safeUrl(value);
  }
}

/**
 * CommonMark to hast. Raw HTML in the text is dropped, never passed on: `toHast` keeps it only
 * when asked to (`allowDangerousHtml`), and nothing here asks.
 */
export function compileMarkdown(markdown: string): Root {
  const tree = toHast(fromMarkdown(markdown));
  const root: Root = tree.type === 'root' ? tree : { type: 'root', children: [] };
  tidy(root);
  return root;
}

const QUERY = '?tree';

/** Vite (and Vitest) plugin: a `.md?tree` import is the file's hast tree, as a JSON module. */
export function markdownTree(): Plugin {
  return {
    name: 'ratelens-markdown-tree',
    async load(id) {
      if (!id.endsWith(`.md${QUERY}`)) return null;
      const file = id.slice(0, -QUERY.length);
      this.addWatchFile(file);
      const tree = compileMarkdown(await readFile(file, 'utf8'));
      return { code: `export default ${JSON.stringify(tree)};`, map: null };
    },
  };
}
