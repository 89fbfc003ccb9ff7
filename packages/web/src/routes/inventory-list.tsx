import {
  Button,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Text,
  type InputClearButtonProps,
} from '@mantine/core';
import { useMemo, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import {
  filterInventory,
  inventoryPage,
  withPage,
} from '../features/inventory/inventory-filters.ts';
import { hospitalsShown } from '../features/inventory/inventory-format.ts';
import { useInventoryListings } from '../features/inventory/inventory-queries.ts';
import { useHospitalComingBack } from '../features/inventory/back-to-inventory.ts';
import { InventoryRows, useFocusHospitalOnReturn } from '../features/inventory/inventory-rows.tsx';
import { useInventoryFilters } from '../features/inventory/use-inventory-filters.ts';
import { FormAlert } from '../shared/form-alert.tsx';
import {
  failedLists,
  ListsNotLoaded,
  NOT_LOADED,
  type FailedList,
} from '../shared/lists-not-loaded.tsx';
import { Page } from '../shared/page.tsx';
import { PageLoader } from '../shared/page-loader.tsx';

export const NO_FILES_MESSAGE = 'No hospital files have been loaded yet.';
export const NO_MATCH_MESSAGE = 'No hospitals match these filters.';

/** A state none of whose hospitals has a file loaded: said, rather than "no match". */
export function noFilesInStateMessage(stateName: string): string {
  return `No hospital files have been loaded for ${stateName} yet.`;
}

/**
 * The inventory list (search-and-accounts §2 "Inventory list"): every hospital and which files
 * and rate types it has, narrowed by state, MSA and hospital. Public: no sign-in needed (§6).
 */
export function InventoryListRoute() {
  return (
    <Page title="Inventory List" size="xl">
      <InventoryList />
    </Page>
  );
}

function InventoryList() {
  const filters = useInventoryFilters();
  return (
    <>
      <InventoryFilters filters={filters} />
      <ListsNotLoaded lists={failedFilterLists(filters)} />
      {filters.linkNotice !== null && <FormAlert tone="info">{filters.linkNotice}</FormAlert>}
      <InventoryResults filter={filters.filter} lookups={filters.lookups} />
    </>
  );
}

type Filters = ReturnType<typeof useInventoryFilters>;

/**
 * The filters' lists that failed to load, as their fields say it. One a link's filter waits for
 * is reported with the results instead (InventoryResults), once.
 */
function failedFilterLists({
  states,
  msas,
  hospitals,
  state,
  msa,
  lookups,
}: Filters): FailedList[] {
  return failedLists([
    [states.isError && !lookups.includes(states), states, NOT_LOADED.states],
    [state !== null && msas.isError && !lookups.includes(msas), msas, NOT_LOADED.msas],
    [
      msa !== null && hospitals.isError && !lookups.includes(hospitals),
      hospitals,
      NOT_LOADED.hospitals,
    ],
  ]);
}

/**
 * A filter's clear button, in the tab order and named. Mantine's own (ComboboxClearButton) is
 * tabIndex -1 and aria-hidden, which leaves a keyboard or screen-reader user no way to clear a
 * filter. The button goes away with the value it clears: pressed from the keyboard (a mouse press
 * does not focus it), the focus moves to its field rather than to the top of the page. Size md
 * (28 px): the field's own size, sm, makes it 22 px, below WCAG 2.5.8's 24 by 24 px target.
 */
function clearButton(label: string, fieldId: string): InputClearButtonProps {
  return {
    'aria-label': label,
    'aria-hidden': false,
    tabIndex: 0,
    size: 'md',
    onClick: (event) => {
      if (document.activeElement === event.currentTarget) document.getElementById(fieldId)?.focus();
    },
  };
}

function InventoryFilters({ filters }: { filters: Filters }) {
  const { states, msas, hospitals, state, msa, filter, choose } = filters;

  const stateOptions = useMemo(
    () =>
      (states.data ?? [])
        .map((item) => ({ value: item.stateCode, label: `${item.stateName} (${item.stateCode})` }))
        .sort((a, b) => a.label.localeCompare(b.label, 'en-US')),
    [states.data],
  );

  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Select
        label="State Name"
        placeholder="Choose a state"
        data={stateOptions}
        value={state?.stateCode ?? null}
        onChange={(value) => choose('state', value)}
        id="inventory-state"
        searchable
        clearable
        clearButtonProps={clearButton('Clear state', 'inventory-state')}
        nothingFoundMessage={states.isPending ? 'Loading...' : 'No state found'}
        error={states.isError ? NOT_LOADED.states : undefined}
      />
      <Select
        label="MSA"
        placeholder={state === null ? 'Choose a state first' : 'Choose a metro area'}
        data={(msas.data ?? []).map((item) => ({ value: item.msaID, label: item.MSA }))}
        value={msa?.msaID ?? null}
        onChange={(value) => choose('msa', value)}
        disabled={state === null}
        id="inventory-msa"
        searchable
        clearable
        clearButtonProps={clearButton('Clear MSA', 'inventory-msa')}
        nothingFoundMessage={msas.isPending ? 'Loading...' : 'No metro area found'}
        error={state !== null && msas.isError ? NOT_LOADED.msas : undefined}
      />
      <Select
        label="Hospital"
        placeholder={msa === null ? 'Choose an MSA first' : 'Choose a hospital'}
        data={(hospitals.data ?? []).map((item) => ({
          value: item.hospitalID,
          label: item.facilityName,
        }))}
        value={filter.hospitalId}
        onChange={(value) => choose('hospital', value)}
        disabled={msa === null}
        id="inventory-hospital"
        searchable
        clearable
        clearButtonProps={clearButton('Clear hospital', 'inventory-hospital')}
        nothingFoundMessage={hospitals.isPending ? 'Loading...' : 'No hospital found'}
        error={msa !== null && hospitals.isError ? NOT_LOADED.hospitals : undefined}
      />
    </SimpleGrid>
  );
}

function InventoryResults({ filter, lookups }: Pick<Filters, 'filter' | 'lookups'>) {
  const listing = useInventoryListings();
  const { search, key } = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const count = useRef<HTMLParagraphElement>(null);
  const results = useRef<HTMLDivElement>(null);
  // Back from a hospital's page, the keyboard is where the visitor left the list: on its row.
  useFocusHospitalOnReturn(results, useHospitalComingBack(), key);

  const failed = [listing, ...lookups].filter((query) => query.isError);
  if (listing.isError || failed.length > 0) {
    return (
      <Stack gap="md" align="flex-start">
        <FormAlert tone="error">{failed[0]?.error?.message}</FormAlert>
        <Button variant="default" onClick={() => failed.forEach((query) => void query.refetch())}>
          Try again
        </Button>
      </Stack>
    );
  }
  if (listing.isPending || lookups.some((query) => query.isPending)) {
    return <PageLoader label="Loading hospitals..." />;
  }

  if (listing.data.length === 0) return <Text>{NO_FILES_MESSAGE}</Text>;
  const rows = filterInventory(listing.data, filter);
  const { page, pages, first, last } = inventoryPage(searchParams, rows.length);

  function turnTo(next: number) {
    setSearchParams((current) => withPage(current, next));
    // The new rows start above the controls: take the eye, and the keyboard, back to the count.
    count.current?.focus();
  }

  return (
    <Stack gap="xs" ref={results}>
      <Text ref={count} size="sm" c="dimmed" role="status" tabIndex={-1}>
        {hospitalsShown(rows.length, { first, last })}
      </Text>
      {rows.length === 0 ? (
        <Text>
          {filter.stateName !== null &&
          !listing.data.some((row) => row.stateName === filter.stateName)
            ? noFilesInStateMessage(filter.stateName)
            : NO_MATCH_MESSAGE}
        </Text>
      ) : (
        <InventoryRows rows={rows.slice(first, last)} search={search} />
      )}
      {pages > 1 && (
        <nav aria-label="Pages of hospitals">
          <Pagination
            total={pages}
            value={page}
            onChange={turnTo}
            size="sm"
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
          />
        </nav>
      )}
    </Stack>
  );
}

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;
