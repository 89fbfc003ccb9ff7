// @vitest-environment jsdom
import {
  ROLES,
  SECRET_KEY_HEADER,
  type OrganisationInput,
  type OrganisationView,
} from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_ACCESS_MESSAGE } from '../features/auth/guards.tsx';
import { readSession } from '../features/auth/session.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { forbiddenResponse, jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { AdminOrganisationsRoute, NO_ORGANISATIONS } from './admin-organisations.tsx';

const ACME: OrganisationView = {
  id: '0b7c4a52-2222-4b4b-9c9c-000000000001',
  name: 'Acme Health',
  accountEmail: 'hr@acme.example.com',
  employerAccess: true,
  ocrAccess: true,
  employerOcr: false,
  memberEmails: ['ann@example.com', 'bo@example.com'],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

type Call = [string, RequestInit | undefined];

const LIST = '/api/admin/organisations';

/**
 * A server whose organisation list follows POST, PUT and DELETE; `answers` overrides a write, or
 * only a DELETE (the list follows it when it is accepted).
 */
function stubServer(
  initial: OrganisationView[],
  answers: {
    list?: () => Response;
    write?: () => Response | Promise<Response>;
    delete?: () => Response | Promise<Response>;
  } = {},
) {
  let organisations = [...initial];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === LIST && method === 'GET') {
      return Promise.resolve(answers.list?.() ?? jsonResponse(200, organisations));
    }
    if (method !== 'GET' && answers.write) return Promise.resolve(answers.write());
    const input = (
      typeof init?.body === 'string' ? JSON.parse(init.body) : {}
    ) as OrganisationInput;
    if (url === LIST && method === 'POST') {
      const created: OrganisationView = { ...input, id: 'new-1' };
      organisations = [...organisations, created];
      return Promise.resolve(jsonResponse(200, created));
    }
    const id = url.startsWith(`${LIST}/`) ? url.slice(LIST.length + 1) : null;
    if (id !== null && method === 'PUT') {
      const updated: OrganisationView = { ...input, id };
      organisations = organisations.map((o) => (o.id === id ? updated : o));
      return Promise.resolve(jsonResponse(200, updated));
    }
    if (id !== null && method === 'DELETE') {
      const answer = answers.delete?.() ?? new Response(null, { status: 204 });
      return Promise.resolve(answer).then((response) => {
        if (response.ok) organisations = organisations.filter((o) => o.id !== id);
        return response;
      });
    }
    return Promise.resolve(jsonResponse(404, {}));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const writes = (fetchMock: ReturnType<typeof stubServer>) =>
  (fetchMock.mock.calls as Call[]).filter(([, init]) => (init?.method ?? 'GET') !== 'GET');

function type(scope: HTMLElement, label: RegExp, value: string) {
  const input = within(scope).getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function openAddDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Add organisation' }));
  return screen.findByRole('dialog', { name: 'Add organisation' });
}

function fillNew(dialog: HTMLElement, members: string) {
  type(dialog, /^Name/, 'Demo Employer');
  type(dialog, /^Account e-mail/, 'HR@Demo.example.com');
  type(dialog, /^Member e-mails/, members);
}

const conflict = () =>
  jsonResponse(409, {
    isSuccess: false,
    statusCode: 409,
    error: 'Conflict',
    message: 'ann@example.com is already a member of another organisation.',
  });

describe('AdminOrganisationsRoute', () => {
  it('lists the organisations with their flags and member count, with the auth headers sent', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminOrganisationsRoute />);

    expect(screen.getByRole('heading', { level: 1, name: 'Organisations' })).toBeTruthy();
    const table = await screen.findByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual([
      'Name',
      'Account e-mail',
      'Employer access',
      'OCR access',
      'Employer pays for OCR',
      'Members',
      'Actions',
    ]);
    const row = within(table).getByRole('row', { name: /Acme Health/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['hr@acme.example.com', 'Yes', 'Yes', 'No', '2', 'EditDelete']);
    expect(within(row).getByRole('button', { name: 'Edit Acme Health' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Delete Acme Health' })).toBeTruthy();

    const [url, init] = (fetchMock.mock.calls as Call[])[0]!;
    expect(url).toBe(LIST);
    expect(init?.headers).toMatchObject({
      Authorization: 'Bearer access-1',
      [SECRET_KEY_HEADER]: 'secret-1',
    });
  });

  it('says when there are no organisations', async () => {
    signInAs(ROLES.admin);
    stubServer([]);
    renderWithProviders(<AdminOrganisationsRoute />);
    expect(await screen.findByText(NO_ORGANISATIONS)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('tells a non-administrator they have no access, without asking the server', () => {
    signInAs(ROLES.webUser);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminOrganisationsRoute />);
    expect(screen.getByRole('alert').textContent).toBe(NO_ACCESS_MESSAGE);
    expect(screen.queryByRole('button', { name: 'Add organisation' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows no access when the server refuses the list, and keeps the session', async () => {
    signInAs(ROLES.admin);
    stubServer([], {
      list: () => forbiddenResponse('Only administrators can manage organisations.'),
    });
    renderWithProviders(<AdminOrganisationsRoute />);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', NO_ACCESS_MESSAGE);
    expect(readSession().token).toBe('access-1');
  });

  it('shows the error of a failed load', async () => {
    signInAs(ROLES.admin);
    stubServer([], {
      list: () =>
        jsonResponse(500, {
          isSuccess: false,
          statusCode: 500,
          error: 'Internal Server Error',
          message: 'Something went wrong on our side. Please try again.',
        }),
    });
    renderWithProviders(<AdminOrganisationsRoute />);
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Something went wrong on our side. Please try again.',
    );
  });

  it('adds an organisation with its flags and members, and lists it', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([]);
    renderWithProviders(<AdminOrganisationsRoute />);

    const dialog = await openAddDialog();
    expect(within(dialog).getByRole('checkbox', { name: /^Employer access/ })).toHaveProperty(
      'checked',
      true,
    );
    fillNew(dialog, 'Ann@Example.com\nbo@example.com, cy@example.com');
    expect(within(dialog).getByText(/3 addresses\.$/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'OCR access' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add organisation' }));

    expect(await screen.findByText('Demo Employer was added.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [post] = writes(fetchMock);
    expect(post?.[0]).toBe(LIST);
    expect(post?.[1]?.method).toBe('POST');
    expect(JSON.parse(post?.[1]?.body as string)).toEqual({
      name: 'Demo Employer',
      accountEmail: 'hr@demo.example.com',
      employerAccess: true,
      ocrAccess: true,
      employerOcr: false,
      memberEmails: ['ann@example.com', 'bo@example.com', 'cy@example.com'],
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('row', { name: /Demo Employer/ })).toBeTruthy();
  });

  it('names an invalid member address and sends nothing', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([]);
    renderWithProviders(<AdminOrganisationsRoute />);

    const dialog = await openAddDialog();
    fillNew(dialog, 'ann@example.com\nbo@example');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add organisation' }));

    expect(
      await within(dialog).findByText('This is not a valid e-mail address: bo@example'),
    ).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/^Member e-mails/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(writes(fetchMock)).toEqual([]);
  });

  it("shows the server's conflict in the form and keeps what was typed", async () => {
    signInAs(ROLES.admin);
    stubServer([], { write: conflict });
    renderWithProviders(<AdminOrganisationsRoute />);

    const dialog = await openAddDialog();
    fillNew(dialog, 'ann@example.com');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add organisation' }));

    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'ann@example.com is already a member of another organisation.',
    );
    expect(within(dialog).getByLabelText(/^Name/)).toHaveProperty('value', 'Demo Employer');
    expect(readSession().token).toBe('access-1');
  });

  it("puts the server's field messages on their fields", async () => {
    signInAs(ROLES.admin);
    stubServer([], {
      write: () =>
        jsonResponse(400, {
          isSuccess: false,
          statusCode: 400,
          error: 'Bad Request',
          message: 'name must not be more than 120 characters.',
          errors: [
            {
              field: 'name',
              rule: 'too_big',
              message: 'name must not be more than 120 characters.',
            },
          ],
        }),
    });
    renderWithProviders(<AdminOrganisationsRoute />);

    const dialog = await openAddDialog();
    fillNew(dialog, '');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add organisation' }));

    await within(dialog).findByRole('alert');
    expect(within(dialog).getAllByText('name must not be more than 120 characters.')).toHaveLength(
      2,
    );
    expect(within(dialog).getByLabelText(/^Name/).getAttribute('aria-invalid')).toBe('true');
    expect(readSession().token).toBe('access-1');
  });

  it('edits an organisation in a filled-in form and replaces its members', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminOrganisationsRoute />);

    const table = await screen.findByRole('table');
    fireEvent.click(within(table).getByRole('button', { name: 'Edit Acme Health' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit organisation' });
    expect(within(dialog).getByLabelText(/^Name/)).toHaveProperty('value', 'Acme Health');
    expect(within(dialog).getByLabelText(/^Member e-mails/)).toHaveProperty(
      'value',
      'ann@example.com\nbo@example.com',
    );
    expect(within(dialog).getByRole('checkbox', { name: 'OCR access' })).toHaveProperty(
      'checked',
      true,
    );

    type(dialog, /^Name/, 'Acme Health West');
    type(dialog, /^Member e-mails/, 'bo@example.com');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Employer pays for OCR' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Acme Health West was saved.')).toBeTruthy();
    const [put] = writes(fetchMock);
    expect(put?.[0]).toBe(`${LIST}/${ACME.id}`);
    expect(put?.[1]?.method).toBe('PUT');
    expect(JSON.parse(put?.[1]?.body as string)).toEqual({
      name: 'Acme Health West',
      accountEmail: ACME.accountEmail,
      employerAccess: true,
      ocrAccess: true,
      employerOcr: true,
      memberEmails: ['bo@example.com'],
    });
    const row = await within(await screen.findByRole('table')).findByRole('row', {
      name: /Acme Health West/,
    });
    expect(within(row).getAllByRole('cell')[4]?.textContent).toBe('1');
  });

  it('asks for confirmation before deleting an organisation', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminOrganisationsRoute />);

    const table = await screen.findByRole('table');
    fireEvent.click(within(table).getByRole('button', { name: 'Delete Acme Health' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete organisation' });
    expect(
      within(dialog).getByText(/Delete Acme Health\? Its account and its 2 members/),
    ).toBeTruthy();
    expect(writes(fetchMock)).toEqual([]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));

    expect(await screen.findByText('Acme Health was deleted.')).toBeTruthy();
    const [remove] = writes(fetchMock);
    expect(remove?.[0]).toBe(`${LIST}/${ACME.id}`);
    expect(remove?.[1]?.method).toBe('DELETE');
    expect(await screen.findByText(NO_ORGANISATIONS)).toBeTruthy();
  });

  it('deletes nothing when the confirmation is cancelled', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminOrganisationsRoute />);

    const table = await screen.findByRole('table');
    fireEvent.click(within(table).getByRole('button', { name: 'Delete Acme Health' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete organisation' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(fetchMock)).toEqual([]);
    expect(within(table).getByRole('row', { name: /Acme Health/ })).toBeTruthy();
  });
});

describe('AdminOrganisationsRoute focus', () => {
  describe('where the busy button loses the focus, as in Chromium', () => {
    dropFocusFromDisabledControls();

    it('gives the keyboard to the error when the organisation is refused, not to the top of the page', async () => {
      signInAs(ROLES.admin);
      const held = heldAnswer();
      stubServer([], { write: held.answer });
      renderWithProviders(<AdminOrganisationsRoute />);
      const dialog = await openAddDialog();
      fillNew(dialog, 'ann@example.com');

      await pressAndLoseFocus(within(dialog).getByRole('button', { name: 'Add organisation' }));
      held.release(conflict());

      const alert = await within(dialog).findByRole('alert');
      await waitFor(() => expect(document.activeElement).toBe(alert));
    });
    /** Opens the deletion of Acme Health from the keyboard and presses 'Yes, delete'. */
    async function pressDelete(): Promise<HTMLElement> {
      const open = within(await screen.findByRole('table')).getByRole('button', {
        name: 'Delete Acme Health',
      });
      open.focus();
      fireEvent.click(open);
      const dialog = await screen.findByRole('dialog', { name: 'Delete organisation' });
      await pressAndLoseFocus(within(dialog).getByRole('button', { name: 'Yes, delete' }));
      return dialog;
    }

    it('gives the keyboard to the notice of a deletion, not to the top of the page', async () => {
      signInAs(ROLES.admin);
      const held = heldAnswer();
      stubServer([ACME], { delete: held.answer });
      renderWithProviders(<AdminOrganisationsRoute />);

      await pressDelete();
      held.release(new Response(null, { status: 204 }));

      const notice = await screen.findByRole('status');
      expect(notice.textContent).toBe('Acme Health was deleted.');
      expect(notice.getAttribute('aria-live')).toBe('polite');
      expect(notice.getAttribute('tabindex')).toBe('-1');
      await waitFor(() => expect(document.activeElement).toBe(notice));
      // The dialog closed and the button that opened it went with its row: the focus stays.
      expect(await screen.findByText(NO_ORGANISATIONS)).toBeTruthy();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(document.activeElement).toBe(notice);
    });

    it('gives the keyboard to the error when a deletion is refused, keeping the dialog', async () => {
      signInAs(ROLES.admin);
      const held = heldAnswer();
      stubServer([ACME], { delete: held.answer });
      renderWithProviders(<AdminOrganisationsRoute />);

      const dialog = await pressDelete();
      held.release(conflict());

      const alert = await within(dialog).findByRole('alert');
      await waitFor(() => expect(document.activeElement).toBe(alert));
      expect(screen.queryByRole('status')).toBeNull();
    });
  });

  describe('where the busy button keeps the focus (no focus fixup)', () => {
    it('moves the keyboard from the button to the error when the organisation is refused', async () => {
      signInAs(ROLES.admin);
      const held = heldAnswer();
      stubServer([], { write: held.answer });
      renderWithProviders(<AdminOrganisationsRoute />);
      const dialog = await openAddDialog();
      fillNew(dialog, 'ann@example.com');
      const add = within(dialog).getByRole('button', { name: 'Add organisation' });
      add.focus();
      fireEvent.click(add);
      await waitFor(() => expect(add).toHaveProperty('disabled', true));
      expect(document.activeElement).toBe(add);

      held.release(conflict());

      const alert = await within(dialog).findByRole('alert');
      await waitFor(() => expect(document.activeElement).toBe(alert));
    });
  });
});
