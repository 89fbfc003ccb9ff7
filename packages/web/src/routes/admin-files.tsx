import { Anchor, Paper, Stack, Table, Text } from '@mantine/core';
import type { FailingFile } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { adminErrorMessage, getFailingFiles } from '../features/admin/admin-api.ts';
import { RequireToken } from '../features/auth/guards.tsx';
import { CardList } from '../shared/card-list.tsx';
import { formatDateAndTime } from '../shared/format-date.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { ScrollRegion } from '../shared/scroll-region.tsx';

export const FILES_TITLE = 'Files that could not be read';
export const NO_FAILING_FILES = "Every hospital's latest read of its file succeeded.";
export const FILES_INTRO =
  'Hospitals whose latest read of their file failed, the longest failing first. The daily ' +
  'refresh tries each again; until one succeeds, the rates shown are those of the file in use.';

/** The hospitals whose latest read of their file failed (`GET /api/admin/files/failing`), for administrators. */
export function AdminFilesRoute() {
  return (
    <RequireToken>
      <Page title={FILES_TITLE} size="xl">
        <FailingFiles />
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

/** 'Since March 27, 2026 at 10:42; 3 failed reads, the latest on …'. */
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

function FailingFiles() {
  const files = useQuery({
    queryKey: ['admin', 'failing-files'],
    queryFn: ({ signal }) => getFailingFiles(signal),
  });

  if (files.isPending) return <PageLoader label="Loading files…" />;
  if (files.isError) return <FormAlert tone="error">{adminErrorMessage(files.error)}</FormAlert>;
  const items = files.data;
  return (
    <Stack gap="xs">
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
