// @vitest-environment jsdom
import { ROLES } from '@ratelens/core';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render.tsx';
import { signInAs as signIn } from '../test/sign-in.ts';
import { AppHeader } from './app-header.tsx';

function mainNavLinks(): string[] {
  const nav = screen.getByRole('navigation', { name: 'Main' });
  return within(nav)
    .getAllByRole('link')
    .map((link) => link.textContent);
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('AppHeader', () => {
  it('offers sign-up and sign-in, without Subscription, Rates and Vindex, when signed out', () => {
    renderWithProviders(<AppHeader />);

    expect(screen.getByRole('link', { name: 'Sign up for Rates/Try Vindex' })).toHaveProperty(
      'pathname',
      '/registration',
    );
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveProperty('pathname', '/login');
    expect(mainNavLinks()).toEqual([
      'Home',
      'Inventory List',
      'Rx Wholesaler',
      'Products & services',
      'Our Mission',
      'Our Partners',
    ]);
  });

  it('greets a signed-in person and shows the full navigation', () => {
    signIn(ROLES.webUser);
    renderWithProviders(<AppHeader />);

    expect(screen.getByText('Hello, ann@example.com')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveProperty('pathname', '/profile');
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveProperty('pathname', '/logout');
    expect(screen.queryByRole('link', { name: 'Sign In' })).toBeNull();
    expect(mainNavLinks()).toEqual([
      'Home',
      'Inventory List',
      'Rx Wholesaler',
      'Products & services',
      'Subscription',
      'Rates',
      'Our Mission',
      'Our Partners',
      'Vindex',
    ]);
  });

  it('adds the user list, the messages, the partners, the organisations, the plan design and the catalogue for an administrator only', () => {
    signIn(ROLES.admin);
    renderWithProviders(<AppHeader />);

    expect(screen.getByRole('link', { name: 'Users' })).toHaveProperty('pathname', '/userList');
    expect(screen.getByRole('link', { name: 'Messages' })).toHaveProperty(
      'pathname',
      '/admin/feedback',
    );
    expect(screen.getByRole('link', { name: 'Partners' })).toHaveProperty(
      'pathname',
      '/admin/partners',
    );
    expect(screen.getByRole('link', { name: 'Organisations' })).toHaveProperty(
      'pathname',
      '/admin/organisations',
    );
    expect(screen.getByRole('link', { name: 'Plan design' })).toHaveProperty(
      'pathname',
      '/admin/plan-design',
    );
    expect(screen.getByRole('link', { name: 'Catalogue' })).toHaveProperty(
      'pathname',
      '/admin/catalogue',
    );
    // Their own row, so that the main one stays on one line (15 links did not fit at 1,440 px).
    const admin = screen.getByRole('navigation', { name: 'Administration' });
    expect(
      within(admin)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Users',
      'Messages',
      'Partners',
      'Organisations',
      'Plan design',
      'Catalogue',
      'Files',
    ]);
    expect(mainNavLinks()).toHaveLength(9);
  });

  it('has no administration navigation for anyone else', () => {
    signIn(ROLES.webUser);
    renderWithProviders(<AppHeader />);

    expect(screen.queryByRole('navigation', { name: 'Administration' })).toBeNull();
  });
});
