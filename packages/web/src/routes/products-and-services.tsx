import { productsText } from '../features/public/content.ts';
import { Markdown } from '../features/public/markdown.tsx';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const PRODUCTS_META = {
  title: 'Products & services',
  description:
    'Rate search and out-of-pocket estimates, subscriptions, bill repricing, the employer ' +
    'dashboard, data feeds and Rx wholesaler prices from RateLens.',
};

/** /productandservices: what RateLens offers, each with a link to where it lives. */
export function ProductsAndServicesRoute() {
  usePageMeta(PRODUCTS_META);
  return (
    <Page title={PRODUCTS_META.title} size="md">
      <Markdown>{productsText}</Markdown>
    </Page>
  );
}
