import { ConfirmRemoval } from '../features/admin/confirm-removal.tsx';
import { Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { isAdmin, type OrganisationView } from '@ratelens/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  adminErrorMessage,
  deleteOrganisation,
  listOrganisations,
} from '../features/admin/admin-api.ts';
import {
  OrganisationModal,
  type OrganisationTarget,
} from '../features/admin/organisation-form.tsx';
import { useRemovalFocus } from '../features/admin/use-removal-focus.ts';
import { NO_ACCESS_MESSAGE, RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { CardList } from '../shared/card-list.tsx';
import { FormAlert } from '../shared/form-alert.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { ScrollRegion } from '../shared/scroll-region.tsx';
import { usePageMeta } from '../shared/use-page-meta.ts';

export const ORGANISATIONS_META = {
  title: 'Organisations',
  description: 'Employer organisations: their access, their OCR flags and their members.',
};
export const NO_ORGANISATIONS = 'No organisations yet.';

const ORGANISATIONS_KEY = ['admin', 'organisations'] as const;

/**
 * The employer organisations (issue 4: an organisation with employer access, OCR flags and member
 * e-mails, managed by an admin): the list, 'Add' and 'Edit' in a modal form, 'Delete' with a
 * confirmation. The server answers 403 to anyone but an administrator.
 */
export function AdminOrganisationsRoute() {
  usePageMeta(ORGANISATIONS_META);
  return (
    <RequireToken>
      <Page title={ORGANISATIONS_META.title} size="xl">
        <AdminOrganisations />
      </Page>
    </RequireToken>
  );
}

function AdminOrganisations() {
  const session = useSession();
  if (!isAdmin(session.role)) {
    return <FormAlert tone="error">{NO_ACCESS_MESSAGE}</FormAlert>;
  }
  return <OrganisationList />;
}

const wrap = { overflowWrap: 'anywhere' } as const;

const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');

const memberCount = (organisation: OrganisationView) =>
  organisation.memberEmails.length === 1
    ? '1 member'
    : `${organisation.memberEmails.length} members`;

interface RowActions {
  onEdit: (organisation: OrganisationView) => void;
  onDelete: (organisation: OrganisationView) => void;
}

/**
 * 'Edit' and 'Delete', named with the organisation for screen readers (the name starts with the
 * visible word, so voice control finds the button by what it shows).
 */
function Actions({
  organisation,
  onEdit,
  onDelete,
}: RowActions & { organisation: OrganisationView }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="default"
        aria-label={`Edit ${organisation.name}`}
        onClick={() => onEdit(organisation)}
      >
        Edit
      </Button>
      <Button
        size="xs"
        color="red"
        variant="light"
        aria-label={`Delete ${organisation.name}`}
        onClick={() => onDelete(organisation)}
      >
        Delete
      </Button>
    </Group>
  );
}

function OrganisationTable({ items, ...actions }: RowActions & { items: OrganisationView[] }) {
  return (
    <ScrollRegion label="Organisations" minWidth={880} visibleFrom="sm">
      <Table striped withTableBorder verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Name</Table.Th>
            <Table.Th scope="col">Account e-mail</Table.Th>
            <Table.Th scope="col">Employer access</Table.Th>
            <Table.Th scope="col">OCR access</Table.Th>
            <Table.Th scope="col">Employer pays for OCR</Table.Th>
            <Table.Th scope="col">Members</Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((organisation) => (
            <Table.Tr key={organisation.id}>
              <Table.Th scope="row" fw={600} style={wrap}>
                {organisation.name}
              </Table.Th>
              <Table.Td style={wrap}>{organisation.accountEmail}</Table.Td>
              <Table.Td>{yesNo(organisation.employerAccess)}</Table.Td>
              <Table.Td>{yesNo(organisation.ocrAccess)}</Table.Td>
              <Table.Td>{yesNo(organisation.employerOcr)}</Table.Td>
              <Table.Td>{organisation.memberEmails.length}</Table.Td>
              <Table.Td>
                <Actions organisation={organisation} {...actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollRegion>
  );
}

/** Below 48em (a 375 px phone): one card per organisation. */
function OrganisationCards({ items, ...actions }: RowActions & { items: OrganisationView[] }) {
  return (
    <CardList label="Organisations">
      {items.map((organisation) => (
        <Paper key={organisation.id} component="li" withBorder radius="md" p="md">
          <Stack gap={6}>
            <Text fw={600} style={wrap}>
              {organisation.name}
            </Text>
            <Text size="sm" style={wrap}>
              {organisation.accountEmail}
            </Text>
            <Text size="sm">
              Employer access: {yesNo(organisation.employerAccess)}. OCR access:{' '}
              {yesNo(organisation.ocrAccess)}. Employer pays for OCR:{' '}
              {yesNo(organisation.employerOcr)}.
            </Text>
            <Text size="sm">{memberCount(organisation)}</Text>
            <Actions organisation={organisation} {...actions} />
          </Stack>
        </Paper>
      ))}
    </CardList>
  );
}

function OrganisationList() {
  const queryClient = useQueryClient();
  const organisations = useQuery({
    queryKey: ORGANISATIONS_KEY,
    queryFn: ({ signal }) => listOrganisations(signal),
  });
  const [editing, setEditing] = useState<OrganisationTarget | null>(null);
  const [removing, setRemoving] = useState<OrganisationView | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { noticeRef, focusNotice } = useRemovalFocus();

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ORGANISATIONS_KEY });

  const remove = useMutation({
    mutationFn: (organisation: OrganisationView) => deleteOrganisation(organisation.id),
    onSuccess: (_result, organisation) => {
      setRemoving(null);
      setNotice(`${organisation.name} was deleted.`);
      focusNotice();
      refresh();
    },
  });

  const edit = (target: OrganisationTarget) => {
    setNotice(null);
    setEditing(target);
  };
  const saved = (organisation: OrganisationView, target: OrganisationTarget) => {
    setEditing(null);
    setNotice(`${organisation.name} was ${target.kind === 'new' ? 'added' : 'saved'}.`);
    refresh();
  };
  const askDelete = (organisation: OrganisationView) => {
    remove.reset();
    setNotice(null);
    setRemoving(organisation);
  };
  const closeDelete = () => {
    if (!remove.isPending) setRemoving(null);
  };

  if (organisations.isPending) return <PageLoader label="Loading organisations…" />;
  if (organisations.isError) {
    return <FormAlert tone="error">{adminErrorMessage(organisations.error)}</FormAlert>;
  }
  const items = organisations.data;
  const actions: RowActions = {
    onEdit: (organisation) => edit({ kind: 'edit', organisation }),
    onDelete: askDelete,
  };

  return (
    <Stack gap="sm">
      {notice !== null && (
        <FormAlert ref={noticeRef} tone="success">
          {notice}
        </FormAlert>
      )}
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed">
          {items.length === 1 ? '1 organisation' : `${items.length} organisations`}
        </Text>
        <Button onClick={() => edit({ kind: 'new' })}>Add organisation</Button>
      </Group>

      {items.length === 0 ? (
        <Text>{NO_ORGANISATIONS}</Text>
      ) : (
        <>
          <OrganisationTable items={items} {...actions} />
          <OrganisationCards items={items} {...actions} />
        </>
      )}

      <OrganisationModal target={editing} onClose={() => setEditing(null)} onSaved={saved} />

      <ConfirmRemoval
        opened={removing !== null}
        title="Delete organisation"
        question={
          removing &&
          `Delete ${removing.name}? Its account and its ${memberCount(removing)} lose the access the organisation gives them.`
        }
        confirmLabel="Yes, delete"
        error={remove.isError ? adminErrorMessage(remove.error) : null}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={closeDelete}
      />
    </Stack>
  );
}
