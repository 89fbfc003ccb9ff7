import { Button, Group, List, Stack, Text, Title } from '@mantine/core';
import {
  DEFAULT_PLAN_DESIGN,
  SEARCH_MESSAGES,
  describeAssumptions,
  type OopRateRow,
  type SendPdfBody,
} from '@ratelens/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { FormAlert } from '../../shared/form-alert.tsx';
import { errorMessage } from '../../shared/http.ts';
import { PageLoader } from '../../shared/page-loader.tsx';
import { saveBlob } from '../../shared/save-blob.ts';
import { RateChart } from './rate-chart.tsx';
import { RateTable } from './rate-table.tsx';
import {
  isCustomSearch,
  searchInputOf,
  toSearchInput,
  type AnySavedSearch,
} from './saved-search.ts';
import { exportRates, getSummary } from './search-api.ts';
import { codeLabel } from './search-form.ts';
import { searchKeys, usePlanDesign } from './search-queries.ts';
import { TextReportButton } from './text-report-button.tsx';

/** The server gives back a search that finds no rate (ADR 0015): the message says so. */
export const NO_RATES_MESSAGE =
  'No hospital in this metro area has published a rate for this code and billing class. ' +
  'This search did not count against your searches.';
export const DISCLAIMER =
  'Rates come from the files hospitals publish under the federal price-transparency rule. ' +
  'Out-of-pocket figures are estimates, not a quote: what you pay depends on your own plan.';

interface RateResultsProps {
  search: AnySavedSearch;
  rows: readonly OopRateRow[];
  /** Why the search failed, when it did: the results are then empty (§4 "On a failed query"). */
  error: string | null;
  user: { userId: string; email: string };
}

/** What the PDF's domain field carries: the part of the e-mail after '@' (§7 "userDomain"). */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at === -1 ? null : email.slice(at + 1) || null;
}

/**
 * The results of a search (§2 "/ooprates"): what was searched, the actions (Download, Text me a
 * report), the assumptions behind the out-of-pocket estimates, the rates table, the chart and the
 * disclaimer.
 */
export function RateResults({ search, rows, error, user }: RateResultsProps) {
  const subject = codeLabel(search.code, search.codeDescription);
  const hospitals = new Set(rows.map((row) => row.hospitalId)).size;
  const heading = useRef<HTMLHeadingElement>(null);

  // Each answer (rows, or the empty or failed result) takes the focus to the heading. Without it
  // the focus is left on the page (Get Rates is disabled while it searches): keyboard users would
  // start again at the top and screen readers would not hear that the results came. Every answer
  // brings new props, even one equal to the last; a mere re-render does not move the focus.
  useEffect(() => {
    heading.current?.focus();
  }, [search, rows, error]);

  return (
    <Stack gap="lg" component="section" aria-labelledby="results-heading">
      <Stack gap={4}>
        <Title order={2} id="results-heading" ref={heading} tabIndex={-1}>
          Results
        </Title>
        <Text>
          {subject} in {search.msaName}, {search.stateName} ({search.paymentMethod})
        </Text>
        {rows.length > 0 && (
          <Text size="sm" c="dimmed" role="status">
            {rows.length === 1 ? '1 rate' : `${rows.length.toLocaleString('en-US')} rates`} at{' '}
            {hospitals === 1 ? '1 hospital' : `${hospitals} hospitals`}
          </Text>
        )}
      </Stack>

      {error !== null && <FormAlert tone="error">{error}</FormAlert>}
      {rows.length === 0 ? (
        error === null && <Text role="status">{NO_RATES_MESSAGE}</Text>
      ) : (
        <>
          <ResultActions search={search} user={user} subject={subject} />
          <Assumptions search={search} />
          <RateTable rows={rows} />
          <SummaryChart search={search} subject={subject} />
        </>
      )}
      <Text size="sm" c="dimmed">
        {DISCLAIMER}
      </Text>
    </Stack>
  );
}

function ResultActions({
  search,
  user,
  subject,
}: {
  search: AnySavedSearch;
  user: RateResultsProps['user'];
  subject: string;
}) {
  const download = useMutation({
    mutationFn: () => exportRates(searchInputOf(search)),
    onSuccess: (file) => saveBlob(file.blob, file.fileName),
  });

  const reportRequest = (): Omit<SendPdfBody, 'number'> => ({
    search: searchInputOf(search),
    pdfHeader: `RateLens: ${subject} in ${search.msaName}`.slice(0, 200),
    pdfFooter: SEARCH_MESSAGES.footerNotice,
    userId: user.userId,
    report_Type: search.report_Type,
    StateCode: search.stateCode,
    userDomain: emailDomain(user.email),
  });

  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-start">
        <Button onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? 'Downloading...' : 'Download'}
        </Button>
        <TextReportButton request={reportRequest} />
      </Group>
      {download.isError && <FormAlert tone="error">{errorMessage(download.error)}</FormAlert>}
    </Stack>
  );
}

function Assumptions({ search }: { search: AnySavedSearch }) {
  const plan = usePlanDesign(true);
  // Until the plan arrives (or if it cannot), the defaults the server starts from are stated.
  const lines = isCustomSearch(search)
    ? describeAssumptions(search.lives, search.accumulator, plan.data ?? DEFAULT_PLAN_DESIGN)
    : describeAssumptions(1, 0, plan.data ?? DEFAULT_PLAN_DESIGN);
  return (
    <Stack gap="xs" component="section" aria-labelledby="assumptions-heading">
      <Title order={3} size="h4" id="assumptions-heading">
        How we estimate your out-of-pocket
      </Title>
      {!isCustomSearch(search) && (
        <Text size="sm">
          Your organisation's search shows the estimate for one person who has spent nothing yet
          this year.
        </Text>
      )}
      <List size="sm" spacing={4}>
        {lines.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

function SummaryChart({ search, subject }: { search: AnySavedSearch; subject: string }) {
  const input = toSearchInput(search);
  const summary = useQuery({
    queryKey: [...searchKeys.all, 'summary', input],
    queryFn: () => getSummary(input),
  });
  if (summary.isPending) return <PageLoader label="Loading the chart..." />;
  if (summary.isError) return <FormAlert tone="error">{errorMessage(summary.error)}</FormAlert>;
  if (summary.data.length === 0) return null;
  return <RateChart subject={subject} rows={summary.data} />;
}
