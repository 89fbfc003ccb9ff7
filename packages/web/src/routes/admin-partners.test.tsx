// @vitest-environment jsdom
import { ROLES, type Partner } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PARTNER_MESSAGES } from '../features/admin/partner-form.tsx';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../test/render.tsx';
import { signInAs } from '../test/sign-in.ts';
import { AdminPartnersRoute, NO_PARTNERS } from './admin-partners.tsx';
import { NO_ACCESS_MESSAGE } from './user-list.tsx';

const ACME: Partner = {
  id: '7d2f7c1e-1111-4a4a-8a8a-000000000001',
  name: 'Acme Health',
  website: 'https://acme.example.org',
  imageurl: '/api/Partner/image/7d2f7c1e-1111-4a4a-8a8a-000000000001',
  imageWidth: 240,
  imageHeight: 80,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

type Call = [string, RequestInit | undefined];

/** A server with a partner list that follows POST and DELETE (an accepted one, when overridden). */
function stubServer(
  initial: Partner[],
  answers: {
    post?: () => Response | Promise<Response>;
    delete?: () => Response | Promise<Response>;
  } = {},
) {
  let partners = [...initial];
  const fetchMock = vi.fn((url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (url === '/api/Partner/list') return Promise.resolve(jsonResponse(200, { data: partners }));
    if (url === '/api/Partner' && method === 'POST') {
      if (answers.post) return Promise.resolve(answers.post());
      const body = init?.body as FormData;
      const created: Partner = { ...ACME, id: 'new-1', name: body.get('name') as string };
      partners = [...partners, created];
      return Promise.resolve(jsonResponse(200, created));
    }
    if (url.startsWith('/api/Partner/') && method === 'DELETE') {
      const answer =
        answers.delete?.() ?? jsonResponse(200, { isSuccess: true, message: 'Removed.' });
      return Promise.resolve(answer).then((response) => {
        if (response.ok) partners = partners.filter((p) => url !== `/api/Partner/${p.id}`);
        return response;
      });
    }
    return Promise.resolve(jsonResponse(404, {}));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function type(label: RegExp, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

function chooseLogo(container: HTMLElement, file: File) {
  const input = container.querySelector('input[type="file"][name="image"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

const png = (bytes: number, name = 'logo.png') =>
  new File([new Uint8Array(bytes)], name, { type: 'image/png' });

const addButton = () => screen.getByRole('button', { name: 'Add partner' });

describe('AdminPartnersRoute', () => {
  it('lists the partners with their logo, name and website', async () => {
    signInAs(ROLES.admin);
    stubServer([ACME]);
    renderWithProviders(<AdminPartnersRoute />);

    expect(screen.getByRole('heading', { level: 1, name: 'Partners' })).toBeTruthy();
    expect(await screen.findByText('Acme Health')).toBeTruthy();
    const logo = screen.getAllByRole('presentation').find((el) => el.tagName === 'IMG');
    expect(logo?.getAttribute('width')).toBe('240');
    expect(logo?.getAttribute('height')).toBe('80');
    expect(screen.getByRole('link', { name: 'https://acme.example.org' })).toHaveProperty(
      'href',
      'https://acme.example.org/',
    );
    // Named for its partner, shown as "Remove": a long name does not make the button overflow.
    expect(screen.getByRole('button', { name: 'Remove Acme Health' }).textContent).toBe('Remove');
  });

  it('says when there are no partners', async () => {
    signInAs(ROLES.admin);
    stubServer([]);
    renderWithProviders(<AdminPartnersRoute />);
    expect(await screen.findByText(NO_PARTNERS)).toBeTruthy();
  });

  it('tells a non-administrator they have no access', () => {
    signInAs(ROLES.webUser);
    stubServer([ACME]);
    renderWithProviders(<AdminPartnersRoute />);
    expect(screen.getByRole('alert').textContent).toBe(NO_ACCESS_MESSAGE);
    expect(screen.queryByRole('button', { name: 'Add partner' })).toBeNull();
  });

  it('wants a website starting with https://', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([]);
    renderWithProviders(<AdminPartnersRoute />);

    type(/^Website/, 'http://acme.example.org');
    expect(await screen.findByText(PARTNER_MESSAGES.websiteHttps)).toBeTruthy();

    type(/^Website/, 'https://acme.example.org');
    await waitFor(() => expect(screen.queryByText(PARTNER_MESSAGES.websiteHttps)).toBeNull());
    fireEvent.click(addButton());
    expect(await screen.findByText(PARTNER_MESSAGES.logoRequired)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/Partner')).toBe(false);
  });

  it('refuses a logo over 1 MB before sending anything', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([]);
    const { container } = renderWithProviders(<AdminPartnersRoute />);
    type(/^Name/, 'Acme Health');
    type(/^Website/, 'https://acme.example.org');

    chooseLogo(container, png(1024 * 1024 + 1));
    expect(await screen.findByText(PARTNER_MESSAGES.logoTooLarge)).toBeTruthy();
    fireEvent.click(addButton());
    await screen.findByText(PARTNER_MESSAGES.logoTooLarge);
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/Partner')).toBe(false);
  });

  it('posts the form as multipart, clears it and refreshes the list', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([]);
    const { container } = renderWithProviders(<AdminPartnersRoute />);
    await screen.findByText(NO_PARTNERS);
    type(/^Name/, 'Acme Health');
    type(/^Website/, 'https://acme.example.org');
    type(/^Position/, '3');
    chooseLogo(container, png(1024 * 1024, 'acme.png'));
    // The chosen file can be dropped again by a named button.
    const removeLogo = screen.getByRole('button', { name: 'Remove the chosen logo' });
    fireEvent.click(removeLogo);
    expect(screen.getByText('Choose an image')).toBeTruthy();
    chooseLogo(container, png(1024 * 1024, 'acme.png'));

    fireEvent.click(addButton());

    expect(await screen.findByText('Acme Health was added.')).toBeTruthy();
    const post = (fetchMock.mock.calls as Call[]).find(([url]) => url === '/api/Partner');
    const body = post?.[1]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('name')).toBe('Acme Health');
    expect(body.get('website')).toBe('https://acme.example.org');
    expect(body.get('position')).toBe('3');
    expect(body.get('image')).toHaveProperty('name', 'acme.png');
    expect(post?.[1]?.headers).toMatchObject({ Authorization: 'Bearer access-1' });
    expect(post?.[1]?.headers).not.toHaveProperty('Content-Type');

    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', '');
    expect(screen.getByLabelText(/^Website/)).toHaveProperty('value', '');
    expect(screen.getByLabelText(/^Position/)).toHaveProperty('value', '');
    expect(screen.getByText('Choose an image')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Remove Acme Health' })).toBeTruthy();
  });

  it("shows the server's message and its field messages when the partner is refused", async () => {
    signInAs(ROLES.admin);
    stubServer([], {
      post: () =>
        jsonResponse(400, {
          isSuccess: false,
          statusCode: 400,
          error: 'Bad Request',
          message: 'The image must be a PNG, JPEG, WebP or SVG file.',
          errors: [
            {
              field: 'image',
              rule: 'file-type',
              message: 'The image must be a PNG, JPEG, WebP or SVG file.',
            },
          ],
        }),
    });
    const { container } = renderWithProviders(<AdminPartnersRoute />);
    type(/^Name/, 'Acme Health');
    type(/^Website/, 'https://acme.example.org');
    chooseLogo(container, png(10));

    fireEvent.click(addButton());

    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The image must be a PNG, JPEG, WebP or SVG file.',
    );
    expect(screen.getAllByText('The image must be a PNG, JPEG, WebP or SVG file.')).toHaveLength(2);
    expect(screen.getByLabelText(/^Name/)).toHaveProperty('value', 'Acme Health');
    // A validation answer (400) does not end the session.
    expect(localStorage.length).toBeGreaterThan(0);
  });

  it('asks for confirmation before removing a partner', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminPartnersRoute />);

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Acme Health' }));

    const dialog = await screen.findByRole('dialog', { name: 'Remove partner' });
    expect(within(dialog).getByText(/Remove Acme Health from the partners\?/)).toBeTruthy();
    expect((fetchMock.mock.calls as Call[]).some(([, init]) => init?.method === 'DELETE')).toBe(
      false,
    );

    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, remove' }));

    expect(await screen.findByText('Acme Health was removed.')).toBeTruthy();
    const remove = (fetchMock.mock.calls as Call[]).find(([, init]) => init?.method === 'DELETE');
    expect(remove?.[0]).toBe(`/api/Partner/${ACME.id}`);
    expect(await screen.findByText(NO_PARTNERS)).toBeTruthy();
  });

  it('removes nothing when the confirmation is cancelled', async () => {
    signInAs(ROLES.admin);
    const fetchMock = stubServer([ACME]);
    renderWithProviders(<AdminPartnersRoute />);

    fireEvent.click(await screen.findByRole('button', { name: 'Remove Acme Health' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove partner' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((fetchMock.mock.calls as Call[]).some(([, init]) => init?.method === 'DELETE')).toBe(
      false,
    );
    expect(screen.getByText('Acme Health')).toBeTruthy();
  });
});

describe('AdminPartnersRoute focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the answer once the partner is added and the form emptied', async () => {
    signInAs(ROLES.admin);
    const held = heldAnswer();
    stubServer([], { post: held.answer });
    const { container } = renderWithProviders(<AdminPartnersRoute />);
    await screen.findByText(NO_PARTNERS);
    type(/^Name/, 'Acme Health');
    type(/^Website/, 'https://acme.example.org');
    chooseLogo(container, png(10));

    await pressAndLoseFocus(addButton());
    held.release(jsonResponse(200, ACME));

    const answer = (await screen.findByText('Acme Health was added.')).closest('[role="status"]');
    await waitFor(() => expect(document.activeElement).toBe(answer));
  });

  /** Opens the removal of Acme Health from the keyboard and presses 'Yes, remove'. */
  async function pressRemove(): Promise<void> {
    const open = await screen.findByRole('button', { name: 'Remove Acme Health' });
    open.focus();
    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Remove partner' });
    await pressAndLoseFocus(within(dialog).getByRole('button', { name: 'Yes, remove' }));
  }

  it('gives the keyboard to the notice of a removal, not to the top of the page', async () => {
    signInAs(ROLES.admin);
    const held = heldAnswer();
    stubServer([ACME], { delete: held.answer });
    renderWithProviders(<AdminPartnersRoute />);

    await pressRemove();
    held.release(jsonResponse(200, { isSuccess: true, message: 'Removed.' }));

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toBe('Acme Health was removed.');
    expect(notice.getAttribute('aria-live')).toBe('polite');
    expect(notice.getAttribute('tabindex')).toBe('-1');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    // The dialog closed and the button that opened it went with its row: the focus stays.
    expect(await screen.findByText(NO_PARTNERS)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(notice);
  });

  it('gives the keyboard to the error when a removal is refused, keeping the dialog', async () => {
    signInAs(ROLES.admin);
    const held = heldAnswer();
    stubServer([ACME], { delete: held.answer });
    renderWithProviders(<AdminPartnersRoute />);

    await pressRemove();
    held.release(
      jsonResponse(404, {
        isSuccess: false,
        statusCode: 404,
        error: 'Not Found',
        message: 'The partner was not found.',
      }),
    );

    const dialog = screen.getByRole('dialog', { name: 'Remove partner' });
    const alert = await within(dialog).findByRole('alert');
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
