import { Box, Button, Card, Group, Overlay, Paper, Stack, Text, Title } from '@mantine/core';
import { SEARCH_MESSAGES, SPEC_MESSAGES } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FormAlert } from '../../shared/form-alert.tsx';
import { errorMessage } from '../../shared/http.ts';
import { ButtonLink } from '../../shared/router-link.tsx';
import { saveBlob } from '../../shared/save-blob.ts';
import { getRatesAction, isHomeNotice, nextEligibleMessage } from './eligibility.ts';
import { FamilyStatusModal } from './family-status-modal.tsx';
import {
  saveSearch,
  savedSearchFrom,
  toSearchInput,
  type CustomValues,
  type SavedSearch,
} from './saved-search.ts';
import { exportRates, logIndividualSearch } from './search-api.ts';
import { SearchFields } from './search-fields.tsx';
import { EMPTY_SEARCH_FORM, searchFormReducer } from './search-form.ts';
import { useSearchContext, type SearchContext } from './search-queries.ts';

export const DOWNLOADING_LABEL = 'Downloading...';

/**
 * The rate search of the home page (search-and-accounts §2 "Home", §4). Signed out, an overlay
 * blocks it and a popup offers sign-up and sign-in.
 */
export function HomeRateSearch() {
  const context = useSearchContext();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="rate-search-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="rate-search-heading">
          Rate search
        </Title>
        {context.signedIn ? (
          <SignedInSearch context={context} />
        ) : (
          <SignedOutSearch context={context} />
        )}
      </Stack>
    </Card>
  );
}

function SignedOutSearch({ context }: { context: SearchContext }) {
  return (
    <Box pos="relative" mih={300}>
      {/* Inert: out of the tab order and hidden from screen readers while the popup covers it. */}
      <div inert>
        <SearchFields
          form={EMPTY_SEARCH_FORM}
          dispatch={() => undefined}
          context={context}
          onGetRates={() => undefined}
          busy={false}
        />
      </div>
      <Overlay color="#fff" backgroundOpacity={0.7} blur={2} radius="md" zIndex={2} />
      <Paper
        withBorder
        shadow="md"
        p="lg"
        pos="absolute"
        top="50%"
        left="50%"
        maw="calc(100% - 16px)"
        w={420}
        style={{ transform: 'translate(-50%, -50%)', zIndex: 3 }}
        role="group"
        aria-labelledby="sign-in-first"
      >
        <Stack gap="md" align="center">
          <Text id="sign-in-first" fw={650} size="lg" ta="center">
            {SPEC_MESSAGES.signInFirst}
          </Text>
          <Group gap="sm" justify="center">
            <ButtonLink to="/registration">Create New Account</ButtonLink>
            <ButtonLink to="/login" variant="outline">
              Already have a account
            </ButtonLink>
          </Group>
        </Stack>
      </Paper>
    </Box>
  );
}

function SignedInSearch({ context }: { context: SearchContext }) {
  const [form, dispatch] = useReducer(searchFormReducer, EMPTY_SEARCH_FORM);
  const [pending, setPending] = useState<SavedSearch | null>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const notice = isHomeNotice(location.state) ? location.state.notice : null;
  const entitlement = context.entitlement.data;

  // An individual subscription downloads the spreadsheet, then counts the search (§4).
  const download = useMutation({
    mutationFn: async (search: SavedSearch) => {
      const file = await exportRates(toSearchInput(search));
      saveBlob(file.blob, file.fileName);
      await logIndividualSearch(context.userId);
    },
    onSettled: () => void context.refreshEntitlement(),
  });

  const user = { userName: context.userName, userId: context.userId };

  function onGetRates() {
    if (!entitlement) return;
    const search = savedSearchFrom(form, user, entitlement);
    if (!search) return;
    switch (getRatesAction(entitlement, context.employerAccess.data)) {
      case 'download':
        download.mutate(search);
        return;
      case 'standard':
        saveSearch('standard', search);
        void navigate('/ooprates', { state: { mode: 'standard' } });
        return;
      case 'custom':
        setPending(search);
        return;
      case 'wait':
        return;
    }
  }

  function runCustom(values: CustomValues) {
    if (!pending) return;
    saveSearch('custom', { ...pending, ...values });
    setPending(null);
    void navigate('/ooprates', { state: { mode: 'custom' } });
  }

  return (
    <Stack gap="md">
      {notice && <FormAlert tone="error">{notice}</FormAlert>}
      {context.entitlement.isError && (
        <Group gap="sm">
          <FormAlert tone="error">{errorMessage(context.entitlement.error)}</FormAlert>
          <Button variant="default" onClick={() => void context.entitlement.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      {entitlement && entitlement.searching_Status !== 1 && (
        <FormAlert tone="info">{nextEligibleMessage(entitlement)}</FormAlert>
      )}
      {entitlement?.subscriptionStatus === 'expired' && (
        <FormAlert tone="info">
          {SEARCH_MESSAGES.subscriptionExpired(entitlement.carryForwardSearches)}
        </FormAlert>
      )}
      {download.isError && <FormAlert tone="error">{errorMessage(download.error)}</FormAlert>}
      <SearchFields
        form={form}
        dispatch={dispatch}
        context={context}
        onGetRates={onGetRates}
        busy={download.isPending}
        busyLabel={DOWNLOADING_LABEL}
      />
      <FamilyStatusModal
        opened={pending !== null}
        onClose={() => setPending(null)}
        initial={null}
        onSubmit={runCustom}
      />
    </Stack>
  );
}
