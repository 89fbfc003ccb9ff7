import { useEffect } from 'react';

export interface PageMeta {
  /** The page's title; " | RateLens" is added unless it already names RateLens. */
  title: string;
  /** One or two sentences for search results and link previews. */
  description: string;
}

const SITE_NAME = 'RateLens';

/** The meta element with `attribute`="`key`", created in <head> when index.html lacks it. */
function metaElement(attribute: 'name' | 'property', key: string): HTMLMetaElement {
  const found = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (found) return found;
  const meta = document.createElement('meta');
  meta.setAttribute(attribute, key);
  document.head.append(meta);
  return meta;
}

/**
 * Sets the document title, the meta description and their Open Graph twins for one route, and
 * puts back what was there when the route unmounts, so a page without its own description never
 * keeps the previous page's.
 */
export function usePageMeta({ title, description }: PageMeta) {
  useEffect(() => {
    const fullTitle = title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
    const tags: [HTMLMetaElement, string][] = [
      [metaElement('name', 'description'), description],
      [metaElement('property', 'og:title'), fullTitle],
      [metaElement('property', 'og:description'), description],
    ];
    const previousTitle = document.title;
    const previous = tags.map(([meta]) => meta.content);

    document.title = fullTitle;
    for (const [meta, content] of tags) meta.content = content;

    return () => {
      document.title = previousTitle;
      tags.forEach(([meta], index) => {
        meta.content = previous[index] ?? '';
      });
    };
  }, [title, description]);
}
