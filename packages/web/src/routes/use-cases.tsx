import { Card, SimpleGrid, Stack, Title } from '@mantine/core';
import { useOfRatesText, whyTransparencyText } from '../features/public/content.ts';
import { DeferredVideo } from '../features/public/deferred-video.tsx';
import { Markdown } from '../features/public/markdown.tsx';
import { TextModalButton } from '../features/public/text-modal.tsx';
import { USE_CASES } from '../features/public/use-cases.ts';
import { WHY_TRANSPARENCY_VIDEO_URL } from '../features/public/video-config.ts';
import { Page } from '../shared/page.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const USE_CASES_META = {
  title: 'Use cases',
  description:
    'How employers, health plans, benefit companies, doctors, hospitals and members use ' +
    'hospital negotiated rates from RateLens.',
};

export const WHY_TRANSPARENCY_TITLE = 'Healthcare - Why Price Transparency Matters';

/**
 * The use-cases page (subscriptions-and-payments §1). The spec gives no path: /useCases,
 * linked from /productandservices and the footer.
 */
export function UseCasesRoute() {
  usePageMeta(USE_CASES_META);
  return (
    <Page title={USE_CASES_META.title} size="lg">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {USE_CASES.map((useCase) => (
          <Card key={useCase.id} withBorder padding="lg" component="article">
            <Stack gap="sm" h="100%" justify="space-between">
              <Stack gap="xs">
                <Title order={2} size="h4">
                  {useCase.title}
                </Title>
                <Markdown size="sm">{useCase.summary}</Markdown>
              </Stack>
              <TextModalButton
                title={useCase.title}
                buttonLabel={`Example uses: ${useCase.title}`}
                text={useCase.details}
                variant="light"
              />
            </Stack>
          </Card>
        ))}
      </SimpleGrid>

      <DeferredVideo
        title={WHY_TRANSPARENCY_TITLE}
        url={WHY_TRANSPARENCY_VIDEO_URL}
        textAlternative={whyTransparencyText}
      />

      <Markdown>{useOfRatesText}</Markdown>
    </Page>
  );
}
