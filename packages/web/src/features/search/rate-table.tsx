import { Table, Text, VisuallyHidden } from '@mantine/core';
import type { OopRateRow } from '@ratelens/core';
import { Fragment, useMemo } from 'react';
import { ScrollRegion } from '../../shared/scroll-region.tsx';
import { RateCards } from './rate-cards.tsx';
import {
  buildRatePivot,
  cashCheaperWords,
  facilityCash,
  formatEstimate,
  formatRate,
  modifierWords,
  originWords,
  RATE_TABLE_COLUMNS,
  type CodeGroup,
} from './rate-pivot.ts';

const INDENT = { facility: 'var(--mantine-spacing-md)', plan: 'var(--mantine-spacing-xl)' };

/**
 * The results as an accessible table instead of the old product's pivot widget: one body per
 * facility whose first row heads the group (scope="rowgroup"), plan rows under it. Code
 * descriptions head their own rows. Rates show 2 decimals; every level is sorted by rate,
 * highest first.
 */
export function RateTable({ rows }: { rows: readonly OopRateRow[] }) {
  const pivot = useMemo(() => buildRatePivot(rows), [rows]);
  return (
    <>
      <WideRates pivot={pivot} />
      <RateCards pivot={pivot} />
    </>
  );
}

/** From the `sm` breakpoint (768 px) up; below it, a card per hospital (rate-cards.tsx). */
function WideRates({ pivot }: { pivot: readonly CodeGroup[] }) {
  return (
    <ScrollRegion label="Negotiated rates" minWidth={720} visibleFrom="sm">
      <Table withTableBorder withColumnBorders verticalSpacing="xs">
        <VisuallyHidden component="caption">
          Negotiated rates by code, hospital and plan
        </VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            {RATE_TABLE_COLUMNS.map((column) => (
              <Table.Th key={column} scope="col">
                {column}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        {pivot.map((code) => (
          <Fragment key={code.codeDescription}>
            <Table.Tbody>
              <Table.Tr bg="indigo.0">
                <Table.Th scope="row">
                  ({code.code}) {code.codeDescription}
                </Table.Th>
                <Table.Td ta="right" fw={700}>
                  {formatRate(code.rate)}
                </Table.Td>
                <Table.Td />
                <Table.Td />
                <Table.Td />
              </Table.Tr>
            </Table.Tbody>
            {code.facilities.map((facility) => (
              <Table.Tbody key={facility.hospitalId || facility.facilityName}>
                <Table.Tr bg="gray.0">
                  <Table.Th scope="rowgroup" style={{ paddingLeft: INDENT.facility }}>
                    {facility.facilityName}
                  </Table.Th>
                  <Table.Td ta="right" fw={600}>
                    {formatRate(facility.rate)}
                  </Table.Td>
                  <Table.Td />
                  <Table.Td ta="right">
                    {facilityCash(facility) ?? (
                      <Text span size="sm" c="dimmed">
                        Not published
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td />
                </Table.Tr>
                {facility.plans.map((plan) => (
                  <Table.Tr key={plan.key}>
                    <Table.Th
                      scope="row"
                      fw={400}
                      style={{ paddingLeft: INDENT.plan, overflowWrap: 'anywhere' }}
                    >
                      {plan.planName}
                      {plan.modifiers.length > 0 && (
                        <Text size="xs" c="dimmed">
                          {modifierWords(plan.modifiers)}
                        </Text>
                      )}
                    </Table.Th>
                    <Table.Td ta="right">{formatRate(plan.rate)}</Table.Td>
                    <Table.Td ta="right">
                      {formatEstimate(plan.memberOop)}
                      {plan.cheaperCash !== null && (
                        <Text size="xs" ta="left" c="teal.9" fw={600} mt={4}>
                          {cashCheaperWords(plan.cheaperCash)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td />
                    <Table.Td>
                      <Text size="sm">{originWords(plan)}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            ))}
          </Fragment>
        ))}
      </Table>
    </ScrollRegion>
  );
}
