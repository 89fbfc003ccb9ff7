import { termsText } from '../features/public/content.ts';
import { Markdown } from '../features/public/markdown.tsx';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const TERMS_META = {
  title: 'Terms and Conditions',
  description:
    'The RateLens subscription agreement: term, renewal, fees, eligibility, liability and SMS ' +
    'consent.',
};

/** /terms-condition: the same text as the sign-up dialog (subscriptions-and-payments §1, §9). */
export function TermsConditionsRoute() {
  usePageMeta(TERMS_META);
  return (
    <Page title={TERMS_META.title} size="md">
      <Markdown>{termsText}</Markdown>
    </Page>
  );
}
