import { Divider, Stack, Title } from '@mantine/core';
import { ContactForm } from '../features/public/contact-form.tsx';
import { missionText, teamText } from '../features/public/content.ts';
import { Markdown } from '../features/public/markdown.tsx';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const OUR_MISSION_META = {
  title: 'Our Mission',
  description:
    'Why RateLens makes hospital prices visible, who is behind it, and how to contact us.',
};

/** /ourMission: mission, about us and the contact form (search-and-accounts §1, §2). */
export function OurMissionRoute() {
  usePageMeta(OUR_MISSION_META);
  return (
    <Page title={OUR_MISSION_META.title} size="md">
      <Markdown>{missionText}</Markdown>
      <Markdown headingOffset={0}>{teamText}</Markdown>
      <Divider />
      <Stack gap="sm" component="section" aria-labelledby="contact-heading">
        <Title order={2} id="contact-heading">
          Contact us
        </Title>
        <ContactForm />
      </Stack>
    </Page>
  );
}
