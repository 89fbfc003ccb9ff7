import type { UseQueryResult } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { withFilter, type FilterKey, type InventoryFilter } from './inventory-filters.ts';
import { useHospitals, useMsasByStateName, useStates } from './inventory-queries.ts';

/**
 * The filter chain of the inventory list: the options of each select, what is chosen (read from
 * the query string), and a way to choose. A value in the URL counts only once its option is
 * known and the filter before it counts, so the table is narrowed by exactly what the selects show.
 * A value that names no option is left out, and `linkNotice` says so: a mistyped shared link
 * would otherwise show more than it meant, silently.
 */
export function useInventoryFilters() {
  const [searchParams, setSearchParams] = useSearchParams();

  const states = useStates();
  // A shared link may spell the code in lower case (?state=ak): the API takes it either way.
  const stateCode = searchParams.get('state')?.toUpperCase() ?? null;
  const state = states.data?.find((item) => item.stateCode === stateCode) ?? null;

  const msas = useMsasByStateName(state?.stateName ?? null);
  const msaParam = searchParams.get('msa');
  const msaId = state === null ? null : msaParam;
  const msa = msas.data?.find((item) => item.msaID === msaId) ?? null;

  const hospitals = useHospitals(state?.stateName ?? null, msa?.msaID ?? null);
  // A hospital's id is a UUID, which a link may write in capitals: ours are lower case.
  const hospitalParam = searchParams.get('hospital')?.toLowerCase() ?? null;
  const hospitalId = msa === null ? null : hospitalParam;
  const hospital = hospitals.data?.find((item) => item.hospitalID === hospitalId) ?? null;

  const filter: InventoryFilter = {
    stateName: state?.stateName ?? null,
    msaName: msa?.MSA ?? null,
    hospitalId: hospital?.hospitalID ?? null,
  };

  // Before the table can be narrowed by a filter in the URL, its option must be known.
  const lookups: UseQueryResult<unknown>[] = [];
  if (stateCode !== null) lookups.push(states);
  if (msaId !== null) lookups.push(msas);
  if (hospitalId !== null) lookups.push(hospitals);

  let linkNotice: string | null = null;
  if (stateCode !== null && states.isSuccess && state === null)
    linkNotice = `The link's state "${stateCode}" is not one we know, so every state is shown.`;
  else if (stateCode === null && (msaParam ?? hospitalParam) !== null)
    linkNotice = `The link names ${msaParam !== null ? 'a metro area' : 'a hospital'} but no state, so every state is shown.`;
  else if (state !== null && msaParam === null && hospitalParam !== null)
    linkNotice = `The link names a hospital but no metro area, so all of ${state.stateName} is shown.`;
  else if (state !== null && msaId !== null && msas.isSuccess && msa === null)
    linkNotice = `The link's metro area "${msaId}" has no hospitals in ${state.stateName}, so all of ${state.stateName} is shown.`;
  else if (msa !== null && hospitalId !== null && hospitals.isSuccess && hospital === null)
    linkNotice = `The link's hospital is not in ${msa.MSA}, so every hospital there is shown.`;

  function choose(key: FilterKey, value: string | null) {
    setSearchParams((current) => withFilter(current, key, value), { replace: true });
  }

  return { states, msas, hospitals, state, msa, filter, lookups, linkNotice, choose };
}
