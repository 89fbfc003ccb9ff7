// @vitest-environment jsdom
import { ROLES, SECRET_KEY_HEADER, type FeedbackItem } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSession } from '../features/auth/session.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { AdminFeedbackRoute, NO_MESSAGES } from './admin-feedback.tsx';
import { NO_ACCESS_MESSAGE } from './user-list.tsx';

const WITH_FILE: FeedbackItem = {
  id: 'f-2',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  subject: 'Multi-state discount',
  message: 'Please tell me about prices\nfor three states.',
  attachmentName: 'claims.csv',
  attachmentUrl: '/api/Feedback/file/f-2',
  receivedAt: '2026-05-02T10:15:00Z',
};
const WITHOUT_FILE: FeedbackItem = {
  ...WITH_FILE,
  id: 'f-1',
  firstName: 'Bo',
  lastName: 'Ray',
  email: 'bo@example.com',
  subject: 'Hello',
  message: 'A question.',
  attachmentName: null,
  attachmentUrl: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

function renderFeedback() {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/feedback" element={<AdminFeedbackRoute />} />
      <Route path="/login" element={<p>Login page</p>} />
    </Routes>,
    { route: '/admin/feedback' },
  );
}

describe('AdminFeedbackRoute', () => {
  it('lists the messages in a table, newest first, with the auth headers sent', async () => {
    signInAs(ROLES.admin);
    const fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, [WITH_FILE, WITHOUT_FILE])));
    vi.stubGlobal('fetch', fetchMock);
    renderFeedback();

    expect(screen.getByRole('heading', { level: 1, name: 'Messages' })).toBeTruthy();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => within(row).queryAllByRole('columnheader').length)).toEqual([6, 0, 0]);
    expect(within(rows[1]!).getByText('Ann Lee')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link', { name: 'ann@example.com' })).toHaveProperty(
      'href',
      'mailto:ann@example.com',
    );
    expect(within(rows[1]!).getByText('Multi-state discount')).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: 'Download claims.csv' })).toBeTruthy();
    expect(within(rows[2]!).getByText('Bo Ray')).toBeTruthy();
    expect(within(rows[2]!).queryByRole('button')).toBeNull();

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Feedback/list');
    expect(init.headers).toMatchObject({
      Authorization: 'Bearer access-1',
      [SECRET_KEY_HEADER]: 'secret-1',
    });
  });

  it('says when there are no messages', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, []))),
    );
    renderFeedback();

    expect(await screen.findByText(NO_MESSAGES)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells a non-administrator they have no access without asking the server, and keeps the session', async () => {
    signInAs(ROLES.webUser);
    const fetchMock = vi.fn(() =>
      Promise.resolve(forbiddenResponse('Only administrators can read messages.')),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderFeedback();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(readSession().token).toBe('access-1');
  });

  it('tells an administrator the server refuses (the role taken away) that they have no access', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(forbiddenResponse('Only administrators can read messages.'))),
    );
    renderFeedback();

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
  });

  it('shows the error of a failed load', async () => {
    signInAs(ROLES.admin);
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          jsonResponse(500, {
            isSuccess: false,
            statusCode: 500,
            error: 'Internal Server Error',
            message: 'The messages could not be read.',
          }),
        ),
      ),
    );
    renderFeedback();

    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The messages could not be read.',
    );
  });

  it('sends a visitor without a session to /login', () => {
    renderFeedback();
    expect(screen.getByText('Login page')).toBeTruthy();
  });

  it('downloads an attachment with the auth headers and saves it under its name', async () => {
    signInAs(ROLES.admin);
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url === '/api/Feedback/list'
          ? jsonResponse(200, [WITH_FILE])
          : new Response('a,b\n1,2', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const createObjectURL = vi.fn(() => 'blob:claims');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    let saved: { href: string; download: string } | null = null;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved = { href: this.href, download: this.download };
    });
    renderFeedback();

    const table = await screen.findByRole('table');
    fireEvent.click(within(table).getByRole('button', { name: 'Download claims.csv' }));

    await waitFor(() => expect(saved).toEqual({ href: 'blob:claims', download: 'claims.csv' }));
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Feedback/file/f-2');
    expect(init.headers).toMatchObject({ Authorization: 'Bearer access-1' });
    expect(createObjectURL).toHaveBeenCalledOnce();
  });
});

describe('AdminFeedbackRoute focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard back to the download button once the file is saved', async () => {
    signInAs(ROLES.admin);
    const held = heldAnswer();
    vi.stubGlobal('fetch', (url: string) =>
      url === '/api/Feedback/list'
        ? Promise.resolve(jsonResponse(200, [WITH_FILE]))
        : held.answer(),
    );
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:claims', revokeObjectURL: vi.fn() }),
    );
    const saved = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    renderFeedback();
    const download = within(await screen.findByRole('table')).getByRole('button', {
      name: 'Download claims.csv',
    });

    await pressAndLoseFocus(download);
    held.release(
      new Response('a,b\n1,2', { status: 200, headers: { 'Content-Type': 'text/csv' } }),
    );

    await waitFor(() => expect(saved).toHaveBeenCalledOnce());
    await waitFor(() => expect(document.activeElement).toBe(download));
  });
});
