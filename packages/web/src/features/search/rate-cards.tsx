import { Paper, Stack, Text, Title } from '@mantine/core';
import { LabelledFigure } from '../../shared/labelled-figure.tsx';
import {
  cashCheaperWords,
  facilityCash,
  formatEstimate,
  formatRate,
  modifierWords,
  originWords,
  RATE_TABLE_COLUMNS,
  type CodeGroup,
} from './rate-pivot.ts';

const [, RATE, OUT_OF_POCKET, CASH] = RATE_TABLE_COLUMNS;

/**
 * The results on a phone: the same pivot as the table, a card per hospital with its plans one
 * under another, each plan's figures labelled with the table's column names. At 375 px the table's
 * out-of-pocket and cash columns, the figures a consumer came for, were off-screen to the right.
 */
export function RateCards({ pivot }: { pivot: readonly CodeGroup[] }) {
  return (
    <Stack gap="lg" hiddenFrom="sm">
      {pivot.map((code) => (
        <Stack key={code.codeDescription} gap="sm">
          <div>
            <Title order={3} size="h4">
              ({code.code}) {code.codeDescription}
            </Title>
            <Text size="sm">Average negotiated rate: ${formatRate(code.rate)}</Text>
          </div>
          {code.facilities.map((facility) => (
            <Paper
              key={facility.hospitalId || facility.facilityName}
              component="section"
              aria-label={facility.facilityName}
              withBorder
              radius="md"
              p="sm"
            >
              <Title order={4} size="h5">
                {facility.facilityName}
              </Title>
              <LabelledFigure label="Average rate ($)">{formatRate(facility.rate)}</LabelledFigure>
              <LabelledFigure label={CASH}>
                {facilityCash(facility) ?? 'Not published'}
              </LabelledFigure>
              <Stack
                component="ul"
                gap={0}
                p={0}
                m={0}
                mt="xs"
                aria-label={`Plans at ${facility.facilityName}`}
                style={{ listStyle: 'none' }}
              >
                {facility.plans.map((plan) => (
                  <Stack
                    key={plan.key}
                    component="li"
                    gap={2}
                    py="xs"
                    style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
                  >
                    <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {plan.planName}
                    </Text>
                    {plan.modifiers.length > 0 && (
                      <Text size="xs" c="dimmed">
                        {modifierWords(plan.modifiers)}
                      </Text>
                    )}
                    <LabelledFigure label={RATE}>{formatRate(plan.rate)}</LabelledFigure>
                    <LabelledFigure label={OUT_OF_POCKET}>
                      {formatEstimate(plan.memberOop)}
                    </LabelledFigure>
                    {plan.cheaperCash !== null && (
                      <Text size="xs" c="teal.9" fw={600}>
                        {cashCheaperWords(plan.cheaperCash)}
                      </Text>
                    )}
                    <Text size="xs">{originWords(plan)}</Text>
                  </Stack>
                ))}
              </Stack>
            </Paper>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
