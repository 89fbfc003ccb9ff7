import { Anchor, Box, Button, Card, Container, Group, Stack, Text, Title } from '@mantine/core';
import {
  alaskaRatesText,
  educationText,
  explainerText,
  howToBuyText,
  howToText,
  omegaNotesText,
} from '../features/public/content.ts';
import { DeferredVideo } from '../features/public/deferred-video.tsx';
import { Markdown } from '../features/public/markdown.tsx';
import { TextModalButton } from '../features/public/text-modal.tsx';
import { HOW_TO_VIDEO_URL } from '../features/public/video-config.ts';
import { HomeRateSearch } from '../features/search/home-rate-search.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const HOME_META = {
  title: 'RateLens: hospital prices in the open',
  description:
    'Compare the rates US hospitals have negotiated with health plans, by state, metro area, ' +
    'medical code and billing class, and estimate what you would pay out of pocket.',
};

/** The free file the server builds from the database (search-and-accounts §1). */
export const ALASKA_RATES_URL = '/api/downloads/alaska-rates.csv';

/** The spec names a patient-advocate site without its address (search-and-accounts §1). */
export const PATIENT_ADVOCATE_URL = 'https://www.patientadvocate.org';

/**
 * Home: the banner and the rate search (search-and-accounts §2 "Home"), then the public content
 * of §1: how-to video, open-price explainer, the free Alaska file, the two popups, the
 * patient-advocate link and the education text.
 */
export function HomeRoute() {
  usePageMeta(HOME_META);

  return (
    <>
      <Box bg="indigo.0" py={48}>
        <Container size="md">
          <Stack gap="md">
            <Title order={1}>Know what your care costs before you go</Title>
            <Text size="lg">
              Lower negotiated rates mean lower out-of-pocket cost. RateLens shows the rates
              hospitals have negotiated with health plans, by state, metro area, medical code and
              billing class, so you can see what you would pay.
            </Text>
          </Stack>
        </Container>
      </Box>

      <Container size="md" py="xl">
        <HomeRateSearch />
      </Container>

      <Container size="md" pb="xl">
        <Stack gap="xl">
          <DeferredVideo
            title="How to use RateLens"
            url={HOW_TO_VIDEO_URL}
            textAlternative={howToText}
          />

          <Box component="section">
            <Markdown>{explainerText}</Markdown>
          </Box>

          <Card withBorder padding="lg" component="section">
            <Markdown>{alaskaRatesText}</Markdown>
            <Group>
              <Button component="a" href={ALASKA_RATES_URL} download>
                Download the Alaska rates (CSV)
              </Button>
            </Group>
          </Card>

          <Stack gap="sm" component="section" aria-labelledby="learn-more">
            <Title order={2} id="learn-more">
              Learn more
            </Title>
            <Group gap="sm">
              <TextModalButton
                title="How to buy low-cost healthcare"
                text={howToBuyText}
                variant="outline"
              />
              <TextModalButton title="Omega Notes" text={omegaNotesText} variant="outline" />
            </Group>
            <Text>
              Need help with a bill, a denied claim or access to care? The{' '}
              <Anchor href={PATIENT_ADVOCATE_URL} rel="noopener noreferrer">
                Patient Advocate Foundation
              </Anchor>{' '}
              offers free case management to patients.
            </Text>
          </Stack>

          <Box component="section">
            <Markdown>{educationText}</Markdown>
          </Box>
        </Stack>
      </Container>
    </>
  );
}
