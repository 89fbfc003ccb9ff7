// @vitest-environment jsdom
import type { InventoryRow, MsaItem, StateItem } from '@ratelens/core';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  createMemoryRouter,
  Route,
  RouterProvider,
  Routes,
  useLocation,
  type InitialEntry,
  type RouteObject,
} from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { theme } from '../app/theme.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import {
  InventoryListRoute,
  NO_FILES_MESSAGE,
  NO_MATCH_MESSAGE,
  noFilesInStateMessage,
} from './inventory-list.tsx';
import { NOT_LOADED } from '../shared/lists-not-loaded.tsx';
import { TestResizeObserver } from '../test/resize-observer.ts';

const PROVIDENCE = '7f0c2a52-3f7e-4b55-9d1e-2a4d6b8e9c01';
const ALASKA_NATIVE = '1b9e6c3d-8a2f-4e7b-b5c6-0d1e2f3a4b5c';
const UAB = '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const STATES: StateItem[] = [
  { stateID: 2, stateName: 'Alaska', stateCode: 'AK' },
  { stateID: 1, stateName: 'Alabama', stateCode: 'AL' },
  { stateID: 4, stateName: 'Arizona', stateCode: 'AZ' },
];
const ALASKA_MSAS: MsaItem[] = [{ msaID: '11260', MSA: 'Anchorage, AK', TableName: '11260' }];

function row(overrides: Partial<InventoryRow> & Pick<InventoryRow, 'hospitalID'>): InventoryRow {
  return {
    stateName: 'Alaska',
    msaName: 'Anchorage, AK',
    careCenter: 'Short Term Acute Care',
    facilityName: 'Hospital',
    hasFiles: true,
    cashRates: true,
    commercialRates: true,
    medicareRates: false,
    inpatient: true,
    outpatient: true,
    drugs: false,
    ...overrides,
  };
}

/** `count` hospitals named Hospital 1, Hospital 2…, in Anchorage unless `rest` says otherwise. */
function numbered(count: number, rest: (i: number) => Partial<InventoryRow> = () => ({})) {
  return Array.from({ length: count }, (_, i) =>
    row({
      hospitalID: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      facilityName: `Hospital ${i + 1}`,
      ...rest(i),
    }),
  );
}

const LISTING: InventoryRow[] = [
  row({ hospitalID: UAB, stateName: 'Alabama', msaName: 'Birmingham, AL', facilityName: 'UAB' }),
  row({ hospitalID: ALASKA_NATIVE, facilityName: 'Alaska Native Medical Center' }),
  row({ hospitalID: PROVIDENCE, facilityName: 'Providence Alaska Medical Center' }),
];

/** A stand-in API: each call answers from `answers` by its path, else 404. */
function stubApi(
  answers: {
    listing?: Response | (() => Response);
    states?: () => Response;
    msas?: () => Response;
  } = {},
) {
  const fetchMock = vi.fn((input: string) => {
    const url = new URL(input, 'http://localhost');
    const answer = (() => {
      switch (url.pathname) {
        case '/api/master/getallstates':
          return answers.states?.() ?? jsonResponse(200, STATES);
        // The inventory's call by state name (search-and-accounts §7), not the search's by code.
        case '/api/inventory/getmsabystatename':
          return (
            answers.msas?.() ??
            jsonResponse(200, url.searchParams.get('state') === 'Alaska' ? ALASKA_MSAS : [])
          );
        case '/api/Inventory/getHospitalbyFilter':
          return jsonResponse(200, [
            { hospitalID: ALASKA_NATIVE, facilityName: 'Alaska Native Medical Center' },
            { hospitalID: PROVIDENCE, facilityName: 'Providence Alaska Medical Center' },
          ]);
        case '/api/Inventory/InventoryListings': {
          const listing = answers.listing ?? jsonResponse(200, LISTING);
          return typeof listing === 'function' ? listing() : listing;
        }
        default:
          return jsonResponse(404, { message: 'Not found.' });
      }
    })();
    return Promise.resolve(answer);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function LocationProbe() {
  const { search } = useLocation();
  return <output data-testid="search">{search}</output>;
}

function renderInventory(route: InitialEntry = '/inventoryList') {
  renderWithProviders(
    <Routes>
      <Route
        path="/inventoryList"
        element={
          <>
            <InventoryListRoute />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { route },
  );
}

/**
 * The list and a hospital's page in a data router, as in the app (router.tsx), whose navigations
 * settle asynchronously; `hospital`, how the hospital's route is given (by default, at once).
 */
function renderInventoryAndHospital(
  route: string,
  hospital: Pick<RouteObject, 'element' | 'lazy'> = {
    element: <output data-testid="hospital">Hospital</output>,
  },
) {
  const router = createMemoryRouter(
    [
      { path: '/inventoryList', element: <InventoryListRoute /> },
      { path: '/inventoryList/:hospitalId', ...hospital },
    ],
    { initialEntries: [route] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

/** The wide layout's table (jsdom applies no media queries, so the cards are there too). */
const table = () => within(screen.getByRole('region', { name: 'Hospitals' }));
/** The narrow layout's cards. */
const cards = () => within(screen.getByRole('list', { name: 'Hospitals' }));

/** An element's text without what is hidden from screen readers (the marks for the eye). */
function spoken(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent ?? '';
}

function facilityNames(): string[] {
  const table = screen.getByRole('table');
  const [, ...bodyRows] = within(table).getAllByRole('row');
  // The facility's name is each row's header.
  return bodyRows.map((tableRow) => within(tableRow).getByRole('rowheader').textContent ?? '');
}

async function choose(label: string, option: string) {
  fireEvent.click(screen.getByRole('combobox', { name: label }));
  // In jsdom the dropdown stays display: none, so its options are found among hidden elements.
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  TestResizeObserver.all = [];
});

describe('InventoryListRoute', () => {
  it('shows every hospital of the listing under the 11 columns of the spec', async () => {
    stubApi();
    renderInventory();

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'State Name',
      'MSA Name',
      'Care Center',
      'Facility Name',
      'Has Files',
      'Cash Rates',
      'Commercial Rates',
      'Medicare Rates',
      'Inpatient',
      'Outpatient',
      'Drugs',
    ]);
    expect(facilityNames()).toEqual([
      'UAB',
      'Alaska Native Medical Center',
      'Providence Alaska Medical Center',
    ]);
    expect(screen.getByText('3 hospitals')).toBeTruthy();
    const uab = within(table).getAllByRole('row')[1];
    if (!uab) throw new Error('no first row');
    // Booleans are words for screen readers, not a colour: Cash Rates yes, Medicare Rates no.
    const [, , , , cash, , medicare] = within(uab).getAllByRole('cell');
    if (!cash || !medicare) throw new Error('missing cells');
    expect(within(cash).getByText('Yes')).toBeTruthy();
    expect(within(medicare).getByText('No')).toBeTruthy();
    expect(within(uab).getByRole('link', { name: 'UAB' }).getAttribute('href')).toBe(
      `/inventoryList/${UAB}`,
    );
  });

  it("makes the table's region a stop for the Tab key only while the table is wider than it", async () => {
    vi.stubGlobal('ResizeObserver', TestResizeObserver);
    stubApi();
    renderInventory();
    await screen.findByRole('table');

    // Named either way; focusable only when the arrow keys have something to scroll.
    const region = screen.getByRole('region', { name: 'Hospitals' });
    expect(region.hasAttribute('tabindex')).toBe(false);
    TestResizeObserver.resize(region, { scrollWidth: 1040, clientWidth: 900 });
    expect(region.getAttribute('tabindex')).toBe('0');
    // The window widened: the table fits again.
    TestResizeObserver.resize(region, { scrollWidth: 1200, clientWidth: 1200 });
    expect(region.hasAttribute('tabindex')).toBe(false);
    expect(screen.getByRole('region', { name: 'Hospitals' })).toBe(region);
  });

  it('keeps the header row in view while the rows scroll, in the page or in the region', async () => {
    vi.stubGlobal('ResizeObserver', TestResizeObserver);
    stubApi();
    renderInventory();
    const table = await screen.findByRole('table');

    // The header row is sticky (e2e/inventory.spec.ts scrolls it in a browser).
    const [head] = within(table).getAllByRole('rowgroup');
    expect(head?.tagName).toBe('THEAD');
    expect(head?.hasAttribute('data-sticky')).toBe(true);
    // A table that fits leaves the page to scroll it, so the header row sticks to the window;
    // one wider than its region scrolls in it, both ways, the header row stuck to its top.
    const region = screen.getByRole('region', { name: 'Hospitals' });
    expect(region.hasAttribute('data-scrolls')).toBe(false);
    TestResizeObserver.resize(region, { scrollWidth: 1040, clientWidth: 900 });
    expect(region.hasAttribute('data-scrolls')).toBe(true);
    // Wide enough again: its rows overflowing the height it had do not keep it scrolling.
    TestResizeObserver.resize(region, {
      scrollWidth: 1200,
      clientWidth: 1200,
      scrollHeight: 2000,
      clientHeight: 700,
    });
    expect(region.hasAttribute('data-scrolls')).toBe(false);
  });

  it('gives each hospital of the page a card for narrow screens, its name first', async () => {
    // Hospital 52 has one site, named as the hospital is.
    const many = numbered(60, (i) => (i === 51 ? { careCenter: 'Hospital 52' } : {}));
    stubApi({ listing: jsonResponse(200, many) });
    renderInventory('/inventoryList?page=2');
    await screen.findByText('60 hospitals, showing 51–60');

    // Each card is an item of the list; the rate types are a list inside it.
    const list = screen.getByRole('list', { name: 'Hospitals' });
    const hospitals = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(hospitals).toHaveLength(10);
    const [first, second] = hospitals;
    if (!first || !second) throw new Error('missing cards');
    // The way in comes first, then where the hospital is.
    const link = within(first).getByRole('link', { name: 'Hospital 51' });
    expect(first.textContent?.startsWith('Hospital 51')).toBe(true);
    expect(link.getAttribute('href')).toBe(`/inventoryList/${many[50]?.hospitalID}?page=2`);
    // Where it is, under the table's column names.
    expect(within(first).getByText('State Name: Alaska')).toBeTruthy();
    expect(within(first).getByText('MSA Name: Anchorage, AK')).toBeTruthy();
    expect(within(first).getByText('Care Center: Short Term Acute Care')).toBeTruthy();
    // The seven rate types, each a word for screen readers as well as a mark for the eye.
    const publishes = within(first).getByRole('list', { name: 'What Hospital 51 publishes' });
    expect(within(publishes).getAllByRole('listitem').map(spoken)).toEqual([
      'Has Files: Yes',
      'Cash Rates: Yes',
      'Commercial Rates: Yes',
      'Medicare Rates: No',
      'Inpatient: Yes',
      'Outpatient: Yes',
      'Drugs: No',
    ]);
    // For the eye, what it lacks is struck through, not only marked with a dash.
    const medicare = within(publishes).getByText('Medicare Rates');
    expect(getComputedStyle(medicare).textDecoration).toContain('line-through');
    expect(
      getComputedStyle(within(publishes).getByText('Cash Rates')).textDecoration,
    ).not.toContain('line-through');
    // A care center named as the hospital is still said, as the table's column says it.
    expect(within(second).getByText('Care Center: Hospital 52')).toBeTruthy();
  });

  it("puts the focus on the hospital's link, back from its page, and keeps the filters", async () => {
    stubApi();
    renderInventory({
      pathname: '/inventoryList',
      search: '?state=AK',
      state: { hospitalId: PROVIDENCE },
    });

    await screen.findByRole('table');
    const link = table().getByRole('link', { name: 'Providence Alaska Medical Center' });
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(screen.getByText('2 hospitals')).toBeTruthy();
    expect(screen.getByTestId('search').textContent).toBe('?state=AK');
    cleanup();

    // Come any other way, the list leaves the focus alone.
    stubApi();
    renderInventory('/inventoryList?state=AK');
    await screen.findByText('2 hospitals');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(document.body);
  });

  it("puts the focus on the hospital's link when the browser goes back from its page", async () => {
    stubApi();
    const router = renderInventoryAndHospital('/inventoryList?state=AK');
    await screen.findByRole('table');

    fireEvent.click(table().getByRole('link', { name: 'Providence Alaska Medical Center' }));
    await screen.findByTestId('hospital');
    await act(() => router.navigate(-1));

    await screen.findByRole('table');
    const link = table().getByRole('link', { name: 'Providence Alaska Medical Center' });
    await waitFor(() => expect(document.activeElement).toBe(link));
    expect(router.state.location.search).toBe('?state=AK');
    expect(screen.getByText('2 hospitals')).toBeTruthy();
  });

  it("leaves the focus alone while the hospital's page it opens is still loading", async () => {
    stubApi();
    // The hospital's page is loaded on first use: here it never arrives.
    const router = renderInventoryAndHospital('/inventoryList?state=AK', {
      lazy: () => new Promise(() => undefined),
    });
    await screen.findByRole('table');

    fireEvent.click(table().getByRole('link', { name: 'Providence Alaska Medical Center' }));

    // The list's own entry says which hospital it left for, and the list is still shown.
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    expect(router.state.location.state).toEqual({ hospitalId: PROVIDENCE });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(document.body);
  });

  it('narrows the rows to the chosen state and puts it in the query string', async () => {
    stubApi();
    renderInventory();
    await screen.findByRole('table');

    await choose('State Name', 'Alaska (AK)');

    await waitFor(() => expect(screen.getByText('2 hospitals')).toBeTruthy());
    expect(facilityNames()).toEqual([
      'Alaska Native Medical Center',
      'Providence Alaska Medical Center',
    ]);
    expect(screen.getByTestId('search').textContent).toBe('?state=AK');
  });

  it('keeps the MSA select disabled until a state is chosen', async () => {
    stubApi();
    renderInventory();
    await screen.findByRole('table');
    const msa = screen.getByRole('combobox', { name: 'MSA' });
    expect(msa).toHaveProperty('disabled', true);

    await choose('State Name', 'Alaska (AK)');

    await waitFor(() => expect(msa).toHaveProperty('disabled', false));
  });

  it('restores every filter from the query string of a shared link', async () => {
    stubApi();
    renderInventory(`/inventoryList?state=AK&msa=11260&hospital=${PROVIDENCE}`);

    await waitFor(() => expect(screen.getByText('1 hospital')).toBeTruthy());
    expect(facilityNames()).toEqual(['Providence Alaska Medical Center']);
    // A select writes its option's label into its field a render after the options arrive.
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'MSA' })).toHaveProperty(
        'value',
        'Anchorage, AK',
      ),
    );
    expect(screen.getByRole('combobox', { name: 'State Name' })).toHaveProperty(
      'value',
      'Alaska (AK)',
    );
    // The link to the detail view carries the filters, for its way back.
    for (const layout of [table(), cards()]) {
      expect(
        layout.getByRole('link', { name: 'Providence Alaska Medical Center' }).getAttribute('href'),
      ).toBe(`/inventoryList/${PROVIDENCE}?state=AK&msa=11260&hospital=${PROVIDENCE}`);
    }
  });

  it('reads a hospital id written in capitals in a shared link as the hospital it names', async () => {
    stubApi();
    renderInventory(`/inventoryList?state=AK&msa=11260&hospital=${PROVIDENCE.toUpperCase()}`);

    await waitFor(() => expect(screen.getByText('1 hospital')).toBeTruthy());
    expect(facilityNames()).toEqual(['Providence Alaska Medical Center']);
  });

  it('reads a lower-case state code in a shared link as the state it names', async () => {
    stubApi();
    renderInventory('/inventoryList?state=ak');

    await waitFor(() => expect(screen.getByText('2 hospitals')).toBeTruthy());
    expect(facilityNames()).toEqual([
      'Alaska Native Medical Center',
      'Providence Alaska Medical Center',
    ]);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'State Name' })).toHaveProperty(
        'value',
        'Alaska (AK)',
      ),
    );
    expect(screen.getByRole('combobox', { name: 'MSA' })).toHaveProperty('disabled', false);
  });

  it.each([
    ['Clear state', 'State Name', '', '3 hospitals'],
    ['Clear MSA', 'MSA', '?state=AK', '2 hospitals'],
    ['Clear hospital', 'Hospital', '?state=AK&msa=11260', '2 hospitals'],
  ])(
    'gives the keyboard "%s", a named button that clears the filter',
    async (name, field, after, count) => {
      stubApi();
      renderInventory(`/inventoryList?state=AK&msa=11260&hospital=${PROVIDENCE}`);
      await waitFor(() => expect(screen.getByText('1 hospital')).toBeTruthy());

      // Found by role and name, so not hidden from screen readers; a stop for the Tab key.
      const clear = screen.getByRole('button', { name });
      expect(clear.tagName).toBe('BUTTON');
      expect(clear.tabIndex).toBe(0);
      clear.focus();
      expect(document.activeElement).toBe(clear);
      // Enter or Space on a focused button is a click in a browser; jsdom does not make that
      // click, so the test does (e2e/inventory.spec.ts presses the key itself).
      fireEvent.click(clear);

      await waitFor(() => expect(screen.getByTestId('search').textContent).toBe(after));
      expect(screen.getByText(count)).toBeTruthy();
      expect(screen.queryByRole('button', { name })).toBeNull();
      // The button left with the value: the focus is on its field, not lost to the page.
      expect(document.activeElement).toBe(screen.getByRole('combobox', { name: field }));
    },
  );

  // Fifty hospitals drawn twice (table and cards), page after page: 3–7 s in jsdom on two cores.
  it(
    'shows a long listing 50 rows at a time, the page in the query string',
    { timeout: 15_000 },
    async () => {
      // 120 hospitals: two states, so that choosing one goes back to the first page.
      const many = numbered(120, (i) =>
        i >= 100 ? { stateName: 'Alabama', msaName: 'Birmingham, AL' } : {},
      );
      stubApi({ listing: jsonResponse(200, many) });
      renderInventory();
      await screen.findByRole('table');

      expect(screen.getByText('120 hospitals, showing 1–50')).toBeTruthy();
      expect(facilityNames()).toHaveLength(50);
      expect(facilityNames()[0]).toBe('Hospital 1');
      const pages = screen.getByRole('navigation', { name: 'Pages of hospitals' });
      expect(
        within(pages).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current'),
      ).toBe('page');
      expect(within(pages).getByRole('button', { name: 'Previous page' })).toHaveProperty(
        'disabled',
        true,
      );

      fireEvent.click(within(pages).getByRole('button', { name: 'Page 3' }));

      await waitFor(() => expect(screen.getByText('120 hospitals, showing 101–120')).toBeTruthy());
      expect(facilityNames()).toEqual(many.slice(100).map((item) => item.facilityName));
      expect(screen.getByTestId('search').textContent).toBe('?page=3');
      // The new rows start above the controls: the keyboard goes back to the count.
      expect(document.activeElement).toBe(screen.getByText('120 hospitals, showing 101–120'));
      expect(within(pages).getByRole('button', { name: 'Next page' })).toHaveProperty(
        'disabled',
        true,
      );
      // The detail view's "Back to the inventory" returns to this page.
      expect(table().getByRole('link', { name: 'Hospital 101' }).getAttribute('href')).toBe(
        `/inventoryList/${many[100]?.hospitalID}?page=3`,
      );

      fireEvent.click(within(pages).getByRole('button', { name: 'Previous page' }));
      await waitFor(() => expect(screen.getByText('120 hospitals, showing 51–100')).toBeTruthy());
      expect(screen.getByTestId('search').textContent).toBe('?page=2');

      await choose('State Name', 'Alaska (AK)');

      await waitFor(() => expect(screen.getByText('100 hospitals, showing 1–50')).toBeTruthy());
      expect(screen.getByTestId('search').textContent).toBe('?state=AK');
    },
  );

  it('opens a shared link at its page, and shows no page controls for one page', async () => {
    const many = numbered(60);
    stubApi({ listing: jsonResponse(200, many) });
    renderInventory('/inventoryList?page=2');

    expect(await screen.findByText('60 hospitals, showing 51–60')).toBeTruthy();
    expect(facilityNames()[0]).toBe('Hospital 51');
    cleanup();

    stubApi();
    renderInventory('/inventoryList?page=2');
    expect(await screen.findByText('3 hospitals')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Pages of hospitals' })).toBeNull();
  });

  it('says when a state has no hospital files yet, and when no hospital matches the filters', async () => {
    stubApi();
    renderInventory('/inventoryList?state=AZ');
    expect(
      await screen.findByText('No hospital files have been loaded for Arizona yet.'),
    ).toBeTruthy();
    expect(noFilesInStateMessage('Arizona')).toBe(
      'No hospital files have been loaded for Arizona yet.',
    );
    expect(screen.queryByRole('table')).toBeNull();
    cleanup();

    // Alaska has files; none of them is in the metro area chosen.
    stubApi({
      listing: jsonResponse(200, [
        row({ hospitalID: PROVIDENCE, msaName: 'Fairbanks-College, AK', facilityName: 'P' }),
      ]),
    });
    renderInventory('/inventoryList?state=AK&msa=11260');
    expect(await screen.findByText(NO_MATCH_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it.each([
    [
      '?state=ZZ&msa=11260',
      'The link\'s state "ZZ" is not one we know, so every state is shown.',
      ['UAB', 'Alaska Native Medical Center', 'Providence Alaska Medical Center'],
    ],
    [
      '?msa=11260',
      'The link names a metro area but no state, so every state is shown.',
      ['UAB', 'Alaska Native Medical Center', 'Providence Alaska Medical Center'],
    ],
    [
      `?hospital=${PROVIDENCE}`,
      'The link names a hospital but no state, so every state is shown.',
      ['UAB', 'Alaska Native Medical Center', 'Providence Alaska Medical Center'],
    ],
    [
      `?state=AK&hospital=${PROVIDENCE}`,
      'The link names a hospital but no metro area, so all of Alaska is shown.',
      ['Alaska Native Medical Center', 'Providence Alaska Medical Center'],
    ],
    [
      '?state=AK&msa=99999',
      'The link\'s metro area "99999" has no hospitals in Alaska, so all of Alaska is shown.',
      ['Alaska Native Medical Center', 'Providence Alaska Medical Center'],
    ],
    [
      '?state=AK&msa=11260&hospital=00000000-0000-4000-8000-000000000000',
      "The link's hospital is not in Anchorage, AK, so every hospital there is shown.",
      ['Alaska Native Medical Center', 'Providence Alaska Medical Center'],
    ],
  ])(
    'says what of a shared link %s names nothing, and shows the rest',
    async (query, notice, names) => {
      stubApi();
      renderInventory(`/inventoryList${query}`);
      await waitFor(() => expect(screen.getByText(notice)).toBeTruthy());
      await waitFor(() => expect(facilityNames()).toEqual(names));
    },
  );

  it('gives no notice for a shared link whose every filter names an option', async () => {
    stubApi();
    renderInventory(`/inventoryList?state=AK&msa=11260&hospital=${PROVIDENCE}`);
    await waitFor(() => expect(screen.getByText('1 hospital')).toBeTruthy());
    expect(screen.queryByText(/^The link/)).toBeNull();
  });

  it('says when no hospital file has been loaded at all', async () => {
    stubApi({ listing: jsonResponse(200, []) });
    renderInventory();

    expect(await screen.findByText(NO_FILES_MESSAGE)).toBeTruthy();
  });

  it('says as an alert that the states could not be loaded, and loads them again on Try again', async () => {
    let states = () => jsonResponse(503, { message: 'The database is not answering.' });
    stubApi({ states: () => states() });
    renderInventory();

    // The table needs no state: it is shown, and the failed list is said as an alert.
    await screen.findByRole('table');
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_LOADED.states);
    states = () => jsonResponse(200, STATES);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await choose('State Name', 'Alaska (AK)');
    expect(await screen.findByText('2 hospitals')).toBeTruthy();
  });

  it("says as an alert that a state's metro areas could not be loaded, with a way to ask again", async () => {
    let msas = () => jsonResponse(503, { message: 'The database is not answering.' });
    stubApi({ msas: () => msas() });
    renderInventory();
    await screen.findByRole('table');

    await choose('State Name', 'Alaska (AK)');
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_LOADED.msas);
    msas = () => jsonResponse(200, ALASKA_MSAS);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await choose('MSA', 'Anchorage, AK');
    await waitFor(() =>
      expect(screen.getByTestId('search').textContent).toBe('?state=AK&msa=11260'),
    );
  });

  it('shows the error and loads again on Try again', async () => {
    let answer = jsonResponse(503, { message: 'The inventory is not available right now.' });
    stubApi({ listing: () => answer });
    renderInventory();

    expect((await screen.findByRole('alert')).textContent).toContain(
      'The inventory is not available right now.',
    );
    answer = jsonResponse(200, LISTING);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('3 hospitals')).toBeTruthy();
  });
});
