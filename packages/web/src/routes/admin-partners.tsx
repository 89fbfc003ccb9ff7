import { ConfirmRemoval } from '../features/admin/confirm-removal.tsx';
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { isAdmin, type Partner } from '@ratelens/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { adminErrorMessage, deletePartner } from '../features/admin/admin-api.ts';
import { PartnerForm } from '../features/admin/partner-form.tsx';
import { useRemovalFocus } from '../features/admin/use-removal-focus.ts';
import { RequireToken } from '../features/auth/guards.tsx';
import { useSession } from '../features/auth/use-session.ts';
import { listPartners } from '../features/public/public-api.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { errorMessage } from '../shared/http.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';
import { NO_ACCESS_MESSAGE } from './user-list.tsx';

export const NO_PARTNERS = 'No partners yet.';

/**
 * The partners of /partner, managed by administrators: the list (public, `GET /api/Partner/list`),
 * removal with a confirmation, and 'Add a partner'. The list being public, access is decided
 * from the session's role; the server refuses the changes to anyone else (403) all the same.
 */
export function AdminPartnersRoute() {
  return (
    <RequireToken>
      <Page title="Partners" size="md">
        <AdminPartners />
      </Page>
    </RequireToken>
  );
}

function AdminPartners() {
  const session = useSession();
  if (!isAdmin(session.role)) {
    return <FormAlert tone="error">{NO_ACCESS_MESSAGE}</FormAlert>;
  }
  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="current-partners">
        <Title order={2} id="current-partners">
          Current partners
        </Title>
        <PartnerList />
      </Stack>
      <Stack gap="sm" component="section" aria-labelledby="add-partner">
        <Title order={2} id="add-partner">
          Add a partner
        </Title>
        <PartnerForm />
      </Stack>
    </Stack>
  );
}

function PartnerList() {
  const queryClient = useQueryClient();
  const partners = useQuery({
    queryKey: ['partners'],
    queryFn: ({ signal }) => listPartners(signal),
  });
  const [removing, setRemoving] = useState<Partner | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const { noticeRef, focusNotice } = useRemovalFocus();

  const remove = useMutation({
    mutationFn: (partner: Partner) => deletePartner(partner.id),
    onSuccess: (_result, partner) => {
      setRemoving(null);
      setRemoved(`${partner.name} was removed.`);
      focusNotice();
      void queryClient.invalidateQueries({ queryKey: ['partners'] });
    },
  });

  const ask = (partner: Partner) => {
    remove.reset();
    setRemoved(null);
    setRemoving(partner);
  };
  const close = () => {
    if (!remove.isPending) setRemoving(null);
  };

  if (partners.isPending) return <PageLoader label="Loading partners…" />;
  if (partners.isError) return <FormAlert tone="error">{errorMessage(partners.error)}</FormAlert>;

  const removeError = remove.isError ? adminErrorMessage(remove.error) : null;

  return (
    <Stack gap="sm">
      {removed !== null && (
        <FormAlert ref={noticeRef} tone="success">
          {removed}
        </FormAlert>
      )}
      {partners.data.length === 0 ? (
        <Text>{NO_PARTNERS}</Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {partners.data.map((partner) => (
            <Paper key={partner.id} component="li" withBorder radius="md" p="md">
              <Group justify="space-between" align="center" gap="md">
                <Group gap="md" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
                  <img
                    src={partner.imageurl}
                    alt=""
                    width={partner.imageWidth}
                    height={partner.imageHeight}
                    loading="lazy"
                    decoding="async"
                    style={{ width: 96, maxWidth: '100%', height: 'auto', flexShrink: 0 }}
                  />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {partner.name}
                    </Text>
                    <Anchor
                      href={partner.website}
                      target="_blank"
                      rel="noopener noreferrer"
                      size="sm"
                      style={{ overflowWrap: 'anywhere' }}
                    >
                      {partner.website}
                    </Anchor>
                  </Stack>
                </Group>
                {/* The name is said, not shown: a button's label does not wrap, and a long name was
                    cut off at 375 px. */}
                <Button
                  color="red"
                  variant="light"
                  aria-label={`Remove ${partner.name}`}
                  onClick={() => ask(partner)}
                >
                  Remove
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}

      <ConfirmRemoval
        opened={removing !== null}
        title="Remove partner"
        question={
          removing &&
          `Remove ${removing.name} from the partners? Its logo will no longer be shown on the partners page.`
        }
        confirmLabel="Yes, remove"
        error={removeError}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={close}
      />
    </Stack>
  );
}
