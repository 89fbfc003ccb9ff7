import termsText from '../../content/terms.md?tree';
import { Markdown } from '../public/markdown.tsx';

/**
 * The sign-up terms (subscriptions-and-payments §1, §9), from `content/terms.md`: the same text
 * as /terms-condition. Headings start at h3: here the text sits inside a dialog titled at h2.
 */
export function TermsAndConditions() {
  return (
    <Markdown headingOffset={1} size="sm">
      {termsText}
    </Markdown>
  );
}
