import {
  CustomSearchInputSchema,
  SearchInputSchema,
  type CustomSearchInput,
  type Entitlement,
  type FamilyStatus,
  type SearchInput,
} from '@ratelens/core';
import { codeLabel, type SearchFormState } from './search-form.ts';

/**
 * The search the results page runs (search-and-accounts §3 "Saved search"): kept in session
 * storage, one standard and one custom, so /ooprates re-runs it on entry and after a reload.
 */
export type SearchMode = 'standard' | 'custom';

export interface SavedSearch {
  stateName: string;
  stateCode: string;
  msaID: string;
  msaName: string;
  code: string;
  /** Not in the spec's list: the code box shows '(code) description' again on the results page. */
  codeDescription: string;
  codeType: string | null;
  /** The account searched as: replace_Email when present, else actual_Email (§6). */
  accout: string;
  paymentMethod: string;
  tableName: string;
  needIndvLog: true;
  report_Type: string;
  /** The signed-in user name; a saved search of someone else is ignored. */
  logged_useremail: string;
  /** True when the report type is not employer (§6). */
  islogged: boolean;
  userId: string;
}

export interface SavedCustomSearch extends SavedSearch {
  /** Family status: 1 single, 2 family. */
  lives: FamilyStatus;
  /** Year-to-date medical spend in dollars. */
  accumulator: number;
}

export interface CustomValues {
  lives: FamilyStatus;
  accumulator: number;
}

const STORAGE_KEYS: Record<SearchMode, string> = {
  standard: 'oopSearch',
  custom: 'oopCustomSearch',
};

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** The saved search of this form, for this user and entitlement; null while the form is incomplete. */
export function savedSearchFrom(
  form: SearchFormState,
  user: { userName: string; userId: string },
  entitlement: Entitlement,
): SavedSearch | null {
  const { state, msa, code, billingClass } = form;
  if (!state || !msa || !code || !billingClass) return null;
  return {
    stateName: state.stateName,
    stateCode: state.stateCode,
    msaID: msa.msaID,
    msaName: msa.msaName,
    code: code.code,
    codeDescription: code.description,
    codeType: code.codeType,
    accout: entitlement.replace_Email ?? entitlement.actual_Email,
    paymentMethod: billingClass,
    tableName: msa.tableName,
    needIndvLog: true,
    report_Type: entitlement.reportType,
    logged_useremail: user.userName,
    islogged: entitlement.reportType !== 'employer',
    userId: user.userId,
  };
}

/** The form as a saved search shows it again. */
export function formFromSaved(saved: SavedSearch): SearchFormState {
  return {
    state: { stateCode: saved.stateCode, stateName: saved.stateName },
    msa: { msaID: saved.msaID, msaName: saved.msaName, tableName: saved.tableName },
    code: { code: saved.code, description: saved.codeDescription, codeType: saved.codeType },
    codeText: codeLabel(saved.code, saved.codeDescription),
    billingClass: saved.paymentMethod,
    changed: false,
  };
}

/** The body of the standard calls (§7): the billing class travels uppercased. */
export function toSearchInput(saved: SavedSearch): SearchInput {
  return {
    code: saved.code,
    codeType: saved.codeType,
    accout: saved.accout,
    stateName: saved.stateName,
    stateCode: saved.stateCode,
    msaID: saved.msaID,
    msaName: saved.msaName,
    paymentMethod: saved.paymentMethod.toUpperCase(),
    report_Type: saved.report_Type,
    logged_useremail: saved.logged_useremail,
    islogged: saved.islogged,
    userId: saved.userId,
  };
}

export function toCustomInput(saved: SavedCustomSearch): CustomSearchInput {
  return { ...toSearchInput(saved), lives: saved.lives, accumulator: saved.accumulator };
}

export type AnySavedSearch = SavedSearch | SavedCustomSearch;

export function isCustomSearch(search: AnySavedSearch): search is SavedCustomSearch {
  return 'lives' in search;
}

/** The body of a search's calls: with family status and YTD spend for a custom one. */
export function searchInputOf(search: AnySavedSearch): SearchInput | CustomSearchInput {
  return isCustomSearch(search) ? toCustomInput(search) : toSearchInput(search);
}

export function saveSearch(mode: 'standard', search: SavedSearch): void;
export function saveSearch(mode: 'custom', search: SavedCustomSearch): void;
export function saveSearch(mode: SearchMode, search: SavedSearch): void {
  storage()?.setItem(STORAGE_KEYS[mode], JSON.stringify(search));
}

function parse(raw: string | null): Record<string, unknown> | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The saved search of `mode` for this user, or null when there is none, it belongs to another
 * user, or it no longer makes a valid search (storage edited, contract changed).
 */
export function loadSearch(mode: 'standard', userName: string): SavedSearch | null;
export function loadSearch(mode: 'custom', userName: string): SavedCustomSearch | null;
export function loadSearch(mode: SearchMode, userName: string): SavedSearch | null {
  const value = parse(storage()?.getItem(STORAGE_KEYS[mode]) ?? null);
  if (!value || value.logged_useremail !== userName) return null;
  const schema = mode === 'custom' ? CustomSearchInputSchema : SearchInputSchema;
  if (!schema.safeParse(value).success) return null;
  const saved: SavedSearch = {
    stateName: text(value.stateName),
    stateCode: text(value.stateCode),
    msaID: text(value.msaID),
    msaName: text(value.msaName),
    code: text(value.code),
    codeDescription: text(value.codeDescription),
    codeType: text(value.codeType) || null,
    accout: text(value.accout),
    paymentMethod: text(value.paymentMethod),
    tableName: text(value.tableName),
    needIndvLog: true,
    report_Type: text(value.report_Type),
    logged_useremail: userName,
    islogged: value.islogged === true,
    userId: text(value.userId),
  };
  if (mode === 'standard') return saved;
  const custom: SavedCustomSearch = {
    ...saved,
    lives: Number(value.lives) === 2 ? 2 : 1,
    accumulator: Number(value.accumulator),
  };
  return custom;
}
