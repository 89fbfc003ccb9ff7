import { useQuery } from '@tanstack/react-query';
import {
  getHospitalDetail,
  getHospitals,
  getInventoryListings,
  getMsas,
  getStates,
} from './inventory-api.ts';

export const inventoryKeys = {
  all: ['inventory'] as const,
  states: () => [...inventoryKeys.all, 'states'] as const,
  msas: (stateCode: string | null) => [...inventoryKeys.all, 'msas', stateCode] as const,
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

/** One hospital with its files; idle (never sent) for an id the server would refuse. */
export function useHospitalDetail(hospitalId: string | null) {
  return useQuery({
    queryKey: inventoryKeys.hospital(hospitalId ?? ''),
    queryFn: () => getHospitalDetail(hospitalId ?? ''),
    enabled: hospitalId !== null,
  });
}
