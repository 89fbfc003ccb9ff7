import { useQuery } from '@tanstack/react-query';
import {
  getHospitalDetail,
  getHospitals,
  getInventoryListings,
  getMsas,
  getMsasByStateName,
  getStates,
} from './inventory-api.ts';

export const inventoryKeys = {
  all: ['inventory'] as const,
  states: () => [...inventoryKeys.all, 'states'] as const,
  msas: (stateCode: string | null) => [...inventoryKeys.all, 'msas', stateCode] as const,
  msasByStateName: (stateName: string | null) =>
    [...inventoryKeys.all, 'msas-by-state-name', stateName] as const,
  hospitals: (stateName: string | null, msaId: string | null) =>
    [...inventoryKeys.all, 'hospitals', stateName, msaId] as const,
  listings: () => [...inventoryKeys.all, 'listings'] as const,
  hospital: (hospitalId: string) => [...inventoryKeys.all, 'hospital', hospitalId] as const,
};

export function useStates() {
  return useQuery({ queryKey: inventoryKeys.states(), queryFn: getStates });
}

/** The metro areas of a state; idle until a state is chosen. */
export function useMsas(stateCode: string | null) {
  return useQuery({
    queryKey: inventoryKeys.msas(stateCode),
    queryFn: () => getMsas(stateCode ?? ''),
    enabled: stateCode !== null,
  });
}

/** The same for the inventory list, which names the state (search-and-accounts §7). */
export function useMsasByStateName(stateName: string | null) {
  return useQuery({
    queryKey: inventoryKeys.msasByStateName(stateName),
    queryFn: () => getMsasByStateName(stateName ?? ''),
    enabled: stateName !== null,
  });
}

/** The hospitals of a state's metro area; idle until both are chosen. */
export function useHospitals(stateName: string | null, msaId: string | null) {
  return useQuery({
    queryKey: inventoryKeys.hospitals(stateName, msaId),
    queryFn: () => getHospitals(stateName ?? '', msaId ?? ''),
    enabled: stateName !== null && msaId !== null,
  });
}

export function useInventoryListings() {
  return useQuery({ queryKey: inventoryKeys.listings(), queryFn: getInventoryListings });
}

/** How often a hospital's page asks for its files again while one of them is loading. */
export const LOADING_REFRESH_MS = 5000;

/**
 * One hospital with its files; idle (never sent) for an id the server would refuse. While a file
 * is loading it is asked for again every few seconds: the page shows how far the read is, and
 * the file's figures once it ends.
 */
export function useHospitalDetail(hospitalId: string | null) {
  return useQuery({
    queryKey: inventoryKeys.hospital(hospitalId ?? ''),
    queryFn: () => getHospitalDetail(hospitalId ?? ''),
    enabled: hospitalId !== null,
    refetchInterval: (query) =>
      query.state.data?.files.some((file) => file.status === 'loading')
        ? LOADING_REFRESH_MS
        : false,
  });
}
