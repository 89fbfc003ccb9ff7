/**
 * The rate search's filter chain (search-and-accounts §4 "Search eligibility and the filter
 * chain"), as a reducer: each choice clears what depends on it, and every change of an input
 * marks the search as changed (a search with changed inputs is a new, counted search).
 */

export interface StateChoice {
  stateCode: string;
  stateName: string;
}

export interface MsaChoice {
  msaID: string;
  msaName: string;
  /** The MSA's TableName, kept with the saved search (§3 "Saved search"). */
  tableName: string;
}

export interface CodeChoice {
  code: string;
  description: string;
  /** CPT, HCPCS, MS-DRG…: a code can exist under several types; null searches them all. */
  codeType: string | null;
}

export interface SearchFormState {
  state: StateChoice | null;
  msa: MsaChoice | null;
  code: CodeChoice | null;
  /** What is typed in the code box; the label of the chosen code once one is chosen. */
  codeText: string;
  billingClass: string | null;
  /** The inputs changed since the last search (§4 "the inputs changed"). */
  changed: boolean;
}

export type SearchFormAction =
  | { type: 'state'; value: StateChoice | null }
  | { type: 'msa'; value: MsaChoice | null }
  | { type: 'code'; value: CodeChoice | null }
  | { type: 'codeText'; value: string }
  | { type: 'billingClass'; value: string | null }
  | { type: 'searched' }
  | { type: 'restore'; value: SearchFormState };

export const EMPTY_SEARCH_FORM: SearchFormState = {
  state: null,
  msa: null,
  code: null,
  codeText: '',
  billingClass: null,
  changed: false,
};

/** A code option as the code box shows it: '(code) description', both trimmed (§3). */
export function codeLabel(code: string, description: string): string {
  return `(${code.trim()}) ${description.trim()}`;
}

export function searchFormReducer(
  form: SearchFormState,
  action: SearchFormAction,
): SearchFormState {
  switch (action.type) {
    case 'state':
      // A new state clears the MSA, the code choice and the search text (and so its options).
      return {
        ...form,
        state: action.value,
        msa: null,
        code: null,
        codeText: '',
        changed: true,
      };
    case 'msa':
      return { ...form, msa: action.value, code: null, codeText: '', changed: true };
    case 'code':
      return {
        ...form,
        code: action.value,
        codeText: action.value ? codeLabel(action.value.code, action.value.description) : '',
        changed: true,
      };
    case 'codeText':
      // Typing again drops the chosen code: the box no longer shows it.
      return {
        ...form,
        codeText: action.value,
        code: null,
        changed: form.changed || form.code !== null,
      };
    case 'billingClass':
      return { ...form, billingClass: action.value, changed: true };
    case 'searched':
      return { ...form, changed: false };
    case 'restore':
      return action.value;
  }
}

export interface SearchContextFlags {
  signedIn: boolean;
  /** searching_Status is 1. */
  searchable: boolean;
  /** The settings call answered with at least one billing class. */
  hasBillingClasses: boolean;
  /** The employer access flag has arrived ('yes' or 'no'). */
  employerAccessKnown: boolean;
  /** A search or download is under way. */
  busy: boolean;
}

export interface SearchFieldsDisabled {
  state: boolean;
  msa: boolean;
  code: boolean;
  billingClass: boolean;
  getRates: boolean;
}

/** Which fields are disabled (§4): each waits for the one before it, Get Rates for all four. */
export function disabledFields(
  form: SearchFormState,
  flags: SearchContextFlags,
): SearchFieldsDisabled {
  const open = flags.signedIn && flags.searchable;
  const complete =
    form.state !== null && form.msa !== null && form.code !== null && form.billingClass !== null;
  return {
    state: !open,
    msa: !open || form.state === null,
    code: !open || form.state === null || form.msa === null,
    billingClass: !flags.signedIn || !flags.hasBillingClasses,
    getRates: !open || !complete || !flags.employerAccessKnown || flags.busy,
  };
}
