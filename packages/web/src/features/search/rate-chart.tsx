import { Box, Group, Stack, Table, Text } from '@mantine/core';
import type { SummaryRow } from '@ratelens/core';
import { ScrollRegion } from '../../shared/scroll-region.tsx';
import { formatDollars, formatRate } from './rate-pivot.ts';
import classes from './rate-chart.module.css';

interface RateChartProps {
  /** What the chart is about, e.g. '(70551) MRI of the brain, no contrast'. */
  subject: string;
  rows: readonly SummaryRow[];
}

const percent = (value: number, max: number) => `${max > 0 ? (value / max) * 100 : 0}%`;

/** The sentence a screen reader (and everyone else) gets instead of the bars. */
export function chartSummary(rows: readonly SummaryRow[]): string {
  const priced = rows.filter((row) => row.AvgAmt !== null);
  if (priced.length === 0) return 'No hospital has a rate for this code.';
  const sorted = [...priced].sort((a, b) => (a.AvgAmt ?? 0) - (b.AvgAmt ?? 0));
  const lowest = sorted[0];
  const highest = sorted[sorted.length - 1];
  if (!lowest || !highest) return '';
  const count = `${priced.length} ${priced.length === 1 ? 'hospital' : 'hospitals'}`;
  if (lowest === highest) {
    return `${count}: ${lowest.FacilityName}, average rate ${formatDollars(lowest.AvgAmt ?? 0)}.`;
  }
  return (
    `${count}. Lowest average rate: ${formatDollars(lowest.AvgAmt ?? 0)} at ${lowest.FacilityName}. ` +
    `Highest average rate: ${formatDollars(highest.AvgAmt ?? 0)} at ${highest.FacilityName}.`
  );
}

const dash = (value: number | null) => (value === null ? '—' : formatRate(value));

/**
 * Each hospital's lowest, average and highest negotiated rate and its cash price for the chosen
 * code (`getoobratesSummery`), drawn as range bars. The bars are decoration for the eye; the
 * summary sentence and the data table carry the same figures for everyone else.
 */
export function RateChart({ subject, rows }: RateChartProps) {
  const sorted = [...rows].sort((a, b) => (b.AvgAmt ?? -1) - (a.AvgAmt ?? -1));
  const max = Math.max(0, ...sorted.flatMap((row) => [row.HighAmt ?? 0, row.CASH_RATE ?? 0]));

  return (
    <Box component="figure" m={0} aria-labelledby="rate-chart-caption">
      <Stack gap="sm">
        <Text component="figcaption" id="rate-chart-caption" fw={650} size="lg">
          Rates by hospital for {subject}
        </Text>
        <Text size="sm">{chartSummary(rows)}</Text>

        <Group gap="lg" aria-hidden="true">
          <Group gap={6}>
            <span className={classes.legendRange} />
            <Text size="sm">Lowest to highest rate</Text>
          </Group>
          <Group gap={6}>
            <span className={`${classes.marker} ${classes.averageMark}`} />
            <Text size="sm">Average rate</Text>
          </Group>
          <Group gap={6}>
            <span className={`${classes.marker} ${classes.cashMark}`} />
            <Text size="sm">Cash price</Text>
          </Group>
        </Group>

        <ul className={classes.bars} aria-hidden="true">
          {sorted.map((row) => (
            <li key={row.hospitalId} className={classes.bar}>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {row.FacilityName}
              </Text>
              <div className={classes.track}>
                {row.LowAmt !== null && row.HighAmt !== null && (
                  <div
                    className={classes.range}
                    style={{
                      left: percent(row.LowAmt, max),
                      width: `calc(${percent(row.HighAmt - row.LowAmt, max)} + 2px)`,
                    }}
                  />
                )}
                {row.AvgAmt !== null && (
                  <div
                    className={`${classes.marker} ${classes.averageMark} ${classes.placed}`}
                    style={{ left: percent(row.AvgAmt, max) }}
                  />
                )}
                {row.CASH_RATE !== null && (
                  <div
                    className={`${classes.marker} ${classes.cashMark} ${classes.placed}`}
                    style={{ left: percent(row.CASH_RATE, max) }}
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
        <Group justify="space-between" aria-hidden="true">
          <Text size="xs">{formatDollars(0)}</Text>
          <Text size="xs">{formatDollars(max / 2)}</Text>
          <Text size="xs">{formatDollars(max)}</Text>
        </Group>

        <details>
          <summary>
            <Text span size="sm">
              The chart as a table
            </Text>
          </summary>
          <ScrollRegion label="Rates by hospital" minWidth={520}>
            <Table withTableBorder mt="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Hospital</Table.Th>
                  <Table.Th scope="col">Lowest rate ($)</Table.Th>
                  <Table.Th scope="col">Average rate ($)</Table.Th>
                  <Table.Th scope="col">Highest rate ($)</Table.Th>
                  <Table.Th scope="col">Cash price ($)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {sorted.map((row) => (
                  <Table.Tr key={row.hospitalId}>
                    <Table.Th scope="row" fw={400}>
                      {row.FacilityName}
                    </Table.Th>
                    <Table.Td ta="right">{dash(row.LowAmt)}</Table.Td>
                    <Table.Td ta="right">{dash(row.AvgAmt)}</Table.Td>
                    <Table.Td ta="right">{dash(row.HighAmt)}</Table.Td>
                    <Table.Td ta="right">{dash(row.CASH_RATE)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        </details>
      </Stack>
    </Box>
  );
}
