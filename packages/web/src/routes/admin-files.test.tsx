// @vitest-environment jsdom
import { ROLES, type FailingFile } from '@ratelens/core';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSession } from '../features/auth/session.ts';
import { formatDateAndTime } from '../shared/format-date.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { AdminFilesRoute, FILES_TITLE, NO_FAILING_FILES } from './admin-files.tsx';
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

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function renderFiles() {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/files" element={<AdminFilesRoute />} />
      <Route path="/login" element={<p>Login page</p>} />
    </Routes>,
    { route: '/admin/files' },
  );
}

describe('AdminFilesRoute', () => {
  it('lists the hospitals whose file could not be read, with why, since when and the rates meanwhile', async () => {
    signInAs(ROLES.admin);
    const fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, [MOVED, NEVER])));
    vi.stubGlobal('fetch', fetchMock);
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

    const [url] = fetchMock.mock.calls[0] as unknown as [string];
    expect(url).toBe('/api/admin/files/failing');
  });

  it('says when every latest read succeeded', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, []))),
    );
    renderFiles();

    expect(await screen.findByText(NO_FAILING_FILES)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells a non-administrator they have no access, and keeps the session', async () => {
    signInAs(ROLES.webUser);
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          forbiddenResponse(
            'Only administrators can see which hospitals’ files could not be read.',
          ),
        ),
      ),
    );
    renderFiles();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    expect(readSession().token).toBe('access-1');
  });

  it('sends a visitor without a session to /login', () => {
    renderFiles();
    expect(screen.getByText('Login page')).toBeTruthy();
  });
});
