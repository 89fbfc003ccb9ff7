// @vitest-environment jsdom
import type { HospitalDetail } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { clearSession } from '../features/auth/session.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { signInAs } from '../test/sign-in.ts';
import { inTimeZone } from '../test/time-zone.ts';
import { hospitalFile, type HospitalFile } from '../test/hospital-fixtures.ts';
import { LABELS_SAVED } from '../features/admin/hospital-labels-form.tsx';
import {
  REFRESH_ALREADY_ASKED,
  REFRESH_ASKED,
  REFRESH_CHECKING,
  REFRESH_DONE,
  REFRESH_NOT_TAKEN,
  REFRESH_READING,
} from '../features/admin/hospital-refresh.tsx';
import {
  EARLIER_RUN_FIGURES,
  FOLDED_SHOWN,
  HOSPITAL_NOT_FOUND_MESSAGE,
  HospitalDetailRoute,
  NO_PROBLEMS_MESSAGE,
  NOT_AN_NPI,
  STALE_DETAIL_MESSAGE,
  VALIDATION_KEY,
} from './hospital-detail.tsx';

const HOSPITAL_ID = '7f0c2a52-3f7e-4b55-9d1e-2a4d6b8e9c01';

const RULES: HospitalFile['validation'] = [
  { sentence: '10,452 charges with 29,143 payer rates read; 12 rates rejected.', examples: [] },
  { sentence: 'Error: 12 rates had no payer name, first at item 9', examples: ['item 9'] },
];

const HOSPITAL: HospitalDetail = {
  hospitalID: HOSPITAL_ID,
  facilityName: 'Providence Alaska Medical Center',
  stateName: 'Alaska',
  msaName: 'Anchorage, AK',
  addresses: ['3200 Providence Dr, Anchorage, AK 99508'],
  locations: ['Providence Alaska Medical Center'],
  // The second is a placeholder, which fails the NPI check digit.
  npis: ['1234567893', '0000000001'],
  isDemo: true,
  hospitalType: 'Critical Access Hospitals',
  healthsystemType: null,
  files: [
    hospitalFile({
      source: '920123456_providence_standardcharges.json',
      rateMix: {
        payers: 3,
        plans: 7,
        byLineOfBusiness: {
          commercial: 20_000,
          'medicare-advantage': 9_000,
          'medicaid-managed-care': 0,
          exchange: 0,
          other: 143,
        },
        byOrigin: {
          dollar: 28_000,
          'percentage-of-gross': 1_000,
          median: 0,
          estimated: 0,
          none: 143,
        },
      },
    }),
    hospitalFile({
      source: '920123456_providence_standardcharges.csv',
      sourceUrl: 'https://providence.example/mrf/920123456_providence_standardcharges.csv',
      sourcePageUrl: 'https://providence.example/price-transparency',
      contactName: 'Jane Doe',
      contactEmail: 'prices@providence.example',
      listedInUrl: 'https://providence.example/cms-hpt.txt',
      status: 'replaced',
      replacedBy: 'newer',
      format: 'csv-tall',
      version: '2.2.1',
      lastUpdatedOn: '2026-01-05',
      validation: [
        { sentence: '40 charges with 120 payer rates read; 12 rates rejected.', examples: [] },
        {
          sentence: 'Error: 12 rates had no payer name, first at row 9',
          examples: ['row 9', 'row 14: plan_name "PPO"'],
        },
      ],
    }),
    hospitalFile({
      source: 'broken.csv',
      status: 'failed',
      format: null,
      version: null,
      lastUpdatedOn: null,
      items: 0,
      rates: 0,
      rejected: 0,
      error: 'The file has no header row.',
    }),
  ],
};

/** Where "Back to the inventory" led: the list's query string and the router's state. */
function ListProbe() {
  const location = useLocation();
  const state: unknown = location.state;
  return <output data-testid="list">{`${location.search} ${JSON.stringify(state)}`}</output>;
}

function renderDetail(route: string, answer: Response) {
  vi.stubGlobal('fetch', () => Promise.resolve(answer));
  renderWithProviders(
    <Routes>
      <Route path="/inventoryList/:hospitalId" element={<HospitalDetailRoute />} />
      <Route path="/inventoryList" element={<ListProbe />} />
    </Routes>,
    { route },
  );
}

/** The card of the file whose name is the card's heading. */
async function fileCard(name: string): Promise<HTMLElement> {
  const [card, ...others] = await fileCards(name);
  if (!card || others.length > 0) throw new Error(`not one card for ${name}`);
  return card;
}

/** The cards of every run of the file whose name is their heading, newest first. */
async function fileCards(name: string): Promise<HTMLElement[]> {
  const headings = await screen.findAllByRole('heading', { name, level: 3 });
  return headings.map((heading) => {
    const card = heading.closest<HTMLElement>('.mantine-Card-root');
    if (!card) throw new Error(`no card for ${name}`);
    return card;
  });
}

/**
 * An operator's walkthrough: one file read, read again (nothing changed), then read again with
 * --reload, which put it in use in place of its first run; and a file still loading.
 */
const READ_AGAIN: HospitalDetail = {
  ...HOSPITAL,
  files: [
    hospitalFile({ source: 'later.json', status: 'loading', loadedAt: null, items: 0, rates: 0 }),
    hospitalFile({
      source: 'charges.json',
      loadedAt: '2026-03-27T17:42:10.000Z',
      validation: RULES,
    }),
    hospitalFile({
      source: 'charges.json',
      status: 'unchanged',
      loadedAt: '2026-03-27T17:38:00.000Z',
      validation: RULES,
    }),
    hospitalFile({
      source: 'charges-cut.json',
      status: 'failed',
      loadedAt: '2026-03-27T17:35:00.000Z',
      error: 'The JSON file ends before it is complete.',
    }),
    hospitalFile({
      source: 'charges.json',
      status: 'replaced',
      replacedBy: 'same-file',
      loadedAt: '2026-03-27T17:31:00.000Z',
      validation: RULES,
    }),
  ],
};

// West of UTC, where reading '2026-03-27' as an instant would show March 26.
inTimeZone('America/Los_Angeles');
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('HospitalDetailRoute', () => {
  it('names the hospital, marks it as demo data and says where it is', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, HOSPITAL));

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Providence Alaska Medical Center' }),
    ).toBeTruthy();
    expect(screen.getByText('Demo data: fictional hospital')).toBeTruthy();
    expect(screen.getByText('Metro area: Anchorage, AK')).toBeTruthy();
    // How fresh its prices are, from the file in use (its date is a day, not moved by the zone).
    expect(
      screen.getByText(
        'Prices from the hospital’s file last updated on March 27, 2026, read on April 1, 2026.',
      ),
    ).toBeTruthy();
    // An NPI that is not one is listed as written, and said to be none.
    const npis = within(screen.getByRole('heading', { name: 'NPIs' }).parentElement!);
    expect(npis.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1234567893',
      `0000000001 ${NOT_AN_NPI}`,
    ]);
    // A label is shown once an admin has set it; the form is for administrators only.
    expect(screen.getByText('Hospital type: Critical Access Hospitals')).toBeTruthy();
    expect(screen.queryByText(/^Health system:/)).toBeNull();
    expect(screen.queryByRole('form', { name: 'Labels (administrators)' })).toBeNull();
  });

  it("describes each file's status, format and counts in plain words", async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, HOSPITAL));

    const current = within(await fileCard('920123456_providence_standardcharges.json'));
    expect(current.getByText('In use')).toBeTruthy();
    expect(current.getByText('Format: JSON')).toBeTruthy();
    expect(current.getByText('CMS template version 3.0.0')).toBeTruthy();
    expect(current.getByText('10,452 charges, 29,143 rates, 12 rejected')).toBeTruthy();
    expect(current.getByText(NO_PROBLEMS_MESSAGE)).toBeTruthy();
    expect(current.queryByText(VALIDATION_KEY)).toBeNull();

    const replaced = within(await fileCard('920123456_providence_standardcharges.csv'));
    expect(replaced.getByText('Replaced by a newer file')).toBeTruthy();
    expect(replaced.getByText('Format: CSV (tall)')).toBeTruthy();
    expect(
      replaced.getByText('40 charges with 120 payer rates read; 12 rates rejected.'),
    ).toBeTruthy();
    // What a warning and an error mean for the rates, once there is one.
    expect(replaced.getByText(VALIDATION_KEY)).toBeTruthy();
    // Each rule's sentence, and where in the file it broke, behind a disclosure.
    const rule = replaced.getByText(/^Error: 12 rates had no payer name/).closest('li');
    expect(rule).not.toBeNull();
    const where = within(rule as HTMLElement);
    expect(where.getByText('Where in the file (2 examples)').closest('summary')).not.toBeNull();
    expect(where.getByText('row 9')).toBeTruthy();
    expect(where.getByText('row 14: plan_name "PPO"')).toBeTruthy();
    expect(replaced.queryAllByText(/^Where in the file/)).toHaveLength(1);
    // Where the hospital publishes it, to check a figure against; a local file has no link.
    const link = replaced.getByRole('link', {
      name: /^https:\/\/providence\.example\/mrf\/\S+\.csv ?\(opens in a new tab\)$/,
    });
    expect(link.getAttribute('href')).toBe(
      'https://providence.example/mrf/920123456_providence_standardcharges.csv',
    );
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    // What the hospital's cms-hpt.txt says of the file: the page that lists it, and whom to ask.
    expect(
      replaced
        .getByRole('link', { name: /^https:\/\/providence\.example\/price-transparency/ })
        .getAttribute('href'),
    ).toBe('https://providence.example/price-transparency');
    // The list it was found in: where newer files of the hospital are looked for.
    const list = replaced.getByText(/^Found in the hospital's list of its price files:/);
    expect(
      within(list).getByRole('link', { name: /^https:\/\/providence\.example\/cms-hpt\.txt/ }),
    ).toBeTruthy();
    const contact = replaced.getByText(
      (_, element) =>
        element?.tagName === 'P' && /^The hospital's contact/.test(element.textContent ?? ''),
    );
    expect(contact.textContent).toBe(
      "The hospital's contact for this file: Jane Doe, prices@providence.example",
    );
    expect(
      replaced.getByRole('link', { name: 'prices@providence.example' }).getAttribute('href'),
    ).toBe('mailto:prices@providence.example');
    expect(current.queryByText(/contact for this file/)).toBeNull();
    expect(current.queryByRole('link')).toBeNull();

    const failed = within(await fileCard('broken.csv'));
    expect(failed.getByText('Failed')).toBeTruthy();
    expect(failed.getByText('Error: The file has no header row.')).toBeTruthy();
    expect(failed.queryByText(NO_PROBLEMS_MESSAGE)).toBeNull();
    expect(failed.queryByText(/0 charges/)).toBeNull();
  });

  it("draws a loaded file's rates by line of business and by the origin of their dollar figure", async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, HOSPITAL));

    const current = within(await fileCard('920123456_providence_standardcharges.json'));
    expect(current.getByText('From 3 payers in 7 plans.')).toBeTruthy();
    // Each part of a file's card is a heading under the file's name, for heading navigation.
    expect(
      current.getAllByRole('heading').map((heading) => `${heading.tagName} ${heading.textContent}`),
    ).toEqual([
      'H3 920123456_providence_standardcharges.json',
      'H4 Rates',
      'H5 By line of business',
      'H5 Where the dollar figure comes from',
      'H4 Validation',
    ]);
    const byLine = current.getByRole('list', { name: 'By line of business' });
    expect(
      within(byLine)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Commercial: 20,000 rates (69%)',
      'Medicare Advantage: 9,000 rates (31%)',
      "Other: original Medicare, workers' comp, auto, TRICARE and the like: 143 rates (<1%)",
    ]);
    const byOrigin = current.getByRole('list', { name: 'Where the dollar figure comes from' });
    expect(
      within(byOrigin)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'A dollar amount: 28,000 rates (96%)',
      'A percentage of the billed charge, worked out in dollars: 1,000 rates (3%)',
      'No dollar figure: an algorithm, or a percentage of a fee schedule or of an unpublished billed charge: 143 rates (<1%)',
    ]);
    expect(
      current.getByText('Rates without a dollar figure are not shown in rate searches.'),
    ).toBeTruthy();
    // A file read before the rates were counted, or not read at all, has no such section.
    const replaced = within(await fileCard('920123456_providence_standardcharges.csv'));
    expect(replaced.queryByText(/^From \d+ payers?/)).toBeNull();
    expect(within(await fileCard('broken.csv')).queryByText('By line of business')).toBeNull();
  });

  it('says when each run finished, to the minute in local time, and nothing of one still loading', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, READ_AGAIN));

    // 17:42 UTC is 10:42 in Los Angeles in March (PDT).
    const runs = (await fileCards('charges.json')).map((card) => within(card));
    expect(runs.map((run) => run.getByText(/^Read on /).textContent)).toEqual([
      'Read on March 27, 2026 at 10:42 AM',
      'Read on March 27, 2026 at 10:38 AM',
      'Read on March 27, 2026 at 10:31 AM',
    ]);
    const loading = within(await fileCard('later.json'));
    expect(loading.getByText('Loading')).toBeTruthy();
    expect(loading.queryByText(/^(Read|Tried) on /)).toBeNull();
    // A run that failed was tried, not read.
    const failed = within(await fileCard('charges-cut.json'));
    expect(failed.getByText('Tried on March 27, 2026 at 10:35 AM')).toBeTruthy();
  });

  it('shows how far a file being loaded has been checked and read, and its figures once it ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const loading = hospitalFile({
      source: 'large.json',
      status: 'loading',
      loadedAt: null,
      items: 0,
      rates: 0,
      rejected: 0,
      // Hashed first: a download of the size of a file read before.
      progress: { phase: 'checking', bytesRead: 18_300_000, totalBytes: 36_600_000, records: 0 },
    });
    let shown: HospitalDetail = { ...HOSPITAL, files: [loading, ...HOSPITAL.files] };
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(200, shown)));
    renderWithProviders(
      <Routes>
        <Route path="/inventoryList/:hospitalId" element={<HospitalDetailRoute />} />
      </Routes>,
      { route: `/inventoryList/${HOSPITAL_ID}` },
    );
    try {
      const card = within(await fileCard('large.json'));
      expect(card.getByText('Loading')).toBeTruthy();
      expect(
        card.getByText(
          'Checking whether the file is the one read before, by its bytes: 18.3 of 36.6 MB (50%).',
        ),
      ).toBeTruthy();
      const checked = card.getByRole('progressbar', {
        name: 'How much of the file has been checked',
      });
      expect(checked.getAttribute('aria-valuenow')).toBe('50');

      // Found new: it is read.
      shown = {
        ...shown,
        files: [
          {
            ...loading,
            progress: {
              phase: 'reading',
              bytesRead: 12_345_678,
              totalBytes: 36_600_000,
              records: 8104,
            },
          },
          ...HOSPITAL.files,
        ],
      };
      await vi.advanceTimersByTimeAsync(5_000);
      expect(
        await screen.findByText('Read 12.3 of 36.6 MB (33%), 8,104 entries so far.'),
      ).toBeTruthy();
      const bar = screen.getByRole('progressbar', { name: 'How much of the file has been read' });
      expect(bar.getAttribute('aria-valuenow')).toBe('33');

      // Read to its end, then loaded: the page, asking again while a file loads, shows each.
      shown = {
        ...shown,
        files: [
          {
            ...loading,
            progress: {
              phase: 'reading',
              bytesRead: 36_600_000,
              totalBytes: 36_600_000,
              records: 24_000,
            },
          },
          ...HOSPITAL.files,
        ],
      };
      await vi.advanceTimersByTimeAsync(5_000);
      expect(
        await screen.findByText(
          'Read to its end (36.6 MB, 24,000 entries): its rates are being stored.',
        ),
      ).toBeTruthy();
      shown = { ...shown, files: [hospitalFile({ source: 'large.json' }), ...HOSPITAL.files] };
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
      expect(within(await fileCard('large.json')).getByText('In use')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the page shown when asking for it again fails, and says it may be out of date', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const loading = hospitalFile({ source: 'large.json', status: 'loading', loadedAt: null });
    let answer = () => jsonResponse(200, { ...HOSPITAL, files: [loading, ...HOSPITAL.files] });
    vi.stubGlobal('fetch', () => Promise.resolve(answer()));
    renderWithProviders(
      <Routes>
        <Route path="/inventoryList/:hospitalId" element={<HospitalDetailRoute />} />
      </Routes>,
      { route: `/inventoryList/${HOSPITAL_ID}` },
    );
    try {
      const summary = (await fileCard('920123456_providence_standardcharges.csv')).querySelector(
        'summary',
      );
      summary?.focus();
      answer = () => jsonResponse(503, { message: 'The database is not answering.' });
      await vi.advanceTimersByTimeAsync(5_000);

      expect(await screen.findByText(STALE_DETAIL_MESSAGE)).toBeTruthy();
      expect(screen.getByRole('status').textContent).toBe(STALE_DETAIL_MESSAGE);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(HOSPITAL.facilityName);
      expect(document.activeElement).toBe(summary);

      // The next answer that comes through clears it.
      answer = () => jsonResponse(200, { ...HOSPITAL, files: [loading, ...HOSPITAL.files] });
      await vi.advanceTimersByTimeAsync(5_000);
      await waitFor(() => expect(screen.queryByText(STALE_DETAIL_MESSAGE)).toBeNull());
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the cards of earlier runs, open sections and all, when a new run is listed above', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const loading = (source: string) =>
      hospitalFile({ source, status: 'loading', loadedAt: null, firstReadAt: null });
    let shown: HospitalDetail = { ...HOSPITAL, files: [loading('a.json'), ...HOSPITAL.files] };
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(200, shown)));
    renderWithProviders(
      <Routes>
        <Route path="/inventoryList/:hospitalId" element={<HospitalDetailRoute />} />
      </Routes>,
      { route: `/inventoryList/${HOSPITAL_ID}` },
    );
    try {
      const before = await fileCard('920123456_providence_standardcharges.csv');
      const details = before.querySelector('details');
      if (!details) throw new Error('no folded figures');
      details.open = true;

      shown = { ...shown, files: [loading('b.json'), ...shown.files] };
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await fileCard('b.json')).toBeTruthy();

      const after = await fileCard('920123456_providence_standardcharges.csv');
      expect(after).toBe(before);
      expect(after.querySelector('details')?.open).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('says a file replaced by its own bytes read again was not replaced by a newer one', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, READ_AGAIN));

    const [current, unchanged, replaced] = await fileCards('charges.json');
    expect(within(current as HTMLElement).getByText('In use')).toBeTruthy();
    expect(
      within(unchanged as HTMLElement).getByText(
        'Same file as the one in use at the time: nothing changed',
      ),
    ).toBeTruthy();
    const words = within(replaced as HTMLElement);
    expect(words.getByText('Replaced when the same file was read again')).toBeTruthy();
    expect(words.queryByText('Replaced by a newer file')).toBeNull();
  });

  it('shows a run that found the file in use already without its figures again', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, READ_AGAIN));

    const [current, unchanged, replaced] = (await fileCards('charges.json')).map((card) =>
      within(card),
    );
    // The runs that were read show their validation; the one that found nothing new, its status
    // and when alone.
    for (const run of [current, replaced]) {
      expect(run?.getByText(/^Error: 12 rates had no payer name/)).toBeTruthy();
      expect(run?.getByText('10,452 charges, 29,143 rates, 12 rejected')).toBeTruthy();
    }
    expect(
      unchanged
        ?.getAllByRole('paragraph')
        .concat(unchanged.getAllByRole('heading'))
        .map((element) => element.textContent),
    ).toEqual([
      'Same file as the one in use at the time: nothing changed',
      'Read on March 27, 2026 at 10:38 AM',
      'charges.json',
    ]);
    expect(unchanged?.queryByRole('list')).toBeNull();
  });

  it('shows a file passed over as read before, without figures or a report it did not keep', async () => {
    const files = [
      hospitalFile({
        source: 'last-year.json',
        status: 'skipped',
        loadedAt: '2026-03-28T17:00:00.000Z',
      }),
      hospitalFile({
        source: 'charges.json',
        loadedAt: '2026-03-27T17:42:10.000Z',
        validation: RULES,
      }),
    ];
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, { ...HOSPITAL, files }));

    const skipped = within(await fileCard('last-year.json'));
    expect(
      skipped.getByText('Same file as when it was read before and not put in use: not read again'),
    ).toBeTruthy();
    expect(skipped.queryByText(/^Format: /)).toBeNull();
    expect(skipped.queryByText(NO_PROBLEMS_MESSAGE)).toBeNull();
  });

  it('shows the file in use and the runs since it whole, and earlier runs with their figures folded', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, READ_AGAIN));

    /** The folded disclosure around a card's figures; null when they are shown. */
    const fold = (card: HTMLElement) => {
      const details =
        within(card)
          .queryByText(/^Format: /)
          ?.closest('details') ?? null;
      if (details) {
        expect(details.open).toBe(false);
        expect(details.querySelector('summary')?.textContent).toBe(EARLIER_RUN_FIGURES);
      }
      return details;
    };
    const [current, unchanged, replaced] = await fileCards('charges.json');
    const [loading, failed] = [await fileCard('later.json'), await fileCard('charges-cut.json')];
    // Newer than the file in use: news, shown whole.
    expect(fold(loading)).toBeNull();
    expect(fold(current as HTMLElement)).toBeNull();
    expect(within(current as HTMLElement).queryByText(EARLIER_RUN_FIGURES)).toBeNull();
    // History: its name, status and when stay in sight; what it read is folded.
    expect(fold(replaced as HTMLElement)).not.toBeNull();
    expect(
      within(replaced as HTMLElement).getByText('Read on March 27, 2026 at 10:31 AM'),
    ).toBeTruthy();
    const failure = within(failed).getByText(/^Error: The JSON file ends/);
    expect(failure.closest('details')).toBe(fold(failed));
    expect(within(failed).getByText('Failed').closest('details')).toBeNull();
    // A run that found the file in use already has no figures to fold.
    expect(within(unchanged as HTMLElement).queryByText(EARLIER_RUN_FIGURES)).toBeNull();
  });

  it('folds the figures of the run just before the file in use', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, HOSPITAL));

    const current = await fileCard('920123456_providence_standardcharges.json');
    expect(within(current).getByText('Format: JSON').closest('details')).toBeNull();
    const replaced = await fileCard('920123456_providence_standardcharges.csv');
    expect(within(replaced).getByText('Format: CSV (tall)').closest('details')).not.toBeNull();
    // Where the hospital publishes it stays in sight.
    expect(
      within(replaced)
        .getByText(/^Read from the hospital's site/)
        .closest('details'),
    ).toBeNull();
  });

  it('shows the newest run whole when no file is in use', async () => {
    const files = [
      hospitalFile({
        source: 'second.csv',
        status: 'failed',
        error: 'The file has no header row.',
      }),
      hospitalFile({ source: 'first.csv', status: 'failed', error: 'The file is empty.' }),
    ];
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, { ...HOSPITAL, files }));

    const newest = await fileCard('second.csv');
    expect(
      within(newest).getByText('Error: The file has no header row.').closest('details'),
    ).toBeNull();
    const oldest = await fileCard('first.csv');
    expect(within(oldest).getByText('Error: The file is empty.').closest('details')).not.toBeNull();
  });

  it('shows an entry for repeated runs with how many times, from when to when', async () => {
    // The server lists a file found unchanged run after run once (InventoryService.hospital).
    const files = [
      hospitalFile({
        source: 'daily.json',
        status: 'unchanged',
        loadedAt: '2026-03-27T17:42:00.000Z',
        timesRead: 3,
        firstReadAt: '2026-03-25T17:42:00.000Z',
      }),
      hospitalFile({ source: 'daily.json', loadedAt: '2026-03-23T17:42:00.000Z' }),
      hospitalFile({
        source: 'daily.json',
        status: 'unchanged',
        loadedAt: '2026-03-22T17:42:00.000Z',
      }),
      hospitalFile({
        source: 'daily.json',
        status: 'replaced',
        loadedAt: '2026-03-21T17:42:00.000Z',
      }),
    ];
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, { ...HOSPITAL, files }));

    const cards = (await fileCards('daily.json')).map((card) => within(card));
    expect(cards.map((card) => card.getByText(/^Read /).textContent)).toEqual([
      'Read 3 times, from March 25, 2026 at 10:42 AM to March 27, 2026 at 10:42 AM',
      'Read on March 23, 2026 at 10:42 AM',
      'Read on March 22, 2026 at 10:42 AM',
      'Read on March 21, 2026 at 10:42 AM',
    ]);
    expect(
      cards[0]?.getByText('Same file as the one in use at the time: nothing changed'),
    ).toBeTruthy();
    // The file in use after the repeats is shown whole.
    expect(cards[1]?.getByText('Format: JSON').closest('details')).toBeNull();
    expect(cards[3]?.getByText('Format: JSON').closest('details')).not.toBeNull();
  });

  it('leads back to the list with its filters, telling it which hospital to focus', async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}?state=AK&msa=11260`, jsonResponse(200, HOSPITAL));

    const back = await screen.findByRole('link', { name: 'Back to the inventory' });
    expect(back.getAttribute('href')).toBe('/inventoryList?state=AK&msa=11260');
    fireEvent.click(back);

    // The list (inventory-list.test.tsx) puts the focus on this hospital's row.
    expect((await screen.findByTestId('list')).textContent).toBe(
      `?state=AK&msa=11260 {"hospitalId":"${HOSPITAL_ID}"}`,
    );
  });

  it("lets a file's long name wrap after its underscores, never inside its extension", async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, HOSPITAL));

    // Read as one name; laid out with a place to break after each underscore, the extension
    // whole (e2e/inventory.spec.ts measures the lines at 375 px).
    const heading = await screen.findByRole('heading', {
      level: 3,
      name: '920123456_providence_standardcharges.json',
    });
    expect(heading.innerHTML).toContain('920123456_<wbr>providence_<wbr>standardcharges<span');
    const extension = within(heading).getByText('.json');
    expect(extension.style.whiteSpace).toBe('nowrap');
  });

  it('pairs each location with its address when the file lists as many of each', async () => {
    const campuses: HospitalDetail = {
      ...HOSPITAL,
      locations: ['AdventHealth Orlando', 'AdventHealth for Children', 'AdventHealth Apopka'],
      addresses: [
        '601 E Rollins St, Orlando, FL 32803',
        '601 E Rollins St, Orlando, FL 32803',
        '2100 Ocoee Apopka Rd, Apopka, FL 32703',
      ],
    };
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, campuses));

    const heading = await screen.findByRole('heading', { level: 2, name: 'Locations' });
    const list = heading.nextElementSibling as HTMLElement;
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'AdventHealth Orlando601 E Rollins St, Orlando, FL 32803',
      'AdventHealth for Children601 E Rollins St, Orlando, FL 32803',
      'AdventHealth Apopka2100 Ocoee Apopka Rd, Apopka, FL 32703',
    ]);
    expect(screen.queryByRole('heading', { name: 'Addresses' })).toBeNull();
  });

  it("shows a health system's first locations, and the rest when asked", async () => {
    const sites = Array.from({ length: 23 }, (_, i) => `Campus ${i + 1}`);
    const system: HospitalDetail = {
      ...HOSPITAL,
      locations: sites,
      addresses: sites.map((_, i) => `${i + 1} Main St, Orlando, FL 32803`),
    };
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, system));

    const heading = await screen.findByRole('heading', { level: 2, name: 'Locations' });
    const list = heading.nextElementSibling as HTMLElement;
    const places = sites.map((site, i) => `${site}${system.addresses[i]}`);
    const names = () =>
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(names()).toEqual(places.slice(0, FOLDED_SHOWN));
    const more = screen.getByRole('button', { name: 'Show all 23 locations' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    expect(more.getAttribute('aria-controls')).toBe(list.id);
    fireEvent.click(more);
    expect(names()).toEqual(places);
    const fewer = screen.getByRole('button', { name: `Show the first ${FOLDED_SHOWN} only` });
    expect(fewer.getAttribute('aria-expanded')).toBe('true');
    // The files come after the list, whatever its length.
    expect(await fileCard('920123456_providence_standardcharges.json')).toBeTruthy();
  });

  it('lists six entries whole: a button to show one more would save nothing', async () => {
    const six = Array.from({ length: FOLDED_SHOWN + 1 }, (_, i) => `Campus ${i + 1}`);
    renderDetail(
      `/inventoryList/${HOSPITAL_ID}`,
      jsonResponse(200, { ...HOSPITAL, locations: six, addresses: six.map(() => 'Orlando, FL') }),
    );
    const heading = await screen.findByRole('heading', { level: 2, name: 'Locations' });
    const list = heading.nextElementSibling as HTMLElement;
    expect(within(list).getAllByRole('listitem')).toHaveLength(six.length);
    expect(screen.queryByRole('button', { name: /^Show all/ })).toBeNull();
  });

  it("writes the hospital's last-updated date as the calendar date, whatever the time zone", async () => {
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, HOSPITAL));

    const current = within(await fileCard('920123456_providence_standardcharges.json'));
    expect(current.getByText('Last updated by the hospital on March 27, 2026')).toBeTruthy();
  });

  it('says the hospital is not in the inventory on a 404, with a way back to the filtered list', async () => {
    renderDetail(
      `/inventoryList/${HOSPITAL_ID}?state=AK&msa=11260`,
      jsonResponse(404, { message: 'No hospital has this id.' }),
    );

    expect(await screen.findByText(HOSPITAL_NOT_FOUND_MESSAGE)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the inventory' }).getAttribute('href')).toBe(
      '/inventoryList?state=AK&msa=11260',
    );
  });
});

describe("an administrator's request to read the file again", () => {
  afterEach(() => {
    vi.useRealTimers();
    clearSession();
  });

  const REAL: HospitalDetail = { ...HOSPITAL, isDemo: false };

  /** The hospital's page for an administrator; `refresh` answers the request to read it again. */
  function renderForAdmin(
    hospital: () => HospitalDetail,
    refresh: () => Response | Promise<Response>,
  ) {
    signInAs('admin');
    const posts: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/refresh') && init?.method === 'POST') {
        posts.push(url);
        return Promise.resolve(refresh());
      }
      return Promise.resolve(jsonResponse(200, hospital()));
    });
    renderWithProviders(
      <Routes>
        <Route path="/inventoryList/:hospitalId" element={<HospitalDetailRoute />} />
      </Routes>,
      { route: `/inventoryList/${HOSPITAL_ID}` },
    );
    return posts;
  }
  const button = () => screen.findByRole('button', { name: 'Read its file again now' });

  it('asks the worker, then says so once the files show a newer run', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let shown = REAL;
    const posts = renderForAdmin(
      () => shown,
      () => jsonResponse(202, { status: 'waiting' }),
    );
    fireEvent.click(await button());
    expect(await screen.findByText(REFRESH_ASKED)).toBeTruthy();
    expect(posts).toEqual([`/api/admin/hospitals/${HOSPITAL_ID}/refresh`]);
    // Asked once: the button waits for the result.
    expect((await button()).hasAttribute('disabled')).toBe(true);

    // The worker has read the file again: the page, asking every few seconds, sees a new run.
    shown = { ...REAL, files: [hospitalFile({ source: 'newer.json' }), ...REAL.files] };
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await screen.findByText(REFRESH_DONE)).toBeTruthy();
    expect(await fileCard('newer.json')).toBeTruthy();
    expect((await button()).hasAttribute('disabled')).toBe(false);
  });

  it('says while the worker reads the file that it does, for as long as that takes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let shown = REAL;
    renderForAdmin(
      () => shown,
      () => jsonResponse(202, { status: 'waiting' }),
    );
    fireEvent.click(await button());
    expect(await screen.findByText(REFRESH_ASKED)).toBeTruthy();

    // The worker has begun reading a large file: listed as loading, it is no result yet.
    const loading = (bytesRead: number, phase: 'checking' | 'reading' = 'reading') =>
      hospitalFile({
        source: 'large.json',
        status: 'loading',
        loadedAt: null,
        progress: { phase, bytesRead, totalBytes: 900_000_000, records: 1000 },
      });
    // First hashed, as its server sends no validators, then read.
    shown = { ...REAL, files: [loading(1_000_000, 'checking'), ...REAL.files] };
    await vi.advanceTimersByTimeAsync(3_000);
    expect(await screen.findByText(REFRESH_CHECKING)).toBeTruthy();
    shown = { ...REAL, files: [loading(1_000_000), ...REAL.files] };
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await screen.findByText(REFRESH_READING)).toBeTruthy();
    expect((await button()).hasAttribute('disabled')).toBe(true);
    // Past the two minutes a request may wait, it is still reading: not "not taken".
    shown = { ...REAL, files: [loading(600_000_000), ...REAL.files] };
    await vi.advanceTimersByTimeAsync(125_000);
    expect(
      await screen.findByText('Read 600.0 of 900.0 MB (66%), 1,000 entries so far.'),
    ).toBeTruthy();
    expect(screen.getByText(REFRESH_READING)).toBeTruthy();
    expect(screen.queryByText(REFRESH_NOT_TAKEN)).toBeNull();

    shown = { ...REAL, files: [hospitalFile({ source: 'large.json' }), ...REAL.files] };
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await screen.findByText(REFRESH_DONE)).toBeTruthy();
    expect((await button()).hasAttribute('disabled')).toBe(false);
  });

  it('says when no worker has taken the request up in two minutes, and lets it be asked again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderForAdmin(
      () => REAL,
      () => jsonResponse(202, { status: 'already-waiting' }),
    );
    fireEvent.click(await button());
    expect(await screen.findByText(REFRESH_ALREADY_ASKED)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(123_000);
    expect(await screen.findByText(REFRESH_NOT_TAKEN)).toBeTruthy();
    expect((await button()).hasAttribute('disabled')).toBe(false);
  });

  describe('focus', () => {
    dropFocusFromDisabledControls();

    it('gives the keyboard to the answer once asked, though the button waits for the result', async () => {
      const held = heldAnswer();
      renderForAdmin(() => REAL, held.answer);

      await pressAndLoseFocus(await button());
      held.release(jsonResponse(202, { status: 'waiting' }));

      const answer = (await screen.findByText(REFRESH_ASKED)).closest('[role="status"]');
      await waitFor(() => expect(document.activeElement).toBe(answer));
      expect((await button()).hasAttribute('disabled')).toBe(true);
    });
  });

  it("shows the server's refusal, and is not offered for a demo hospital or to others", async () => {
    renderForAdmin(
      () => REAL,
      () =>
        jsonResponse(409, {
          isSuccess: false,
          statusCode: 409,
          error: 'Conflict',
          message: 'This hospital has no file in use yet, so there is nothing to read again.',
        }),
    );
    fireEvent.click(await button());
    expect(
      await screen.findByText(
        'This hospital has no file in use yet, so there is nothing to read again.',
      ),
    ).toBeTruthy();
    cleanup();

    // A demo hospital's file is made by the server: nothing to read again.
    renderForAdmin(
      () => HOSPITAL,
      () => jsonResponse(202, { status: 'waiting' }),
    );
    expect(await screen.findByRole('heading', { name: 'Files' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Newer file (administrators)' })).toBeNull();
    cleanup();

    // A visitor sees no such section.
    clearSession();
    renderDetail(`/inventoryList/${HOSPITAL_ID}`, jsonResponse(200, REAL));
    expect(await screen.findByRole('heading', { name: 'Files' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Newer file (administrators)' })).toBeNull();
  });
});

describe("an administrator's labels for the hospital", () => {
  dropFocusFromDisabledControls();
  afterEach(clearSession);

  it('gives the keyboard to the answer once saved, though the unchanged form cannot be saved again', async () => {
    signInAs('admin');
    const held = heldAnswer();
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/classification') && init?.method === 'PUT') return held.answer();
      return Promise.resolve(jsonResponse(200, HOSPITAL));
    });
    renderWithProviders(
      <Routes>
        <Route path="/inventoryList/:hospitalId" element={<HospitalDetailRoute />} />
      </Routes>,
      { route: `/inventoryList/${HOSPITAL_ID}` },
    );
    fireEvent.change(await screen.findByLabelText(/^Health system/), {
      target: { value: 'Providence' },
    });
    const save = screen.getByRole('button', { name: 'Save labels' });
    await waitFor(() => expect(save).toHaveProperty('disabled', false));

    await pressAndLoseFocus(save);
    held.release(
      jsonResponse(200, { hospitalType: HOSPITAL.hospitalType, healthsystemType: 'Providence' }),
    );

    const answer = (await screen.findByText(LABELS_SAVED)).closest('[role="status"]');
    await waitFor(() => expect(document.activeElement).toBe(answer));
    expect(save).toHaveProperty('disabled', true);
  });
});
