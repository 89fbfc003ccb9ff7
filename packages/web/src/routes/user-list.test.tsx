// @vitest-environment jsdom
import { ROLES, type UserListItem } from '@ratelens/core';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { NO_ACCESS_MESSAGE, UserListRoute } from './user-list.tsx';

const ANN: UserListItem = {
  firstName: 'Ann',
  lastName: 'Lee',
  emailID: 'ann@example.com',
  address: '1 Main St',
  zip: '99501',
  lastLogin: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function renderUserList() {
  renderWithProviders(
    <Routes>
      <Route path="/userList" element={<UserListRoute />} />
    </Routes>,
    { route: '/userList' },
  );
}

describe('UserListRoute', () => {
  it('names its table for screen readers', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(200, [ANN])));
    renderUserList();

    const table = await screen.findByRole('table', {
      name: 'Users, with when they last signed in',
    });
    expect(within(table).getByRole('cell', { name: 'ann@example.com' })).toBeTruthy();
  });

  it('tells a non-administrator they have no access without asking the server', async () => {
    signInAs(ROLES.webUser);
    const fetchMock = vi.fn(() => Promise.resolve(forbiddenResponse('Administrators only.')));
    vi.stubGlobal('fetch', fetchMock);
    renderUserList();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells an administrator the server refuses (the role taken away) that they have no access', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal('fetch', () => Promise.resolve(forbiddenResponse('Administrators only.')));
    renderUserList();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
  });
});
