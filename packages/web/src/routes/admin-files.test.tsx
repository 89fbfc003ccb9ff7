// @vitest-environment jsdom
import { ROLES, type FailingFile, type RefreshStatus } from '@ratelens/core';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient, Providers } from '../app/providers.tsx';
import { readSession } from '../features/auth/session.ts';
import { formatDateAndTime } from '../shared/format-date.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import {
  AdminFilesRoute,
  FAILING_TITLE,
  FILES_TITLE,
  NO_FAILING_FILES,
  NO_RECENT_REFRESH,
  NO_REQUESTS,
  NO_WORKER,
  REFRESH_OFF,
  REFRESH_TITLE,
} from './admin-files.tsx';
import { NO_ACCESS_MESSAGE } from './user-list.tsx';

const MOVED: FailingFile = {
  hospitalID: '5b6c2f0e-8d1a-4c3e-9f47-2a1b3c4d5e6f',
  facilityName: 'Moved File Hospital',
  stateName: 'Vermont',
  source: 'charges.json',
  sourceUrl: 'https://moved.example/2026-03/charges.json',
  error: 'The server answered 404 Not Found for https://moved.example/2026-03/charges.json.',
  failingSince: '2026-11-20T04:30:12Z',
  lastTriedAt: '2026-11-24T04:30:09Z',
  failures: 5,
  inUseReadAt: '2026-11-19T04:31:40Z',
};
const NEVER: FailingFile = {
  ...MOVED,
  hospitalID: '7d6c2f0e-8d1a-4c3e-9f47-2a1b3c4d5e6f',
  facilityName: 'Never Read Hospital',
  stateName: '',
  source: 'local.csv',
  sourceUrl: null,
  error: 'The file has no content.',
  failingSince: '2026-11-24T04:30:00Z',
  lastTriedAt: '2026-11-24T04:30:00Z',
  failures: 1,
  inUseReadAt: null,
};

/** A worker that ran last night's refresh to the end. */
const COMPLETED: RefreshStatus = {
  worker: 'running',
  workerSeenAt: '2026-11-25T15:02:30Z',
  schedule: '30 4 * * *',
  nextRunAt: '2026-11-26T04:30:00Z',
  latest: {
    startedAt: '2026-11-25T04:30:02Z',
    endedAt: '2026-11-25T05:12:45Z',
    ending: 'completed',
    reason: null,
    timeLimitSeconds: 82_800,
    counts: {
      loaded: 3,
      unchanged: 12,
      skipped: 1,
      older: 0,
      failed: 2,
      unreadable: 0,
      missing: 0,
      notRead: 0,
    },
  },
  requests: { waiting: 0, running: 0 },
};

/** Answers the page's two calls: the daily refresh's status, and the failing files. */
function stubApi(
  files: () => Response,
  refresh: () => Response = () => jsonResponse(200, COMPLETED),
) {
  const fetchMock = vi.fn((url: string) =>
    Promise.resolve(url === '/api/admin/refresh' ? refresh() : files()),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The lines of the daily refresh's section, once its answer is shown. */
async function refreshLines(status: RefreshStatus) {
  signInAs(ROLES.admin);
  stubApi(
    () => jsonResponse(200, []),
    () => jsonResponse(200, status),
  );
  renderFiles();
  const section = screen.getByRole('region', { name: REFRESH_TITLE });
  await within(section).findByText(status.requests.waiting > 0 ? /^Administrators/ : NO_REQUESTS);
  return (
    within(section)
      .getAllByText(/./, { selector: 'p' })
      .map((line) => line.textContent)
      // When it was fetched, not what it says (see 'keeping the daily refresh current').
      .filter((line) => !line.startsWith('Updated '))
  );
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const FILES_ROUTES = (
  <Routes>
    <Route path="/admin/files" element={<AdminFilesRoute />} />
    <Route path="/login" element={<p>Login page</p>} />
  </Routes>
);

function renderFiles() {
  return renderWithProviders(FILES_ROUTES, { route: '/admin/files' });
}

describe('AdminFilesRoute', () => {
  it('lists the hospitals whose file could not be read, with why, since when and the rates meanwhile', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubApi(() => jsonResponse(200, [MOVED, NEVER]));
    renderFiles();

    expect(screen.getByRole('heading', { level: 1, name: FILES_TITLE })).toBeTruthy();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Hospital', 'State', 'File', 'Error', 'Failing', 'Meanwhile']);
    const moved = within(rows[1]!);
    expect(moved.getByRole('link', { name: 'Moved File Hospital' }).getAttribute('href')).toBe(
      `/inventoryList/${MOVED.hospitalID}`,
    );
    expect(moved.getByRole('link', { name: 'charges.json' }).getAttribute('href')).toBe(
      MOVED.sourceUrl,
    );
    expect(moved.getByText(MOVED.error!)).toBeTruthy();
    expect(
      moved.getByText(
        `Since ${formatDateAndTime(MOVED.failingSince)}; 5 failed reads, the latest on ${formatDateAndTime(MOVED.lastTriedAt)}`,
      ),
    ).toBeTruthy();
    expect(
      moved.getByText(`Rates from the file read on ${formatDateAndTime(MOVED.inUseReadAt!)}.`),
    ).toBeTruthy();
    const never = within(rows[2]!);
    expect(never.getByText('local.csv')).toBeTruthy();
    expect(never.queryByRole('link', { name: 'local.csv' })).toBeNull();
    expect(
      never.getByText(`Since ${formatDateAndTime(NEVER.failingSince)}; 1 failed read`),
    ).toBeTruthy();
    expect(never.getByText('No file in use: the hospital has no rates.')).toBeTruthy();
    expect(screen.getByText('2 hospitals')).toBeTruthy();
    // The same, one card each, for a phone.
    const cards = within(screen.getByRole('list', { name: FILES_TITLE })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText(`Error: ${MOVED.error!}`)).toBeTruthy();

    expect(screen.getByRole('region', { name: FAILING_TITLE })).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/admin/files/failing');
  });

  it('says when every latest read succeeded', async () => {
    signInAs(ROLES.admin);
    stubApi(() => jsonResponse(200, []));
    renderFiles();

    expect(await screen.findByText(NO_FAILING_FILES)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells a non-administrator they have no access without asking the server, and keeps the session', async () => {
    signInAs(ROLES.webUser);
    const forbidden = () => forbiddenResponse('Only administrators can see this.');
    const fetchMock = stubApi(forbidden, forbidden);
    renderFiles();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    expect(screen.queryByRole('region', { name: REFRESH_TITLE })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(readSession().token).toBe('access-1');
  });

  it('tells an administrator the server refuses (the role taken away) once that they have no access', async () => {
    signInAs(ROLES.admin);
    const forbidden = () => forbiddenResponse('Only administrators can see this.');
    const fetchMock = stubApi(forbidden, forbidden);
    renderFiles();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    // Told once: the daily refresh's section, refused too, is left out.
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('region', { name: REFRESH_TITLE })).toBeNull();
    expect(readSession().token).toBe('access-1');
  });

  it('says when the latest daily refresh ran, that it completed, its counts, the next one and the requests', async () => {
    expect(await refreshLines(COMPLETED)).toEqual([
      `The next is due on ${formatDateAndTime('2026-11-26T04:30:00Z')} your time (schedule "30 4 * * *", in UTC).`,
      `The latest ran from ${formatDateAndTime('2026-11-25T04:30:02Z')} to ${formatDateAndTime('2026-11-25T05:12:45Z')} and completed.`,
      'Files: 3 loaded, 12 unchanged, 1 skipped, 0 older than the one in use, 2 failed.',
      NO_REQUESTS,
    ]);
    expect(screen.getByRole('heading', { level: 2, name: REFRESH_TITLE })).toBeTruthy();
  });

  it('says that a refresh is running now, since when, and the requests waiting and being read', async () => {
    const lines = await refreshLines({
      ...COMPLETED,
      latest: {
        ...COMPLETED.latest!,
        endedAt: null,
        ending: 'running',
        counts: null,
      },
      requests: { waiting: 2, running: 1 },
    });
    expect(lines.slice(1)).toEqual([
      `The latest has been running since ${formatDateAndTime('2026-11-25T04:30:02Z')}.`,
      "Administrators' requests to read one hospital's file again: 2 waiting, 1 being read.",
    ]);
  });

  it('says that the latest refresh failed, with its error', async () => {
    const lines = await refreshLines({
      ...COMPLETED,
      latest: {
        ...COMPLETED.latest!,
        ending: 'failed',
        reason: 'Connection terminated unexpectedly',
        counts: null,
      },
    });
    expect(lines[1]).toBe(
      `The latest ran from ${formatDateAndTime('2026-11-25T04:30:02Z')} to ${formatDateAndTime('2026-11-25T05:12:45Z')} and failed: Connection terminated unexpectedly`,
    );
  });

  it('says that the latest refresh was cut at its time limit', async () => {
    const lines = await refreshLines({
      ...COMPLETED,
      latest: {
        ...COMPLETED.latest!,
        ending: 'timed-out',
        reason: 'handler execution exceeded 82800000ms',
        counts: null,
      },
    });
    expect(lines[1]).toMatch(
      /and was cut at its time limit of 23 hours: the file being read was stopped, and the next refresh reads the files not read\.$/,
    );
  });

  it('says that the latest refresh stopped early, why, and how many files it left', async () => {
    const lines = await refreshLines({
      ...COMPLETED,
      latest: {
        ...COMPLETED.latest!,
        ending: 'stopped-early',
        reason: "the job's time limit, 23 h, is near",
        counts: { ...COMPLETED.latest!.counts!, notRead: 4, unreadable: 1, missing: 2 },
      },
    });
    expect(lines.slice(1, 3)).toEqual([
      `The latest ran from ${formatDateAndTime('2026-11-25T04:30:02Z')} to ${formatDateAndTime('2026-11-25T05:12:45Z')} and stopped early (the job's time limit, 23 h, is near): 4 files were not read; the next refresh reads them.`,
      'Files: 3 loaded, 12 unchanged, 1 skipped, 0 older than the one in use, 2 failed. 1 list could not be read. 2 local files were no longer there.',
    ]);
  });

  it('says that the daily refresh is off, and that none has run yet', async () => {
    expect(
      await refreshLines({ ...COMPLETED, schedule: null, nextRunAt: null, latest: null }),
    ).toEqual([REFRESH_OFF, NO_RECENT_REFRESH, NO_REQUESTS]);
  });

  it('says that no worker has run for a while', async () => {
    const lines = await refreshLines({ ...COMPLETED, worker: 'stopped' });
    expect(lines[0]).toBe(
      `No background worker has been running since ${formatDateAndTime('2026-11-25T15:02:30Z')}: nothing is read again until one runs.`,
    );
  });

  it('says plainly that no worker has ever run, and counts the requests waiting for one', async () => {
    expect(
      await refreshLines({
        worker: 'never',
        workerSeenAt: null,
        schedule: null,
        nextRunAt: null,
        latest: null,
        requests: { waiting: 1, running: 0 },
      }),
    ).toEqual([
      NO_WORKER,
      "Administrators' requests to read one hospital's file again: 1 waiting, 0 being read.",
    ]);
  });

  it('says why the daily refresh could not be shown, and lists the failing files all the same', async () => {
    signInAs(ROLES.admin);
    stubApi(
      () => jsonResponse(200, []),
      () =>
        jsonResponse(500, {
          isSuccess: false,
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'Something went wrong on our side.',
        }),
    );
    renderFiles();

    const section = screen.getByRole('region', { name: REFRESH_TITLE });
    expect(within(section).getByRole('status').textContent).toBe('Loading the daily refresh…');
    expect(await within(section).findByRole('alert')).toHaveProperty(
      'textContent',
      'Something went wrong on our side.',
    );
    expect(await screen.findByText(NO_FAILING_FILES)).toBeTruthy();
  });

  it('sends a visitor without a session to /login', () => {
    renderFiles();
    expect(screen.getByText('Login page')).toBeTruthy();
  });
});

describe('keeping the daily refresh current', () => {
  /** A refresh under way since 04:30 UTC, with nothing counted yet. */
  const RUNNING: RefreshStatus = {
    ...COMPLETED,
    latest: { ...COMPLETED.latest!, endedAt: null, ending: 'running', counts: null },
  };
  const ERROR = () => jsonResponse(503, { message: 'The database is not answering.' });
  /** The app retries a server error twice, 1 and then 2 seconds later, before it fails. */
  const RETRIES_MS = 3_000;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // Local time, as the page shows it.
    vi.setSystemTime(new Date(2026, 10, 25, 14, 5, 0));
  });

  /**
   * The page with the app's own query client, whose defaults (not asked again on focus, fresh
   * for 30 seconds, a server error retried) the section's options meet; its status answered by
   * `answer()` each time it is asked. Resolves once shown.
   */
  async function watch(answer: () => Response) {
    signInAs(ROLES.admin);
    const fetchMock = stubApi(() => jsonResponse(200, []), answer);
    render(
      <Providers queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={['/admin/files']}>{FILES_ROUTES}</MemoryRouter>
      </Providers>,
    );
    const section = within(screen.getByRole('region', { name: REFRESH_TITLE }));
    await section.findByText(/^Updated\b/);
    const asks = () => fetchMock.mock.calls.filter(([url]) => url === '/api/admin/refresh').length;
    return { section, asks };
  }

  /** Hides or shows the tab, as the browser does when another tab is chosen. */
  function setTabHidden(hidden: boolean) {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }

  it.each([
    ['a refresh is running', RUNNING],
    ['a request waits', { ...COMPLETED, requests: { waiting: 1, running: 0 } }],
    ['a request is being read', { ...COMPLETED, requests: { waiting: 0, running: 1 } }],
  ])('asks again every 10 seconds while %s', async (_, status) => {
    const { asks } = await watch(() => jsonResponse(200, status));
    expect(asks()).toBe(1);

    await vi.advanceTimersByTimeAsync(9_000);
    expect(asks()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(asks()).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asks()).toBe(3);
  });

  it('asks again once a minute while nothing is under way', async () => {
    const { asks } = await watch(() => jsonResponse(200, COMPLETED));

    await vi.advanceTimersByTimeAsync(59_000);
    expect(asks()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(asks()).toBe(2);
  });

  it('goes back to once a minute when the refresh it watched has ended', async () => {
    let status = RUNNING;
    const { section, asks } = await watch(() => jsonResponse(200, status));

    status = COMPLETED;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await section.findByText(/and completed\.$/)).toBeTruthy();
    expect(asks()).toBe(2);
    await vi.advanceTimersByTimeAsync(50_000);
    expect(asks()).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asks()).toBe(3);
  });

  it('does not ask while the tab is hidden, and asks at once when it is shown again', async () => {
    const { asks } = await watch(() => jsonResponse(200, RUNNING));
    try {
      setTabHidden(true);
      await vi.advanceTimersByTimeAsync(125_000);
      expect(asks()).toBe(1);

      // Half-way to the next tick of 10 seconds: shown, it asks without waiting for one.
      setTabHidden(false);
      await vi.advanceTimersByTimeAsync(100);
      expect(asks()).toBe(2);
    } finally {
      Reflect.deleteProperty(document, 'visibilityState');
    }
  });

  it('says when it was last updated', async () => {
    const { section } = await watch(() => jsonResponse(200, COMPLETED));
    const updated = section.getByText(/^Updated\b/);
    expect(updated.textContent).toBe('Updated 2:05 PM');
    expect(updated.querySelector('time')?.getAttribute('datetime')).toBe(
      new Date(2026, 10, 25, 14, 5, 0).toISOString(),
    );

    await vi.advanceTimersByTimeAsync(60_000);
    await waitFor(() =>
      expect(section.getByText(/^Updated\b/).textContent).toBe('Updated 2:06 PM'),
    );
  });

  it('keeps the status shown when asking again fails, and says what time it is from', async () => {
    let answer = () => jsonResponse(200, COMPLETED);
    const { section } = await watch(() => answer());

    answer = ERROR;
    await vi.advanceTimersByTimeAsync(60_000 + RETRIES_MS);
    expect(section.getByRole('status').textContent).toBe(
      'Could not update the refresh status; showing what was known at 2:05 PM.',
    );
    expect(section.queryByRole('alert')).toBeNull();
    expect(section.getByText(NO_REQUESTS)).toBeTruthy();
    expect(section.getByText(/and completed\.$/)).toBeTruthy();

    // The next answer that comes through clears it.
    answer = () => jsonResponse(200, COMPLETED);
    await vi.advanceTimersByTimeAsync(60_000);
    await waitFor(() => expect(section.queryByRole('status')).toBeNull());
    expect(section.getByText(/^Updated\b/).textContent).toBe('Updated 2:07 PM');
  });

  it('names the day of what it shows when that was before midnight', async () => {
    vi.setSystemTime(new Date(2026, 10, 25, 23, 59, 30));
    let answer = () => jsonResponse(200, COMPLETED);
    const { section } = await watch(() => answer());

    answer = ERROR;
    await vi.advanceTimersByTimeAsync(60_000 + RETRIES_MS);
    expect(section.getByRole('status').textContent).toBe(
      'Could not update the refresh status; showing what was known on November 25, 2026 at 11:59 PM.',
    );
  });

  it('does not ask again once the server refuses', async () => {
    signInAs(ROLES.admin);
    const forbidden = () => forbiddenResponse('Only administrators can see this.');
    const fetchMock = stubApi(forbidden, forbidden);
    renderFiles();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));

    await vi.advanceTimersByTimeAsync(180_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
