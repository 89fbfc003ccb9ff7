import type { Entitlement } from '@ratelens/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSession } from '../auth/use-session.ts';
import {
  getBillingClasses,
  getEmployerAccess,
  getEntitlement,
  getPlanDesign,
  getStatewiseAccess,
  searchCodes,
  type CodeQuery,
} from './search-api.ts';

export const searchKeys = {
  all: ['search'] as const,
  billingClasses: () => [...searchKeys.all, 'billing-classes'] as const,
  entitlement: (userId: string) => [...searchKeys.all, 'entitlement', userId] as const,
  states: (account: string) => [...searchKeys.all, 'states', account] as const,
  employerAccess: (account: string) => [...searchKeys.all, 'employer-access', account] as const,
  codes: (query: CodeQuery) => [...searchKeys.all, 'codes', query] as const,
  planDesign: () => [...searchKeys.all, 'plan-design'] as const,
};

/** The account used for entitlement and queries: replace_Email when present (§6). */
export function searchAccount(entitlement: Entitlement): string {
  return entitlement.replace_Email ?? entitlement.actual_Email;
}

/**
 * What the search fields need before anyone types (§4 "Search eligibility"): the entitlement,
 * then, for a searchable user, the states they may search and the employer access flag; the
 * billing classes for everyone.
 */
export function useSearchContext() {
  const session = useSession();
  const signedIn = session.token !== null;
  const userName = session.userName ?? '';
  const userId = session.userID ?? '';

  const billingClasses = useQuery({
    queryKey: searchKeys.billingClasses(),
    queryFn: getBillingClasses,
    staleTime: Infinity,
  });

  const entitlement = useQuery({
    queryKey: searchKeys.entitlement(userId),
    queryFn: () => getEntitlement(userName, userId),
    enabled: signedIn,
    // Always the current allowance: the server counts searches.
    staleTime: 0,
  });

  const searchable = entitlement.data?.searching_Status === 1;
  const account = entitlement.data ? searchAccount(entitlement.data) : '';

  const states = useQuery({
    queryKey: searchKeys.states(account),
    queryFn: () => getStatewiseAccess(account),
    enabled: signedIn && searchable,
  });

  const employerAccess = useQuery({
    queryKey: searchKeys.employerAccess(account),
    queryFn: () => getEmployerAccess(account),
    enabled: signedIn && searchable,
  });

  // §2: shown as 'name (code)', sorted.
  const stateOptions = useMemo(
    () =>
      Object.entries(states.data ?? {})
        .map(([code, name]) => ({ stateCode: code, stateName: name }))
        .sort((a, b) => a.stateName.localeCompare(b.stateName, 'en-US')),
    [states.data],
  );

  const queryClient = useQueryClient();
  const refreshEntitlement = () =>
    queryClient.invalidateQueries({ queryKey: searchKeys.entitlement(userId) });

  return {
    signedIn,
    userName,
    userId,
    email: session.email ?? userName,
    billingClasses,
    entitlement,
    searchable,
    states,
    stateOptions,
    employerAccess,
    refreshEntitlement,
  };
}

export type SearchContext = ReturnType<typeof useSearchContext>;

const NO_CODE_QUERY: CodeQuery = { stateCode: '', msaId: '', msaName: '', queryText: '' };

/**
 * The code options for the typed text: idle below 3 characters and while no state and MSA are
 * chosen (§5 "Other rules"); the caller debounces the text.
 */
export function useCodeOptions(query: CodeQuery | null) {
  return useQuery({
    queryKey: searchKeys.codes(query ?? NO_CODE_QUERY),
    queryFn: ({ signal }) => searchCodes(query ?? NO_CODE_QUERY, signal),
    enabled: query !== null,
  });
}

export function usePlanDesign(enabled: boolean) {
  return useQuery({
    queryKey: searchKeys.planDesign(),
    queryFn: getPlanDesign,
    enabled,
    staleTime: Infinity,
  });
}
