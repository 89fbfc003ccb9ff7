import { List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/**
 * The sign-up terms (subscriptions-and-payments §1, §9): the annual subscription agreement and
 * the SMS consent. Headings start at h3: the text sits inside a dialog titled at h2.
 */
export function TermsAndConditions() {
  return (
    <Stack gap="md">
      <Text size="sm">
        These Terms and Conditions form the agreement between you and RateLens (“we”, “us”) for the
        use of the RateLens website and data services. By creating an account you accept them.
      </Text>

      <Section title="1. Subscription and term">
        <Text size="sm">
          Subscriptions are annual agreements. The fee is charged monthly, but the commitment is for
          the full annual term: you agree to pay every monthly fee of the year you subscribe for.
        </Text>
      </Section>

      <Section title="2. Automatic renewal">
        <Text size="sm">
          Your subscription renews automatically for another annual term unless you give us notice
          that you do not want it renewed at least 60 days before the renewal date.
        </Text>
      </Section>

      <Section title="3. Fees and refunds">
        <Text size="sm">
          Fees are non-refundable. The only exception is when we terminate your subscription, in
          which case we refund the fees paid for the part of the term that remains.
        </Text>
      </Section>

      <Section title="4. Price changes">
        <Text size="sm">
          We may change the price of a subscription no more than once a year, and we will tell you
          at least 60 days before the new price applies.
        </Text>
      </Section>

      <Section title="5. Eligibility and accounts">
        <List size="sm" spacing={4}>
          <List.Item>You must be at least 18 years old to use the service.</List.Item>
          <List.Item>
            Each person may hold one account, and an account is for the use of one person only.
          </List.Item>
          <List.Item>
            You confirm that you are not a competitor of RateLens and will not use the service to
            build or support a competing product.
          </List.Item>
        </List>
      </Section>

      <Section title="6. Limitation of liability">
        <Text size="sm">
          Our total liability to you under this agreement is limited to three (3) times the annual
          fee of your subscription.
        </Text>
      </Section>

      <Section title="7. Misuse and breach">
        <Text size="sm">
          If we find that the service is being misused, we will tell you and you will have 90 days
          to cure the misuse. For acts contrary to this agreement we will give you 30 days’ notice
          before we act on them.
        </Text>
      </Section>

      <Section title="8. Assignment">
        <Text size="sm">
          Either party may assign this agreement by giving the other 90 days’ notice.
        </Text>
      </Section>

      <Section title="9. Termination">
        <Text size="sm">
          A request to terminate is processed within 5 business days of the day we receive it.
        </Text>
      </Section>

      <Section title="10. Governing law">
        <Text size="sm">
          This agreement is governed by the laws of the Commonwealth of Pennsylvania.
        </Text>
      </Section>

      <Section title="11. SMS consent">
        <Text size="sm">
          When you ask for a report by text message, you agree to receive one SMS message with a
          secure link to your report. We send it once, for that request only, and never use your
          number for marketing. Message and data rates may apply. Reply STOP to opt out of any
          further messages.
        </Text>
      </Section>
    </Stack>
  );
}
