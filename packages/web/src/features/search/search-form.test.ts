import { describe, expect, it } from 'vitest';
import {
  EMPTY_SEARCH_FORM,
  disabledFields,
  searchFormReducer,
  type SearchContextFlags,
  type SearchFormState,
} from './search-form.ts';

const FILLED: SearchFormState = {
  state: { stateCode: 'AK', stateName: 'Alaska' },
  msa: { msaID: '11260', msaName: 'Anchorage, AK', tableName: '11260' },
  code: { code: '70551', description: 'MRI of the brain, no contrast', codeType: 'CPT' },
  codeText: '(70551) MRI of the brain, no contrast',
  billingClass: 'Outpatient',
  changed: false,
};

const READY: SearchContextFlags = {
  signedIn: true,
  searchable: true,
  hasBillingClasses: true,
  employerAccessKnown: true,
  busy: false,
};

describe('searchFormReducer', () => {
  it('clears the metro area, the code and the typed text when another state is chosen', () => {
    const next = searchFormReducer(FILLED, {
      type: 'state',
      value: { stateCode: 'AL', stateName: 'Alabama' },
    });

    expect(next).toEqual({
      ...FILLED,
      state: { stateCode: 'AL', stateName: 'Alabama' },
      msa: null,
      code: null,
      codeText: '',
      changed: true,
    });
  });

  it('clears the code and keeps the table name when another metro area is chosen', () => {
    const juneau = { msaID: '27940', msaName: 'Juneau, AK', tableName: '27940' };

    const next = searchFormReducer(FILLED, { type: 'msa', value: juneau });

    expect(next.msa).toEqual(juneau);
    expect(next.code).toBeNull();
    expect(next.codeText).toBe('');
    expect(next.billingClass).toBe('Outpatient');
    expect(next.changed).toBe(true);
  });

  it("shows a chosen code as '(code) description' and drops it when the text is edited", () => {
    const chosen = searchFormReducer(EMPTY_SEARCH_FORM, {
      type: 'code',
      value: { code: ' 70553', description: 'MRI of the brain, with contrast ', codeType: null },
    });
    expect(chosen.codeText).toBe('(70553) MRI of the brain, with contrast');

    const edited = searchFormReducer(chosen, { type: 'codeText', value: '7055' });
    expect(edited.code).toBeNull();
    expect(edited.codeText).toBe('7055');
  });

  it('clears the changed mark after a search', () => {
    const changed = searchFormReducer(FILLED, { type: 'billingClass', value: 'Inpatient' });
    expect(changed.changed).toBe(true);

    expect(searchFormReducer(changed, { type: 'searched' }).changed).toBe(false);
  });
});

describe('disabledFields', () => {
  it('opens each field only once the one before it is chosen', () => {
    expect(disabledFields(EMPTY_SEARCH_FORM, READY)).toEqual({
      state: false,
      msa: true,
      code: true,
      billingClass: false,
      getRates: true,
    });
    const withState = { ...EMPTY_SEARCH_FORM, state: FILLED.state };
    expect(disabledFields(withState, READY)).toMatchObject({ msa: false, code: true });
    expect(disabledFields({ ...withState, msa: FILLED.msa }, READY)).toMatchObject({
      code: false,
    });
  });

  it('enables Get Rates only with state, metro area, code and billing class', () => {
    expect(disabledFields(FILLED, READY).getRates).toBe(false);
    for (const missing of ['state', 'msa', 'code', 'billingClass'] as const) {
      expect(disabledFields({ ...FILLED, [missing]: null }, READY).getRates).toBe(true);
    }
  });

  it('keeps Get Rates disabled while the employer access is unknown or a search runs', () => {
    expect(disabledFields(FILLED, { ...READY, employerAccessKnown: false }).getRates).toBe(true);
    expect(disabledFields(FILLED, { ...READY, busy: true }).getRates).toBe(true);
  });

  it('disables the billing class with no token or an empty settings list', () => {
    expect(disabledFields(FILLED, { ...READY, signedIn: false }).billingClass).toBe(true);
    expect(disabledFields(FILLED, { ...READY, hasBillingClasses: false }).billingClass).toBe(true);
  });

  it('disables the whole search when the user may not search now', () => {
    expect(disabledFields(FILLED, { ...READY, searchable: false })).toEqual({
      state: true,
      msa: true,
      code: true,
      billingClass: false,
      getRates: true,
    });
  });
});
