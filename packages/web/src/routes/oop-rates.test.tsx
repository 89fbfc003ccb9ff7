// @vitest-environment jsdom
import { SEARCH_MESSAGES, SPEC_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../features/auth/session.ts';
import { isHomeNotice } from '../features/search/eligibility.ts';
import { NO_RATES_MESSAGE } from '../features/search/rate-results.tsx';
import { saveSearch, type SavedSearch } from '../features/search/saved-search.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { callsTo, sentJson, stubSearchApi } from '../test/search-api-stub.ts';
import { ENTITLED, rateRow } from '../test/search-fixtures.ts';
import { signInAs } from '../test/sign-in.ts';
import { OopRatesRoute } from './oop-rates.tsx';

const SAVED: SavedSearch = {
  stateName: 'Alaska',
  stateCode: 'AK',
  msaID: '11260',
  msaName: 'Anchorage, AK',
  code: '70551',
  codeDescription: 'MRI of the brain, no contrast',
  codeType: 'CPT',
  accout: 'ann@example.com',
  paymentMethod: 'Outpatient',
  tableName: '11260',
  needIndvLog: true,
  report_Type: 'individual',
  logged_useremail: 'ann@example.com',
  islogged: true,
  userId: 'user-1',
};

function LocationProbe() {
  const location = useLocation();
  const notice = isHomeNotice(location.state) ? location.state.notice : '';
  return (
    <output data-testid="location">
      {location.pathname}
      {notice && ` ${notice}`}
    </output>
  );
}

function renderResults() {
  renderWithProviders(
    <Routes>
      <Route path="/ooprates" element={<OopRatesRoute />} />
      <Route path="/" element={<LocationProbe />} />
      <Route path="/login" element={<LocationProbe />} />
    </Routes>,
    { route: '/ooprates' },
  );
}

const location = () => screen.getByTestId('location').textContent;
const ratesTable = () => within(screen.getByRole('region', { name: 'Negotiated rates' }));

/** The server's answer to a text sent (oobrates-service textReport). */
const SENT =
  'Your report was sent by text message to +1 (907) 555-0123. The link works until November 24, 2026.';

/** Opens the 'Text me a report' popup; its number field. */
async function openTextPopup(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: 'Text me a report' }));
  return screen.findByLabelText(/Mobile number/);
}

/** The popup's send button (the popup is a portal that jsdom leaves display: none). */
const sendButton = () =>
  screen.getByRole('button', { name: 'Send the report by text message', hidden: true });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
  sessionStorage.clear();
});

describe('OopRatesRoute redirects', () => {
  it("sends a visitor without a token to /login, which says 'You need to login first'", async () => {
    stubSearchApi();
    renderResults();

    await waitFor(() => expect(location()).toBe(`/login ${SPEC_MESSAGES.loginFirst}`));
  });

  it('sends a signed-in user home when no search is saved', async () => {
    stubSearchApi();
    signInAs('user');
    renderResults();

    await waitFor(() => expect(location()).toBe('/'));
  });

  it('sends a user home when searching_Status is not 1', async () => {
    stubSearchApi({
      '/api/OobRates/getReportType': jsonResponse(200, [
        { ...ENTITLED, searching_Status: 0, next_Search_Date: '2026-05-03T00:00:00Z' },
      ]),
    });
    signInAs('user');
    saveSearch('custom', { ...SAVED, lives: 1, accumulator: 0 });
    renderResults();

    await waitFor(() => expect(location()).toBe('/'));
  });
});

/** Two plans at one hospital: Aetna in dollars, Premera derived, with a cheaper cash price. */
function twoPlans() {
  return [
    rateRow({ planname: 'Aetna PPO', rates: 1000, MemberOOP: 3400 }),
    rateRow({
      payername: 'Premera',
      planname: 'Premera Blue',
      rates: 1250.5,
      MemberOOP: 3450.1,
      rateOrigin: 'percentage-of-gross',
      rateDerivation: 'derived from 45% of billed charges',
      cashRate: 900,
      cashIsCheaper: true,
    }),
  ];
}

describe('OopRatesRoute results', () => {
  it('gives each hospital a card for phones, every figure of a plan labelled', async () => {
    stubSearchApi({
      '/api/OobRates/Getoobrateswithcustomvalue': jsonResponse(200, twoPlans()),
    });
    signInAs('user');
    saveSearch('custom', { ...SAVED, lives: 2, accumulator: 500 });
    renderResults();

    // jsdom applies no media queries: the table and the cards are both in the page.
    const card = await screen.findByRole('region', { name: 'Demo Anchorage Hospital' });
    expect(within(card).getByRole('heading', { level: 4 }).textContent).toBe(
      'Demo Anchorage Hospital',
    );
    expect(screen.getByRole('heading', { level: 3, name: /^\(70551\) MRI/ })).toBeTruthy();
    expect(within(card).getByText('Cash price ($)').nextSibling?.textContent).toBe('900.00');
    // Highest rate first, as in the table; each figure under its column's name.
    const plans = within(
      within(card).getByRole('list', { name: 'Plans at Demo Anchorage Hospital' }),
    ).getAllByRole('listitem');
    expect(plans.map((plan) => plan.firstElementChild?.textContent)).toEqual([
      'Premera Blue',
      'Aetna PPO',
    ]);
    const [premera] = plans;
    if (!premera) throw new Error('no Premera card');
    expect(premera.textContent).toBe(
      'Premera Blue' +
        'Negotiate Rate ($)1,250.50' +
        'Your estimated out-of-pocket ($)3,450.10' +
        'Paying the cash price ($900.00) would cost you less than your estimated out-of-pocket' +
        'Derived from 45% of billed charges',
    );
  });

  it('names the table of rates for screen readers', async () => {
    stubSearchApi();
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();

    await screen.findByRole('region', { name: 'Negotiated rates' });
    expect(
      ratesTable().getByRole('table', { name: 'Negotiated rates by code, hospital and plan' }),
    ).toBeTruthy();
  });

  it('re-runs the saved custom search on entry and shows the pivot, assumptions and chart', async () => {
    const fetchMock = stubSearchApi({
      '/api/OobRates/Getoobrateswithcustomvalue': jsonResponse(200, twoPlans()),
    });
    signInAs('user');
    saveSearch('custom', { ...SAVED, lives: 2, accumulator: 500 });
    renderResults();

    await waitFor(() =>
      expect(
        ratesTable()
          .getAllByRole('columnheader')
          .map((th) => th.textContent),
      ).toEqual([
        'Code Description/Hospital',
        'Negotiate Rate ($)',
        'Your estimated out-of-pocket ($)',
        'Cash price ($)',
        'How the rate was published',
      ]),
    );
    const [sent] = callsTo(fetchMock, '/api/OobRates/Getoobrateswithcustomvalue');
    expect(sentJson(sent)).toMatchObject({
      code: '70551',
      stateCode: 'AK',
      msaID: '11260',
      paymentMethod: 'OUTPATIENT',
      lives: 2,
      accumulator: 500,
    });

    // Highest rate first, 2 decimals; the out-of-pocket, the origin and the cash flag per plan.
    const rowHeaders = ratesTable()
      .getAllByRole('rowheader')
      .map((th) => th.textContent);
    expect(rowHeaders).toEqual([
      '(70551) MRI of the brain, no contrast',
      'Demo Anchorage Hospital',
      'Premera Blue',
      'Aetna PPO',
    ]);
    const premera = ratesTable().getByRole('rowheader', { name: 'Premera Blue' }).closest('tr');
    if (!premera) throw new Error('no Premera row');
    const cells = within(premera)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells[0]).toBe('1,250.50');
    expect(cells[1]).toBe(
      '3,450.10Paying the cash price ($900.00) would cost you less than your estimated out-of-pocket',
    );
    expect(cells[3]).toBe('Derived from 45% of billed charges');

    expect(screen.getByText(/^Coverage: family, with a deductible of \$3,400\.00/)).toBeTruthy();
    expect(screen.getByText(/Your \$500\.00 spent so far this year/)).toBeTruthy();
    expect(
      await screen.findByRole('figure', {
        name: 'Rates by hospital for (70551) MRI of the brain, no contrast',
      }),
    ).toBeTruthy();
    expect(screen.getByText(SEARCH_MESSAGES.footerNotice)).toBeTruthy();
    // The form shows the saved search again.
    expect(
      screen.getByRole('combobox', { name: 'Medical Code / Code Description' }),
    ).toHaveProperty('value', '(70551) MRI of the brain, no contrast');
  });

  it('says so when no hospital has a rate', async () => {
    stubSearchApi({ '/api/OobRates/getoobrates': jsonResponse(200, []) });
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();

    expect(
      await screen.findByText(/No hospital in this metro area has published a rate/),
    ).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Negotiated rates' })).toBeNull();
  });

  it("takes the focus to the results' heading once the saved search's results are shown", async () => {
    stubSearchApi();
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();

    const heading = await screen.findByRole('heading', { level: 2, name: 'Results' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    // Focusable by the page, not a stop for the Tab key.
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });

  it("takes the focus to the results' heading when no hospital has a rate", async () => {
    stubSearchApi({ '/api/OobRates/getoobrates': jsonResponse(200, []) });
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();

    await screen.findByText(NO_RATES_MESSAGE);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Results' }));
  });

  it("takes the focus to the new results' heading after Get Rates on the results page", async () => {
    const fetchMock = stubSearchApi();
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('heading', { level: 2, name: 'Results' });
    const getRates = screen.getByRole('button', { name: 'Get Rates' });
    await waitFor(() => expect(getRates).toHaveProperty('disabled', false));
    getRates.focus();

    fireEvent.click(getRates);

    await waitFor(() => expect(callsTo(fetchMock, '/api/OobRates/getoobrates')).toHaveLength(2));
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { level: 2, name: 'Results' }),
      ),
    );
  });

  it("takes the focus to the new results' heading after the coverage popup's Get Rates", async () => {
    const fetchMock = stubSearchApi();
    signInAs('user');
    saveSearch('custom', { ...SAVED, lives: 1, accumulator: 0 });
    renderResults();
    const heading = await screen.findByRole('heading', { level: 2, name: 'Results' });
    const getRates = screen.getByRole('button', { name: 'Get Rates' });
    await waitFor(() => expect(getRates).toHaveProperty('disabled', false));
    fireEvent.click(getRates);
    const dialog = await screen.findByRole('dialog', { name: 'Your coverage' });
    expect(document.activeElement).not.toBe(heading);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Get Rates' }));

    const rates = '/api/OobRates/Getoobrateswithcustomvalue';
    await waitFor(() => expect(callsTo(fetchMock, rates)).toHaveLength(2));
    const results = () => screen.getByRole('heading', { level: 2, name: 'Results' });
    await waitFor(() => expect(document.activeElement).toBe(results()));
    // The popup gives the focus back to where it was 10 ms after it closes: not over the results.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.activeElement).toBe(results());
  });

  it("shows the server's refusal on the home page, without ending the session", async () => {
    stubSearchApi({
      '/api/OobRates/Getoobrateswithcustomvalue': forbiddenResponse(
        SEARCH_MESSAGES.freeSearchesOver,
      ),
    });
    signInAs('user');
    saveSearch('custom', { ...SAVED, lives: 1, accumulator: 0 });
    renderResults();

    await waitFor(() => expect(location()).toBe(`/ ${SEARCH_MESSAGES.freeSearchesOver}`));
    expect(localStorage.getItem('token')).toBe('access-1');
  });

  it('refuses a custom search once the entitlement says no more searches', async () => {
    // The first answer lets the saved search run; the refresh after it says the allowance is spent.
    let answers = 0;
    const fetchMock = stubSearchApi({
      '/api/OobRates/getReportType': () =>
        jsonResponse(200, [{ ...ENTITLED, searching_Status: answers++ === 0 ? 1 : 0 }]),
    });
    signInAs('user');
    saveSearch('custom', { ...SAVED, lives: 1, accumulator: 0 });
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });
    await waitFor(() => expect(callsTo(fetchMock, '/api/OobRates/getReportType')).toHaveLength(2));

    fireEvent.click(screen.getByRole('button', { name: 'Get Rates' }));

    await waitFor(() => expect(location()).toBe(`/ ${SEARCH_MESSAGES.freeSearchesOver}`));
    expect(callsTo(fetchMock, '/api/OobRates/Getoobrateswithcustomvalue')).toHaveLength(1);
  });

  it('texts the report to a 10-digit number and shows the answer', async () => {
    const fetchMock = stubSearchApi({
      '/api/OobRates/sendPdftoUser': jsonResponse(200, { isSuccess: true, message: SENT }),
    });
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    const number = await openTextPopup();
    fireEvent.change(number, { target: { value: '9075550123' } });
    fireEvent.click(sendButton());

    expect(await screen.findByText(SENT)).toBeTruthy();
    await waitFor(() => expect(screen.queryByLabelText(/Mobile number/)).toBeNull());
    const [sent] = callsTo(fetchMock, '/api/OobRates/sendPdftoUser');
    expect(sentJson(sent)).toMatchObject({
      number: '9075550123',
      search: { code: '70551', stateCode: 'AK', msaID: '11260', paymentMethod: 'OUTPATIENT' },
      userId: 'user-1',
      StateCode: 'AK',
      userDomain: 'example.com',
      pdfFooter: SEARCH_MESSAGES.footerNotice,
    });
  });

  it.each([
    ['19075550123', 'its country code'],
    ['1 (907) 555-0123', 'its country code, spaces, parentheses and a dash'],
    ['907.555.0123', 'dots'],
  ])('sends the 10 digits of %s, typed with %s', async (typed) => {
    const fetchMock = stubSearchApi({
      '/api/OobRates/sendPdftoUser': jsonResponse(200, { isSuccess: true, message: SENT }),
    });
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    const number = await openTextPopup();
    fireEvent.change(number, { target: { value: typed } });
    // Kept as typed: no length limit cuts the last digit off.
    expect(number).toHaveProperty('value', typed);
    expect(number.getAttribute('maxlength')).toBeNull();
    expect(screen.queryByText(SEARCH_MESSAGES.invalidNumber)).toBeNull();
    fireEvent.click(sendButton());

    await screen.findByText(SENT);
    const [sent] = callsTo(fetchMock, '/api/OobRates/sendPdftoUser');
    expect(sentJson(sent)).toMatchObject({ number: '9075550123' });
  });

  it.each([
    ['1234567890', 'an area code starting with 1'],
    ['0000000000', 'an area code starting with 0'],
    ['907-155-1234', 'an exchange starting with 1'],
    ['1907555123', 'ten digits after a country code 1'],
    ['907-55', 'too few digits'],
  ])('refuses %s (%s) on send with the spec message, and sends nothing', async (typed) => {
    const fetchMock = stubSearchApi();
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    const number = await openTextPopup();
    fireEvent.change(number, { target: { value: typed } });
    // It could still be a number being typed: no message yet.
    expect(screen.queryByText(SEARCH_MESSAGES.invalidNumber)).toBeNull();
    fireEvent.click(sendButton());

    expect(await screen.findByText(SEARCH_MESSAGES.invalidNumber)).toBeTruthy();
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(callsTo(fetchMock, '/api/OobRates/sendPdftoUser')).toHaveLength(0);
    expect(screen.getByLabelText(/Mobile number/)).toBe(number);
  });

  it('takes the keyboard back to the number, its error read with it, when the send is refused', async () => {
    stubSearchApi();
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    const number = await openTextPopup();
    fireEvent.change(number, { target: { value: '907-55' } });
    // What a screen reader reads with the field is what it names when it takes the focus.
    let describedOnFocus: string[] = [];
    number.addEventListener('focus', () => {
      describedOnFocus = number.getAttribute('aria-describedby')?.split(' ') ?? [];
    });
    // Sent from the button, as a keyboard user does after tabbing to it.
    sendButton().focus();
    fireEvent.click(sendButton());

    const error = await screen.findByText(SEARCH_MESSAGES.invalidNumber);
    await waitFor(() => expect(document.activeElement).toBe(number));
    expect(describedOnFocus).toContain(error.closest('[id]')?.id);
  });

  it.each([
    ['907-555-0123x', 'a letter'],
    ['+44 20 7946 0958', 'a country code other than +1'],
    ['29075550123', 'eleven digits not starting with 1'],
  ])('says at once that %s (%s) is not a valid number', async (typed) => {
    stubSearchApi();
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    fireEvent.change(await openTextPopup(), { target: { value: typed } });

    expect(await screen.findByText(SEARCH_MESSAGES.invalidNumber)).toBeTruthy();
  });

  it("shows the server's words when it refuses the text for too many (429)", async () => {
    const refusal = 'You can text at most 5 reports a day. Please try again tomorrow.';
    stubSearchApi({
      '/api/OobRates/sendPdftoUser': jsonResponse(429, {
        isSuccess: false,
        statusCode: 429,
        error: 'Too Many Requests',
        message: refusal,
      }),
    });
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    fireEvent.change(await openTextPopup(), { target: { value: '9075550123' } });
    fireEvent.click(sendButton());

    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
  });

  it('says the SMS failed, closes the popup and clears the number when the send fails', async () => {
    stubSearchApi({
      '/api/OobRates/sendPdftoUser': jsonResponse(502, {
        isSuccess: false,
        statusCode: 502,
        error: 'Bad Gateway',
        message: 'Twilio said no.',
      }),
    });
    signInAs('user');
    saveSearch('standard', SAVED);
    renderResults();
    await screen.findByRole('region', { name: 'Negotiated rates' });

    fireEvent.change(await openTextPopup(), { target: { value: '9075550123' } });
    fireEvent.click(sendButton());

    expect((await screen.findByRole('alert')).textContent).toBe(SEARCH_MESSAGES.smsFailed);
    await waitFor(() => expect(screen.queryByLabelText(/Mobile number/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Text me a report' }));
    expect(await screen.findByLabelText(/Mobile number/)).toHaveProperty('value', '');
  });
});
