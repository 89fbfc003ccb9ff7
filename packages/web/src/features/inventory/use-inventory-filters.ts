import type { UseQueryResult } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { withFilter, type FilterKey, type InventoryFilter } from './inventory-filters.ts';
import { useHospitals, useMsas, useStates } from './inventory-queries.ts';

/**
 * The filter chain of the inventory list: the options of each select, what is chosen (read from
 * the query string), and a way to choose. A value in the URL counts only once its option is
 * known and the filter before it counts, so the table is narrowed by exactly what the selects show.
 */
export function useInventoryFilters() {
  const [searchParams, setSearchParams] = useSearchParams();

  const states = useStates();
  // A shared link may spell the code in lower case (?state=ak): the API takes it either way.
  const stateCode = searchParams.get('state')?.toUpperCase() ?? null;
  const state = states.data?.find((item) => item.stateCode === stateCode) ?? null;

  const msas = useMsas(state?.stateCode ?? null);
  const msaId = state === null ? null : searchParams.get('msa');
  const msa = msas.data?.find((item) => item.msaID === msaId) ?? null;

  const hospitals = useHospitals(state?.stateName ?? null, msa?.msaID ?? null);
  // A hospital's id is a UUID, which a link may write in capitals: ours are lower case.
  const hospitalId = msa === null ? null : (searchParams.get('hospital')?.toLowerCase() ?? null);

  const filter: InventoryFilter = {
    stateName: state?.stateName ?? null,
    msaName: msa?.MSA ?? null,
    hospitalId,
  };

  // Before the table can be narrowed by a state or MSA in the URL, their names must be known.
  const lookups: UseQueryResult<unknown>[] = [];
  if (stateCode !== null) lookups.push(states);
  if (msaId !== null) lookups.push(msas);

  function choose(key: FilterKey, value: string | null) {
    setSearchParams((current) => withFilter(current, key, value), { replace: true });
  }

  return { states, msas, hospitals, state, msa, filter, lookups, choose };
}
