// @vitest-environment jsdom
import { SEARCH_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../auth/session.ts';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { signInAs } from '../../test/sign-in.ts';
import { callsTo, stubSearchApi } from '../../test/search-api-stub.ts';
import { ALASKA_MSAS, ENTITLED } from '../../test/search-fixtures.ts';
import { HomeRateSearch } from './home-rate-search.tsx';
import { loadSearch } from './saved-search.ts';
import { NOT_LOADED } from '../../shared/lists-not-loaded.tsx';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

function renderHome() {
  renderWithProviders(
    <Routes>
      <Route
        path="/"
        element={
          <>
            <HomeRateSearch />
            <LocationProbe />
          </>
        }
      />
      <Route path="/ooprates" element={<LocationProbe />} />
    </Routes>,
  );
}

const field = (name: string) => screen.getByRole('combobox', { name });
const codeBox = () => field('Medical Code / Code Description');
const getRatesButton = () => screen.getByRole('button', { name: 'Get Rates' });

async function choose(label: string, option: string) {
  await waitFor(() => expect(field(label)).toHaveProperty('disabled', false));
  fireEvent.click(field(label));
  // In jsdom the dropdown stays display: none, so its options are found among hidden elements.
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

async function chooseCode(text: string, option: string) {
  fireEvent.focus(codeBox());
  fireEvent.change(codeBox(), { target: { value: text } });
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

async function fillSearch() {
  await choose('State', 'Alaska (AK)');
  await choose('Metro Area', 'Anchorage, AK');
  await waitFor(() => expect(codeBox()).toHaveProperty('disabled', false));
  await chooseCode('705', '(70551) MRI of the brain, no contrast');
  await choose('Billing Class', 'Outpatient');
}

/** The options of an opened combobox's own list. */
function optionsOf(combobox: HTMLElement): string[] {
  const list = document.getElementById(combobox.getAttribute('aria-controls') ?? '');
  if (!list) throw new Error('the dropdown is not open');
  return within(list)
    .getAllByRole('option', { hidden: true })
    .map((option) => option.textContent);
}

/** The words the code box gives screen readers (and shows in its dropdown). */
const codeBoxStatus = () =>
  screen.getAllByRole('status').find((node) => node.textContent !== '')?.textContent ?? '';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
  sessionStorage.clear();
});

describe('HomeRateSearch signed out', () => {
  it('blocks the search under an overlay with the sign-up and sign-in popup', () => {
    stubSearchApi();
    renderHome();

    const popup = screen.getByRole('group', { name: 'Please create an account or login first' });
    expect(within(popup).getByRole('link', { name: 'Create New Account' })).toHaveProperty(
      'pathname',
      '/registration',
    );
    expect(within(popup).getByRole('link', { name: 'Already have a account' })).toHaveProperty(
      'pathname',
      '/login',
    );
    expect(field('State').closest('[inert]')).not.toBeNull();
    expect(field('Billing Class')).toHaveProperty('disabled', true);
  });
});

describe('HomeRateSearch signed in', () => {
  it('lists the accessible states as name and code, sorted by name', async () => {
    stubSearchApi();
    signInAs('user');
    renderHome();

    await waitFor(() => expect(field('State')).toHaveProperty('disabled', false));
    fireEvent.click(field('State'));
    await waitFor(() => expect(optionsOf(field('State'))).toHaveLength(3));
    expect(optionsOf(field('State'))).toEqual(['Alabama (AL)', 'Alaska (AK)', 'Washington (WA)']);
  });

  it('opens each field after the one before it, and Get Rates after all four', async () => {
    stubSearchApi();
    signInAs('user');
    renderHome();

    await waitFor(() => expect(field('State')).toHaveProperty('disabled', false));
    expect(field('Metro Area')).toHaveProperty('disabled', true);
    expect(codeBox()).toHaveProperty('disabled', true);
    expect(getRatesButton()).toHaveProperty('disabled', true);

    await choose('State', 'Alaska (AK)');
    await choose('Metro Area', 'Anchorage, AK');
    await waitFor(() => expect(codeBox()).toHaveProperty('disabled', false));
    await chooseCode('705', '(70551) MRI of the brain, no contrast');
    expect(getRatesButton()).toHaveProperty('disabled', true);
    await choose('Billing Class', 'Outpatient');

    await waitFor(() => expect(getRatesButton()).toHaveProperty('disabled', false));
  });

  it('says Loading... while the entitlement and its lists load, and marks the form busy', async () => {
    let answerEntitlement: (response: Response) => void = () => undefined;
    stubSearchApi({
      '/api/OobRates/getReportType': () =>
        new Promise<Response>((resolve) => (answerEntitlement = resolve)),
    });
    signInAs('user');
    renderHome();
    const form = screen.getByRole('form', { name: 'Rate search' });
    const loading = () =>
      screen.queryAllByRole('status').filter((node) => node.textContent === 'Loading...');

    expect(loading()).toHaveLength(1);
    expect(form.getAttribute('aria-busy')).toBe('true');
    expect(field('State')).toHaveProperty('disabled', true);

    answerEntitlement(jsonResponse(200, [ENTITLED]));
    await waitFor(() => expect(field('State')).toHaveProperty('disabled', false));
    await waitFor(() => expect(loading()).toHaveLength(0));
    expect(form.getAttribute('aria-busy')).toBe('false');
  });

  it('clears the metro area and the code when another state is chosen', async () => {
    stubSearchApi();
    signInAs('user');
    renderHome();
    await fillSearch();

    await choose('State', 'Alabama (AL)');

    expect(field('Metro Area')).toHaveProperty('value', '');
    expect(codeBox()).toHaveProperty('value', '');
    expect(codeBox()).toHaveProperty('disabled', true);
    expect(getRatesButton()).toHaveProperty('disabled', true);
  });

  it('asks the server for codes only from 3 characters and says what is going on', async () => {
    const fetchMock = stubSearchApi();
    signInAs('user');
    renderHome();
    await choose('State', 'Alaska (AK)');
    await choose('Metro Area', 'Anchorage, AK');
    await waitFor(() => expect(codeBox()).toHaveProperty('disabled', false));

    fireEvent.focus(codeBox());
    expect(codeBoxStatus()).toBe(SEARCH_MESSAGES.codeSearchEmpty);
    fireEvent.change(codeBox(), { target: { value: '70' } });
    expect(codeBoxStatus()).toBe(SEARCH_MESSAGES.codeSearchEmpty);

    fireEvent.change(codeBox(), { target: { value: '705' } });
    expect(codeBoxStatus()).toBe(SEARCH_MESSAGES.searching);
    await screen.findByRole('option', { name: /^\(70551\)/, hidden: true });
    expect(optionsOf(codeBox())).toEqual([
      '(70551) MRI of the brain, no contrast',
      '(70553) MRI of the brain, before and after contrast',
    ]);
    expect(codeBoxStatus()).toBe('2 codes found');

    fireEvent.change(codeBox(), { target: { value: '999' } });
    await waitFor(() => expect(codeBoxStatus()).toBe(SEARCH_MESSAGES.nothingFound));

    const queries = callsTo(fetchMock, '/api/OobRates/GetCodeDescriptionbyMSA').map(
      ({ url }) => JSON.parse(url.searchParams.get('FilterJson') ?? '{}') as unknown,
    );
    expect(queries).toEqual([
      { stateCode: 'AK', msaId: '11260', msaName: 'Anchorage, AK', queryText: '705' },
      { stateCode: 'AK', msaId: '11260', msaName: 'Anchorage, AK', queryText: '999' },
    ]);
  });

  it('waits 100 ms after the last key before asking the server', async () => {
    const fetchMock = stubSearchApi();
    signInAs('user');
    renderHome();
    await choose('State', 'Alaska (AK)');
    await choose('Metro Area', 'Anchorage, AK');
    await waitFor(() => expect(codeBox()).toHaveProperty('disabled', false));

    fireEvent.focus(codeBox());
    for (const text of ['705', '7055', '70551']) {
      fireEvent.change(codeBox(), { target: { value: text } });
    }
    await screen.findByRole('option', { name: /^\(70551\)/, hidden: true });

    const texts = callsTo(fetchMock, '/api/OobRates/GetCodeDescriptionbyMSA').map(
      ({ url }) =>
        (JSON.parse(url.searchParams.get('FilterJson') ?? '{}') as { queryText: string }).queryText,
    );
    expect(texts).toEqual(['70551']);
  });

  it('asks a consumer for family status and YTD spend, then opens the custom results', async () => {
    stubSearchApi();
    signInAs('user');
    renderHome();
    await fillSearch();
    await waitFor(() => expect(getRatesButton()).toHaveProperty('disabled', false));

    fireEvent.click(getRatesButton());
    const dialog = await screen.findByRole('dialog', { name: 'Your coverage' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get Rates' }));
    expect(await within(dialog).findByText('Please choose Single or Family.')).toBeTruthy();
    expect(within(dialog).getByText('Please enter your YTD medical spend.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('radio', { name: 'Family' }));
    fireEvent.change(within(dialog).getByLabelText(/YTD medical spend/), {
      target: { value: '12a' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get Rates' }));
    expect(
      await within(dialog).findByText('YTD medical spend must be digits only (whole dollars).'),
    ).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/YTD medical spend/), {
      target: { value: '500' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Get Rates' }));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/ooprates'));
    expect(loadSearch('custom', 'ann@example.com')).toMatchObject({
      code: '70551',
      stateCode: 'AK',
      msaID: '11260',
      paymentMethod: 'Outpatient',
      lives: 2,
      accumulator: 500,
    });
  });

  it('takes the keyboard to the family status when it is missing, its error read with it', async () => {
    stubSearchApi();
    signInAs('user');
    renderHome();
    await fillSearch();
    await waitFor(() => expect(getRatesButton()).toHaveProperty('disabled', false));
    fireEvent.click(getRatesButton());
    const dialog = await screen.findByRole('dialog', { name: 'Your coverage' });
    fireEvent.change(within(dialog).getByLabelText(/YTD medical spend/), {
      target: { value: '500' },
    });

    fireEvent.click(within(dialog).getByRole('button', { name: 'Get Rates' }));

    const error = await within(dialog).findByText('Please choose Single or Family.');
    const single = within(dialog).getByRole('radio', { name: 'Single' });
    await waitFor(() => expect(document.activeElement).toBe(single));
    const group = within(dialog).getByRole('radiogroup', { name: /Family status/ });
    expect(group.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
  });

  it('sends an employer member straight to the standard results', async () => {
    stubSearchApi({
      '/api/OobRates/getoobratesEmployersAccess': jsonResponse(200, [{ API: 'yes' }]),
    });
    signInAs('user');
    renderHome();
    await fillSearch();
    await waitFor(() => expect(getRatesButton()).toHaveProperty('disabled', false));

    fireEvent.click(getRatesButton());

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/ooprates'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(loadSearch('standard', 'ann@example.com')?.code).toBe('70551');
  });

  it('downloads the spreadsheet for an individual subscription, then counts the search', async () => {
    let finishExport: (response: Response) => void = () => undefined;
    const exported = new Promise<Response>((resolve) => {
      finishExport = resolve;
    });
    const fetchMock = stubSearchApi({
      '/api/OobRates/getReportType': jsonResponse(200, [
        { ...ENTITLED, individualSubscription: true, individualSubscriptionCount: 3 },
      ]),
      '/api/OobRates/exportOobData': () => exported,
      '/api/OobRates/logIndvsubscount': jsonResponse(200, {
        isSuccess: true,
        message: '',
        remaningSearchCount: 2,
      }),
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:rates');
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    signInAs('user');
    renderHome();
    await fillSearch();
    await waitFor(() => expect(getRatesButton()).toHaveProperty('disabled', false));

    fireEvent.click(getRatesButton());
    expect(await screen.findByRole('button', { name: 'Downloading...' })).toBeTruthy();
    finishExport(
      new Response('PK', {
        status: 200,
        headers: { 'Content-Disposition': 'attachment; filename="Alaska.xlsx"' },
      }),
    );

    await waitFor(() =>
      expect(callsTo(fetchMock, '/api/OobRates/logIndvsubscount')).toHaveLength(1),
    );
    const [exportCall] = callsTo(fetchMock, '/api/OobRates/exportOobData');
    expect(JSON.parse(exportCall?.url.searchParams.get('oobinput') ?? '{}')).toMatchObject({
      code: '70551',
      paymentMethod: 'OUTPATIENT',
      msaID: '11260',
    });
    expect(saved).toEqual(['Alaska.xlsx']);
    expect(screen.getByTestId('location').textContent).toBe('/');
    await waitFor(() => expect(callsTo(fetchMock, '/api/OobRates/getReportType')).toHaveLength(2));
  });

  it("says as an alert that a state's metro areas could not be loaded, and loads them again", async () => {
    let msas = () => jsonResponse(503, { message: 'The database is not answering.' });
    stubSearchApi({ '/api/Subscription/getmsafilter': () => msas() });
    signInAs('user');
    renderHome();

    await choose('State', 'Alaska (AK)');
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_LOADED.msas);
    msas = () => jsonResponse(200, ALASKA_MSAS);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await choose('Metro Area', 'Anchorage, AK');
    await waitFor(() => expect(codeBox()).toHaveProperty('disabled', false));
  });

  it('says as an alert that the states and billing classes could not be loaded', async () => {
    const failure = () => jsonResponse(503, { message: 'The database is not answering.' });
    stubSearchApi({
      '/api/OobRates/getoobratesStatewiseUserAccess': failure,
      '/api/OobRates/getoobratesSetting': failure,
    });
    signInAs('user');
    renderHome();

    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        NOT_LOADED.states + NOT_LOADED.billingClasses,
      ),
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('shows the next eligible date to a user who may not search now', async () => {
    stubSearchApi({
      '/api/OobRates/getReportType': jsonResponse(200, [
        { ...ENTITLED, searching_Status: 0, next_Search_Date: '2026-05-03T12:00:00Z' },
      ]),
    });
    signInAs('user');
    renderHome();

    expect(await screen.findByText('Your next eligible search begins on May 3, 2026')).toBeTruthy();
    expect(field('State')).toHaveProperty('disabled', true);
  });
});
