import { privacyPolicyText } from '../features/public/content.ts';
import { Markdown } from '../features/public/markdown.tsx';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const PRIVACY_META = {
  title: 'Privacy Policy',
  description:
    'What personal information RateLens collects, how it is used, SMS messaging, security ' +
    'and how to ask for your data to be deleted.',
};

/** /privacy-policy (subscriptions-and-payments §1, §9). */
export function PrivacyPolicyRoute() {
  usePageMeta(PRIVACY_META);
  return (
    <Page title={PRIVACY_META.title} size="md">
      <Markdown>{privacyPolicyText}</Markdown>
    </Page>
  );
}
