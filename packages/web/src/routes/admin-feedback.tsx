import { Anchor, Paper, Stack, Table, Text } from '@mantine/core';
import type { FeedbackItem } from '@ratelens/core';
import { useQuery } from '@tanstack/react-query';
import { getFeedback } from '../features/admin/admin-api.ts';
import { DownloadButton } from '../features/admin/download-button.tsx';
import { RequireAdmin, RequireToken } from '../features/auth/guards.tsx';
import { CardList } from '../shared/card-list.tsx';
import { formatDateTime } from '../shared/format-date.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError } from '../shared/http.ts';
import { mailtoHref } from '../shared/mailto.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { ScrollRegion } from '../shared/scroll-region.tsx';
import { NO_ACCESS_MESSAGE } from './user-list.tsx';

export const NO_MESSAGES = 'No messages yet.';

/** The contact-form messages (`GET /api/Feedback/list`), for administrators only. */
export function AdminFeedbackRoute() {
  return (
    <RequireToken>
      <Page title="Messages" size="xl">
        <RequireAdmin>
          <FeedbackList />
        </RequireAdmin>
      </Page>
    </RequireToken>
  );
}

const wrap = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

function fullName(item: FeedbackItem): string {
  return `${item.firstName} ${item.lastName}`.trim();
}

function Received({ item }: { item: FeedbackItem }) {
  return <time dateTime={item.receivedAt}>{formatDateTime(item.receivedAt)}</time>;
}

function Email({ item }: { item: FeedbackItem }) {
  return (
    <Anchor href={mailtoHref(item.email)} style={{ overflowWrap: 'anywhere' }}>
      {item.email}
    </Anchor>
  );
}

function Attachment({ item }: { item: FeedbackItem }) {
  if (item.attachmentUrl === null) return <Text c="dimmed">—</Text>;
  return <DownloadButton url={item.attachmentUrl} fileName={item.attachmentName ?? 'attachment'} />;
}

function FeedbackList() {
  const feedback = useQuery({
    queryKey: ['admin', 'feedback'],
    queryFn: ({ signal }) => getFeedback(signal),
  });

  if (feedback.isPending) return <PageLoader label="Loading messages…" />;
  if (feedback.isError) {
    const forbidden = feedback.error instanceof ApiRequestError && feedback.error.status === 403;
    return (
      <FormAlert tone="error">{forbidden ? NO_ACCESS_MESSAGE : feedback.error.message}</FormAlert>
    );
  }
  const items = feedback.data;
  if (items.length === 0) return <Text>{NO_MESSAGES}</Text>;

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {items.length === 1 ? '1 message' : `${items.length} messages`}
      </Text>

      <ScrollRegion label="Messages" minWidth={960} visibleFrom="sm">
        <Table striped withTableBorder verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Received</Table.Th>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Email</Table.Th>
              <Table.Th scope="col">Subject</Table.Th>
              <Table.Th scope="col">Message</Table.Th>
              <Table.Th scope="col">Attachment</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id} style={{ verticalAlign: 'top' }}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Received item={item} />
                </Table.Td>
                <Table.Td style={wrap}>{fullName(item)}</Table.Td>
                <Table.Td>
                  <Email item={item} />
                </Table.Td>
                <Table.Td style={wrap}>{item.subject}</Table.Td>
                <Table.Td style={{ ...wrap, minWidth: 280 }}>{item.message}</Table.Td>
                <Table.Td style={{ maxWidth: 220 }}>
                  <Attachment item={item} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollRegion>

      {/* Below 48em (a 375 px phone): one card per message. */}
      <CardList label="Messages">
        {items.map((item) => (
          <Paper key={item.id} component="li" withBorder radius="md" p="md">
            <Stack gap={6}>
              <Text size="sm" c="dimmed">
                Received <Received item={item} />
              </Text>
              <Text fw={600} style={wrap}>
                {fullName(item)}
              </Text>
              <Email item={item} />
              <Text fw={500} style={wrap}>
                {item.subject}
              </Text>
              <Text style={wrap}>{item.message}</Text>
              {item.attachmentUrl !== null && <Attachment item={item} />}
            </Stack>
          </Paper>
        ))}
      </CardList>
    </Stack>
  );
}
