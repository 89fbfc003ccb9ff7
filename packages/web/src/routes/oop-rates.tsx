import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { SEARCH_MESSAGES, type Entitlement, type OopRateRow } from '@ratelens/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useReducer, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { RequireToken } from '../features/auth/guards.tsx';
import { nextEligibleMessage } from '../features/search/eligibility.ts';
import { FamilyStatusModal } from '../features/search/family-status-modal.tsx';
import { RateResults } from '../features/search/rate-results.tsx';
import {
  formFromSaved,
  isCustomSearch,
  loadSearch,
  saveSearch,
  savedSearchFrom,
  toCustomInput,
  toSearchInput,
  type AnySavedSearch,
  type CustomValues,
  type SavedSearch,
  type SearchMode,
} from '../features/search/saved-search.ts';
import { getCustomRates, getRates, logIndividualSearch } from '../features/search/search-api.ts';
import { SearchFields } from '../features/search/search-fields.tsx';
import { searchFormReducer } from '../features/search/search-form.ts';
import { useSearchContext, type SearchContext } from '../features/search/search-queries.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import { ApiRequestError, errorMessage } from '../shared/http.ts';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';

export const OOP_RATES_TITLE = 'Out-of-pocket rates';

/** The results page (search-and-accounts §2 "/ooprates"): signed-in only. */
export function OopRatesRoute() {
  return (
    <RequireToken>
      <Page title={OOP_RATES_TITLE} size="xl">
        <OopRates />
      </Page>
    </RequireToken>
  );
}

type Entry = { kind: 'home' } | { kind: 'run'; mode: SearchMode; search: AnySavedSearch };

function requestedMode(state: unknown): SearchMode | null {
  if (typeof state !== 'object' || state === null || !('mode' in state)) return null;
  return state.mode === 'standard' || state.mode === 'custom' ? state.mode : null;
}

/**
 * Where an arrival leads (§2 redirects): home when the user may not search now or nothing was
 * saved; otherwise the saved search of the mode the home page chose (after a reload, whichever
 * was saved, the custom one first).
 */
export function entryFor(
  entitlement: Entitlement,
  userName: string,
  mode: SearchMode | null,
): Entry {
  if (entitlement.searching_Status !== 1) return { kind: 'home' };
  const order: SearchMode[] =
    mode === 'standard' ? ['standard'] : mode === 'custom' ? ['custom'] : ['custom', 'standard'];
  for (const candidate of order) {
    const search =
      candidate === 'custom' ? loadSearch('custom', userName) : loadSearch('standard', userName);
    if (search) return { kind: 'run', mode: candidate, search };
  }
  return { kind: 'home' };
}

function OopRates() {
  const context = useSearchContext();
  const location = useLocation();
  // Decided once, at arrival: after a search the refreshed entitlement may say "no more
  // searches", which must not send the person away from the results they just got.
  const [entry, setEntry] = useState<Entry | null>(null);
  const entitlement = context.entitlement.data;
  if (entry === null && entitlement) {
    setEntry(entryFor(entitlement, context.userName, requestedMode(location.state)));
  }

  if (entry === null && context.entitlement.isError) {
    return (
      <Stack gap="md" align="flex-start">
        <FormAlert tone="error">{errorMessage(context.entitlement.error)}</FormAlert>
        <Button variant="default" onClick={() => void context.entitlement.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }
  if (entry === null) return <PageLoader />;
  if (entry.kind === 'home') return <Navigate to="/" replace />;
  return <OopRatesScreen context={context} mode={entry.mode} initial={entry.search} />;
}

interface Shown {
  search: AnySavedSearch;
  rows: OopRateRow[];
  error: string | null;
}

interface Run {
  search: AnySavedSearch;
  /** The inputs changed since the last search (an individual subscription logs its use). */
  changed: boolean;
}

function OopRatesScreen({
  context,
  mode,
  initial,
}: {
  context: SearchContext;
  mode: SearchMode;
  initial: AnySavedSearch;
}) {
  const [form, dispatch] = useReducer(searchFormReducer, initial, formFromSaved);
  const [shown, setShown] = useState<Shown | null>(null);
  const [pending, setPending] = useState<SavedSearch | null>(null);
  const [lastCustom, setLastCustom] = useState<CustomValues | null>(
    isCustomSearch(initial) ? { lives: initial.lives, accumulator: initial.accumulator } : null,
  );
  const navigate = useNavigate();

  const run = useMutation({
    mutationFn: ({ search }: Run) =>
      isCustomSearch(search)
        ? getCustomRates(toCustomInput(search))
        : getRates(toSearchInput(search)),
    onSuccess: (rows, { search, changed }) => {
      setShown({ search, rows, error: null });
      const now = context.entitlement.data;
      if (changed && now?.individualSubscription && now.searching_Status === 1) {
        // The server counts the search itself; this call keeps the old product's sequence.
        void logIndividualSearch(context.userId).catch(() => undefined);
      }
      void context.refreshEntitlement();
      dispatch({ type: 'searched' });
    },
    onError: (error, { search }) => {
      // A refusal (allowance used up, subscription expired): the server's words, then home.
      if (error instanceof ApiRequestError && error.status === 403) {
        void navigate('/', { state: { notice: error.message } });
        return;
      }
      setShown({ search, rows: [], error: errorMessage(error) });
    },
  });

  // §4 "On entry the saved search is re-run" (once, even under StrictMode's double effects).
  const started = useRef(false);
  const { mutate } = run;
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate({ search: initial, changed: false });
  }, [mutate, initial]);

  function onGetRates() {
    const entitlement = context.entitlement.data;
    if (!entitlement) return;
    const search = savedSearchFrom(
      form,
      { userName: context.userName, userId: context.userId },
      entitlement,
    );
    if (!search) return;
    if (entitlement.searching_Status !== 1) {
      const notice =
        mode === 'custom' ? SEARCH_MESSAGES.freeSearchesOver : nextEligibleMessage(entitlement);
      void navigate('/', { state: { notice } });
      return;
    }
    if (mode === 'custom') {
      setPending(search);
      return;
    }
    saveSearch('standard', search);
    run.mutate({ search, changed: form.changed });
  }

  function runCustom(values: CustomValues) {
    if (!pending) return;
    const search = { ...pending, ...values };
    saveSearch('custom', search);
    setPending(null);
    setLastCustom(values);
    const valuesChanged =
      lastCustom === null ||
      lastCustom.lives !== values.lives ||
      lastCustom.accumulator !== values.accumulator;
    run.mutate({ search, changed: form.changed || valuesChanged });
  }

  return (
    <Stack gap="xl">
      <Card withBorder padding="lg">
        <SearchFields
          form={form}
          dispatch={dispatch}
          context={context}
          onGetRates={onGetRates}
          busy={run.isPending}
          // Entry required searching_Status 1; a later "no" is answered when Get Rates is pressed.
          searchable
        />
      </Card>
      <FamilyStatusModal
        opened={pending !== null}
        onClose={() => setPending(null)}
        initial={lastCustom}
        onSubmit={runCustom}
      />

      {run.isPending ? (
        <PageLoader label="Searching rates..." />
      ) : (
        shown && (
          <RateResults
            search={shown.search}
            rows={shown.rows}
            error={shown.error}
            user={{ userId: context.userId, email: context.email }}
          />
        )
      )}

      <Group>
        <Text fw={600}>{SEARCH_MESSAGES.footerNotice}</Text>
      </Group>
    </Stack>
  );
}
