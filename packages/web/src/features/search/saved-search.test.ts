// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { ENTITLED } from '../../test/search-fixtures.ts';
import {
  loadSearch,
  saveSearch,
  savedSearchFrom,
  toCustomInput,
  toSearchInput,
  type SavedSearch,
} from './saved-search.ts';
import type { SearchFormState } from './search-form.ts';

const FORM: SearchFormState = {
  state: { stateCode: 'AK', stateName: 'Alaska' },
  msa: { msaID: '11260', msaName: 'Anchorage, AK', tableName: '11260' },
  code: { code: '70551', description: 'MRI of the brain, no contrast', codeType: 'CPT' },
  codeText: '(70551) MRI of the brain, no contrast',
  billingClass: 'Outpatient',
  changed: true,
};
const USER = { userName: 'ann@example.com', userId: 'user-1' };

function saved(): SavedSearch {
  const search = savedSearchFrom(FORM, USER, ENTITLED);
  if (!search) throw new Error('the form is complete');
  return search;
}

afterEach(() => sessionStorage.clear());

describe('saved search', () => {
  it('holds the fields of the spec, searching as the employer account when there is one', () => {
    const search = savedSearchFrom(FORM, USER, {
      ...ENTITLED,
      reportType: 'employer',
      replace_Email: 'hr@employer.example',
    });

    expect(search).toMatchObject({
      stateName: 'Alaska',
      stateCode: 'AK',
      msaID: '11260',
      msaName: 'Anchorage, AK',
      code: '70551',
      accout: 'hr@employer.example',
      paymentMethod: 'Outpatient',
      tableName: '11260',
      needIndvLog: true,
      report_Type: 'employer',
      logged_useremail: 'ann@example.com',
      islogged: false,
    });
  });

  it('is null while the form is incomplete', () => {
    expect(savedSearchFrom({ ...FORM, code: null }, USER, ENTITLED)).toBeNull();
  });

  it('keeps one standard and one custom search in session storage', () => {
    saveSearch('standard', saved());
    saveSearch('custom', { ...saved(), code: '70553', lives: 2, accumulator: 500 });

    expect(loadSearch('standard', USER.userName)?.code).toBe('70551');
    expect(loadSearch('custom', USER.userName)).toMatchObject({
      code: '70553',
      lives: 2,
      accumulator: 500,
    });
  });

  it("ignores another user's search and one that no longer makes a valid search", () => {
    saveSearch('standard', saved());
    expect(loadSearch('standard', 'bob@example.com')).toBeNull();

    sessionStorage.setItem('oopSearch', JSON.stringify({ ...saved(), code: 'DROP TABLE' }));
    expect(loadSearch('standard', USER.userName)).toBeNull();

    sessionStorage.setItem('oopCustomSearch', '{not json');
    expect(loadSearch('custom', USER.userName)).toBeNull();
  });

  it('sends the billing class uppercased, and the custom values with a custom search', () => {
    expect(toSearchInput(saved())).toMatchObject({ paymentMethod: 'OUTPATIENT', codeType: 'CPT' });
    expect(toCustomInput({ ...saved(), lives: 1, accumulator: 0 })).toMatchObject({
      lives: 1,
      accumulator: 0,
    });
  });
});
