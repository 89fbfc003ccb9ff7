import { Button, Group, Select, SimpleGrid } from '@mantine/core';
import type { Dispatch } from 'react';
import { failedLists, ListsNotLoaded, NOT_LOADED } from '../../shared/lists-not-loaded.tsx';
import { PageLoader } from '../../shared/page-loader.tsx';
import { useMsas } from '../inventory/inventory-queries.ts';
import { CodeSearchBox } from './code-search-box.tsx';
import { disabledFields, type SearchFormAction, type SearchFormState } from './search-form.ts';
import type { SearchContext } from './search-queries.ts';

interface SearchFieldsProps {
  form: SearchFormState;
  dispatch: Dispatch<SearchFormAction>;
  context: SearchContext;
  onGetRates: () => void;
  /** A search or a download is under way. */
  busy: boolean;
  /** 'Downloading...' while the spreadsheet of an individual subscription is fetched. */
  busyLabel?: string;
  /**
   * Whether the user may search, when the page decides it rather than the latest entitlement:
   * the results page keeps its fields open after the last free search, so Get Rates can say why
   * the next one is refused (§4 "Get Rates button").
   */
  searchable?: boolean;
}

/**
 * State, Metro Area, Medical Code / Code Description, Billing Class and Get Rates (§2 "Home",
 * "/ooprates"), chained as §4 says: each field waits for the one before it.
 */
export function SearchFields({
  form,
  dispatch,
  context,
  onGetRates,
  busy,
  busyLabel,
  searchable = context.searchable,
}: SearchFieldsProps) {
  const msas = useMsas(form.state?.stateCode ?? null);
  const disabled = disabledFields(form, {
    signedIn: context.signedIn,
    searchable,
    hasBillingClasses: (context.billingClasses.data ?? []).length > 0,
    employerAccessKnown: context.employerAccess.isSuccess,
    busy,
  });

  const stateOptions = context.stateOptions.map((state) => ({
    value: state.stateCode,
    label: `${state.stateName} (${state.stateCode})`,
  }));
  // A restored search shows its choices before (or without) their lists.
  if (form.state && !stateOptions.some((option) => option.value === form.state?.stateCode)) {
    stateOptions.unshift({
      value: form.state.stateCode,
      label: `${form.state.stateName} (${form.state.stateCode})`,
    });
  }
  const msaOptions = (msas.data ?? []).map((msa) => ({ value: msa.msaID, label: msa.MSA }));
  if (form.msa && !msaOptions.some((option) => option.value === form.msa?.msaID)) {
    msaOptions.unshift({ value: form.msa.msaID, label: form.msa.msaName });
  }
  const billingClasses = [...(context.billingClasses.data ?? [])];
  if (form.billingClass && !billingClasses.includes(form.billingClass)) {
    billingClasses.unshift(form.billingClass);
  }
  const statesFailed = context.states.isError;
  const msasFailed = form.state !== null && msas.isError;
  const billingClassesFailed = context.billingClasses.isError;
  const failed = failedLists([
    [statesFailed, context.states, NOT_LOADED.states],
    [msasFailed, msas, NOT_LOADED.msas],
    [billingClassesFailed, context.billingClasses, NOT_LOADED.billingClasses],
  ]);

  // Every field and Get Rates stay disabled until the entitlement and the lists arrive: said
  // aloud and shown, as the other screens say their loading, or the form just looks broken.
  const loading =
    context.signedIn &&
    [context.entitlement, context.billingClasses, context.states, context.employerAccess].some(
      (query) => query.isLoading,
    );

  return (
    <form
      noValidate
      aria-label="Rate search"
      aria-busy={loading}
      onSubmit={(event) => {
        event.preventDefault();
        if (!disabled.getRates) onGetRates();
      }}
    >
      {/* Columns by the form's own width: the home page's card is narrower than the results page. */}
      <SimpleGrid type="container" cols={{ base: 1, '520px': 2, '1000px': 4 }} spacing="md">
        <Select
          label="State"
          placeholder="Choose a state"
          data={stateOptions}
          value={form.state?.stateCode ?? null}
          onChange={(code) => {
            const state = context.stateOptions.find((option) => option.stateCode === code);
            dispatch({ type: 'state', value: state ?? null });
          }}
          disabled={disabled.state}
          searchable
          nothingFoundMessage={context.states.isPending ? 'Loading...' : 'No state found'}
          error={statesFailed ? NOT_LOADED.states : undefined}
        />
        <Select
          label="Metro Area"
          placeholder={form.state === null ? 'Choose a state first' : 'Choose a metro area'}
          data={msaOptions}
          value={form.msa?.msaID ?? null}
          onChange={(id) => {
            const msa = msas.data?.find((option) => option.msaID === id);
            dispatch({
              type: 'msa',
              value: msa ? { msaID: msa.msaID, msaName: msa.MSA, tableName: msa.TableName } : null,
            });
          }}
          disabled={disabled.msa}
          searchable
          nothingFoundMessage={msas.isPending ? 'Loading...' : 'No metro area found'}
          error={msasFailed ? NOT_LOADED.msas : undefined}
        />
        <CodeSearchBox
          stateCode={form.state?.stateCode ?? null}
          msa={form.msa}
          text={form.codeText}
          chosen={form.code}
          disabled={disabled.code}
          onTextChange={(text) => dispatch({ type: 'codeText', value: text })}
          onChoose={(code) => dispatch({ type: 'code', value: code })}
        />
        <Select
          label="Billing Class"
          placeholder="Choose a billing class"
          data={billingClasses}
          value={form.billingClass}
          onChange={(value) => dispatch({ type: 'billingClass', value })}
          disabled={disabled.billingClass}
          error={billingClassesFailed ? NOT_LOADED.billingClasses : undefined}
        />
      </SimpleGrid>
      <ListsNotLoaded lists={failed} mt="md" />
      <Group mt="md">
        <Button type="submit" disabled={disabled.getRates} miw={160}>
          {busy && busyLabel ? busyLabel : 'Get Rates'}
        </Button>
        {loading && <PageLoader />}
      </Group>
    </form>
  );
}
