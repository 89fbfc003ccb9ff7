import { Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { FailingFile, RefreshCounts, RefreshStatus, ScheduledRefresh } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  adminErrorMessage,
  adminFilesKeys,
  getFailingFiles,
  getRefreshStatus,
} from '../features/admin/admin-api.ts';
import { RequireAdmin, RequireToken } from '../features/auth/guards.tsx';
import { CardList } from '../shared/card-list.tsx';
import { dayAndTime, formatDateAndTime } from '../shared/format-date.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError } from '../shared/http.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { ScrollRegion } from '../shared/scroll-region.tsx';

export const FILES_TITLE = 'Files that could not be read';
export const REFRESH_TITLE = 'The daily refresh';
export const FAILING_TITLE = 'Failing files';
export const NO_WORKER =
  'No background worker has ever run: the daily refresh has never run, and requests to read a ' +
  "hospital's file again wait for one. The server runs one unless WORKER=off; npm run worker " +
  'runs one beside it.';
export const REFRESH_OFF =
  'The daily refresh is off (REFRESH_SCHEDULE=off): files are read again only when an ' +
  "administrator asks for one on its hospital's page.";
/** pg-boss keeps an ended job a week (12 hours, then 7 days in its archive). */
export const NO_RECENT_REFRESH = 'No daily refresh has run in the past week.';
export const NO_REQUESTS =
  "No administrator's request to read one hospital's file again is waiting or being read.";
export const NO_FAILING_FILES = "Every hospital's latest read of its file succeeded.";
export const FILES_INTRO =
  'Hospitals whose latest read of their file failed, the longest failing first. The daily ' +
  'refresh tries each again; until one succeeds, the rates shown are those of the file in use.';

/** The hospitals whose latest read of their file failed (`GET /api/admin/files/failing`), for administrators. */
export function AdminFilesRoute() {
  return (
    <RequireToken>
      <Page title={FILES_TITLE} size="xl">
        <RequireAdmin>
          <DailyRefresh />
          <FailingFiles />
        </RequireAdmin>
      </Page>
    </RequireToken>
  );
}

const wrap = { overflowWrap: 'anywhere' } as const;

function Hospital({ file }: { file: FailingFile }) {
  return (
    <Anchor component={Link} to={`/inventoryList/${encodeURIComponent(file.hospitalID)}`}>
      {file.facilityName}
    </Anchor>
  );
}

function Source({ file }: { file: FailingFile }) {
  if (file.sourceUrl === null) return <span style={wrap}>{file.source}</span>;
  return (
    <Anchor href={file.sourceUrl} style={wrap}>
      {file.source}
    </Anchor>
  );
}

/** 'Since March 27, 2026 at 10:42 AM; 3 failed reads, the latest on …'. */
export function failingWords(file: Pick<FailingFile, 'failingSince' | 'lastTriedAt' | 'failures'>) {
  const since = `Since ${formatDateAndTime(file.failingSince)}`;
  if (file.failures === 1) return `${since}; 1 failed read`;
  return `${since}; ${file.failures} failed reads, the latest on ${formatDateAndTime(file.lastTriedAt)}`;
}

/** What the rate search shows meanwhile. */
export function meanwhileWords(file: Pick<FailingFile, 'inUseReadAt'>) {
  return file.inUseReadAt === null
    ? 'No file in use: the hospital has no rates.'
    : `Rates from the file read on ${formatDateAndTime(file.inUseReadAt)}.`;
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** A time limit in words: '23 hours', '1 second'. */
function durationWords(seconds: number): string {
  if (seconds >= 3600 && seconds % 3600 === 0) return plural(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}

/** Whether a worker runs, and when the next refresh is due or that it is off. */
export function scheduleWords(status: RefreshStatus): string[] {
  if (status.worker === 'never') return [NO_WORKER];
  const words =
    status.worker === 'stopped' && status.workerSeenAt !== null
      ? [
          `No background worker has been running since ${formatDateAndTime(status.workerSeenAt)}: ` +
            'nothing is read again until one runs.',
        ]
      : [];
  if (status.schedule === null || status.nextRunAt === null) return [...words, REFRESH_OFF];
  return [
    ...words,
    // The time is the reader's own; the schedule's hours are UTC (04:30 there is 20:30 in Los
    // Angeles the day before), so the two are told apart.
    `The next is due on ${formatDateAndTime(status.nextRunAt)} your time ` +
      `(schedule "${status.schedule}", in UTC).`,
  ];
}

/** When the latest refresh ran and how it ended. */
export function latestWords(latest: ScheduledRefresh): string {
  const started = formatDateAndTime(latest.startedAt);
  if (latest.ending === 'running' || latest.endedAt === null)
    return `The latest has been running since ${started}.`;
  const ran = `The latest ran from ${started} to ${formatDateAndTime(latest.endedAt)}`;
  switch (latest.ending) {
    case 'completed':
      return `${ran} and completed.`;
    case 'stopped-early': {
      const left = latest.counts?.notRead ?? 0;
      const why = latest.reason === null ? '' : ` (${latest.reason})`;
      return `${ran} and stopped early${why}: ${plural(left, 'file was', 'files were')} not read; the next refresh reads them.`;
    }
    case 'failed':
      return `${ran} and failed: ${latest.reason ?? 'no error was recorded.'}`;
    case 'timed-out':
      return (
        `${ran} and was cut at its time limit of ${durationWords(latest.timeLimitSeconds)}: ` +
        'the file being read was stopped, and the next refresh reads the files not read.'
      );
  }
}

/** What the refresh did with the files: 'Files: 3 loaded, 12 unchanged, …'. */
export function countsWords(counts: RefreshCounts): string {
  const files =
    `Files: ${counts.loaded} loaded, ${counts.unchanged} unchanged, ${counts.skipped} skipped, ` +
    `${counts.older} older than the one in use, ${counts.failed} failed.`;
  const others = [
    counts.unreadable > 0 ? `${plural(counts.unreadable, 'list')} could not be read.` : null,
    counts.missing > 0
      ? `${plural(counts.missing, 'local file was', 'local files were')} no longer there.`
      : null,
  ].filter((part) => part !== null);
  return [files, ...others].join(' ');
}

/** The administrators' requests for one hospital's file. */
export function requestsWords({ waiting, running }: RefreshStatus['requests']): string {
  if (waiting + running === 0) return NO_REQUESTS;
  return `Administrators' requests to read one hospital's file again: ${waiting} waiting, ${running} being read.`;
}

/** How often the daily refresh's section asks again: while the worker has work, and otherwise. */
const BUSY_REFETCH_MS = 10_000;
const IDLE_REFETCH_MS = 60_000;

/** A refresh running, or administrators' requests waiting or being read. */
function underWay({ latest, requests }: RefreshStatus): boolean {
  return latest?.ending === 'running' || requests.waiting + requests.running > 0;
}

/**
 * No longer an administrator (the role was taken away since sign-in): the list below says so, and
 * nothing is asked again.
 */
const refused = (error: unknown) => error instanceof ApiRequestError && error.status === 403;

/** 'at 2:05 PM', or 'on November 24, 2026 at 2:05 PM' when that is not the day of `now`. */
function whenWords(at: number, now: number): string {
  const iso = new Date(at).toISOString();
  const then = dayAndTime(iso);
  if (then !== null && then.day === dayAndTime(new Date(now).toISOString())?.day)
    return `at ${then.time}`;
  return `on ${formatDateAndTime(iso)}`;
}

/** Whether the daily refresh ran, how it ended, and when it runs next (`GET /api/admin/refresh`). */
function DailyRefresh() {
  const refresh = useQuery({
    queryKey: adminFilesKeys.refreshStatus,
    queryFn: ({ signal }) => getRefreshStatus(signal),
    refetchInterval: ({ state }) =>
      refused(state.error)
        ? false
        : state.data !== undefined && underWay(state.data)
          ? BUSY_REFETCH_MS
          : IDLE_REFETCH_MS,
    // Not while the tab is hidden; once it shows again, at once rather than at the next tick.
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
  // Refused, the person is told once, by the list below.
  if (refused(refresh.error)) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="daily-refresh-title">
      <Stack gap="xs">
        <Title order={2} size="h3" id="daily-refresh-title">
          {REFRESH_TITLE}
        </Title>
        {refresh.isPending ? (
          <PageLoader label="Loading the daily refresh…" />
        ) : refresh.data === undefined ? (
          <FormAlert tone="error">{adminErrorMessage(refresh.error)}</FormAlert>
        ) : (
          <>
            <RefreshWords status={refresh.data} />
            {/* A failed refetch keeps what was shown, and says since when it is known. */}
            {refresh.isError ? (
              <FormAlert tone="info">
                Could not update the refresh status; showing what was known{' '}
                {whenWords(refresh.dataUpdatedAt, refresh.errorUpdatedAt)}.
              </FormAlert>
            ) : (
              <Updated at={refresh.dataUpdatedAt} />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** 'Updated 2:05 PM': when the section's status was last fetched. */
function Updated({ at }: { at: number }) {
  const iso = new Date(at).toISOString();
  return (
    <Text size="sm" c="dimmed">
      Updated <time dateTime={iso}>{dayAndTime(iso)?.time}</time>
    </Text>
  );
}

function RefreshWords({ status }: { status: RefreshStatus }) {
  const { latest } = status;
  const failed = latest?.ending === 'failed' || latest?.ending === 'timed-out';
  return (
    <>
      {scheduleWords(status).map((line) => (
        <Text key={line}>{line}</Text>
      ))}
      {status.worker !== 'never' && latest === null && <Text>{NO_RECENT_REFRESH}</Text>}
      {latest !== null && (
        <Text c={failed ? 'var(--mantine-color-error)' : undefined} style={wrap}>
          {latestWords(latest)}
        </Text>
      )}
      {latest?.counts && <Text>{countsWords(latest.counts)}</Text>}
      <Text>{requestsWords(status.requests)}</Text>
    </>
  );
}

function FailingFiles() {
  const files = useQuery({
    queryKey: adminFilesKeys.failingFiles,
    queryFn: ({ signal }) => getFailingFiles(signal),
  });

  if (files.isPending) return <PageLoader label="Loading files…" />;
  if (files.isError) return <FormAlert tone="error">{adminErrorMessage(files.error)}</FormAlert>;
  const items = files.data;
  return (
    <Stack gap="xs" component="section" aria-labelledby="failing-files-title">
      <Title order={2} size="h3" id="failing-files-title">
        {FAILING_TITLE}
      </Title>
      <Text>{FILES_INTRO}</Text>
      {items.length === 0 ? (
        <Text>{NO_FAILING_FILES}</Text>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {items.length === 1 ? '1 hospital' : `${items.length} hospitals`}
          </Text>
          <ScrollRegion label={FILES_TITLE} minWidth={960} visibleFrom="sm">
            <Table striped withTableBorder verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Hospital</Table.Th>
                  <Table.Th scope="col">State</Table.Th>
                  <Table.Th scope="col">File</Table.Th>
                  <Table.Th scope="col">Error</Table.Th>
                  <Table.Th scope="col">Failing</Table.Th>
                  <Table.Th scope="col">Meanwhile</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((file) => (
                  <Table.Tr key={file.hospitalID} style={{ verticalAlign: 'top' }}>
                    <Table.Td>
                      <Hospital file={file} />
                    </Table.Td>
                    <Table.Td>{file.stateName}</Table.Td>
                    <Table.Td style={{ maxWidth: 220 }}>
                      <Source file={file} />
                    </Table.Td>
                    <Table.Td style={{ ...wrap, minWidth: 260 }}>{file.error ?? '—'}</Table.Td>
                    <Table.Td>{failingWords(file)}</Table.Td>
                    <Table.Td>{meanwhileWords(file)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>

          {/* Below 48em (a 375 px phone): one card per hospital. */}
          <CardList label={FILES_TITLE}>
            {items.map((file) => (
              <Paper key={file.hospitalID} component="li" withBorder radius="md" p="md">
                <Stack gap={6}>
                  <Text fw={600}>
                    <Hospital file={file} />
                  </Text>
                  {file.stateName !== '' && <Text size="sm">{file.stateName}</Text>}
                  <Source file={file} />
                  {file.error !== null && (
                    <Text c="var(--mantine-color-error)" style={wrap}>
                      Error: {file.error}
                    </Text>
                  )}
                  <Text size="sm">{failingWords(file)}</Text>
                  <Text size="sm">{meanwhileWords(file)}</Text>
                </Stack>
              </Paper>
            ))}
          </CardList>
        </>
      )}
    </Stack>
  );
}
