import { partnersText } from '../features/public/content.ts';
import { Markdown } from '../features/public/markdown.tsx';
import { PartnerGrid } from '../features/public/partner-grid.tsx';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const PARTNERS_META = {
  title: 'Our Partners',
  description: 'The organisations RateLens works with to make healthcare prices visible.',
};

/** /partner (subscriptions-and-payments §2 "Partners"). */
export function PartnersRoute() {
  usePageMeta(PARTNERS_META);
  return (
    <Page title={PARTNERS_META.title} size="md">
      <Markdown>{partnersText}</Markdown>
      <PartnerGrid />
    </Page>
  );
}
