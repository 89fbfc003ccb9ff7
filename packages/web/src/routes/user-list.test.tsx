// @vitest-environment jsdom
import { ROLES, type UserListItem } from '@ratelens/core';
import { cleanup, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { UserListRoute } from './user-list.tsx';

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

describe('UserListRoute', () => {
  it('names its table for screen readers', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(200, [ANN])));
    renderWithProviders(
      <Routes>
        <Route path="/userList" element={<UserListRoute />} />
      </Routes>,
      { route: '/userList' },
    );

    const table = await screen.findByRole('table', {
      name: 'Users, with when they last signed in',
    });
    expect(within(table).getByRole('cell', { name: 'ann@example.com' })).toBeTruthy();
  });
});
