// @vitest-environment jsdom
import { CONTACT_MESSAGES } from '@ratelens/core';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/api-stub.ts';
import { dropFocusFromDisabledControls, heldAnswer, pressAndLoseFocus } from '../../test/focus.ts';
import { jsonResponse, renderWithProviders } from '../../test/render.tsx';
import { ContactForm } from './contact-form.tsx';
import { UPLOAD_NETWORK_MESSAGE } from './public-api.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function type(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillValidForm() {
  type(/^First Name/, 'Ann');
  type(/^Last Name/, 'Lee');
  type(/^Email/, 'ann@example.com');
  type(/^Subject/, 'Multi-state discount');
  type(/^Message/, 'Please tell me about prices for three states.');
}

function chooseFile(container: HTMLElement, file: File) {
  const input = container.querySelector('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [file] } });
}

const sendButton = () => screen.getByRole('button', { name: 'Send message' });

describe('ContactForm', () => {
  it('says a first name with digits is not alphabetic', async () => {
    renderWithProviders(<ContactForm />);
    type(/^First Name/, 'Ann2');
    expect(await screen.findByText(CONTACT_MESSAGES.firstNameAlphabetic)).toBeTruthy();
  });

  it('says a 51-character last name is too long', async () => {
    renderWithProviders(<ContactForm />);
    type(/^Last Name/, 'a'.repeat(51));
    expect(await screen.findByText(CONTACT_MESSAGES.lastNameTooLong)).toBeTruthy();
  });

  it('says an e-mail address without a domain is not valid', async () => {
    renderWithProviders(<ContactForm />);
    type(/^Email/, 'ann@');
    expect(await screen.findByText('Email is not valid.')).toBeTruthy();
  });

  it('shows the required message only once an empty field has been touched', async () => {
    renderWithProviders(<ContactForm />);
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', true));
    expect(screen.queryByText(CONTACT_MESSAGES.required)).toBeNull();

    fireEvent.blur(screen.getByLabelText(/^Subject/));

    expect(await screen.findByText(CONTACT_MESSAGES.required)).toBeTruthy();
  });

  it('keeps Send disabled until every required field is valid', async () => {
    renderWithProviders(<ContactForm />);
    expect(sendButton()).toHaveProperty('disabled', true);
    type(/^First Name/, 'Ann');
    type(/^Last Name/, 'Lee');
    type(/^Email/, 'ann@example.com');
    type(/^Subject/, 'Hello');
    await waitFor(() => expect(screen.getByLabelText(/^Subject/)).toHaveProperty('value', 'Hello'));
    expect(sendButton()).toHaveProperty('disabled', true);

    type(/^Message/, 'A question.');
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));
  });

  it('sends the form, shows the server message and clears the fields', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(jsonResponse(200, { isSuccess: true, message: 'Thank you, we will reply.' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<ContactForm />);
    fillValidForm();
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));

    fireEvent.click(sendButton());

    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'Thank you, we will reply.',
    );
    expect(screen.getByLabelText(/^First Name/)).toHaveProperty('value', '');
    expect(screen.getByLabelText(/^Message/)).toHaveProperty('value', '');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/Feedback/savefeedback');
    expect(JSON.parse(init.body as string)).toEqual({
      FirstName: 'Ann',
      LastName: 'Lee',
      email: 'ann@example.com',
      subject: 'Multi-state discount',
      message: 'Please tell me about prices for three states.',
      fileName: '',
    });
  });

  it('shows the server message when the form is refused', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(jsonResponse(200, { isSuccess: false, message: 'Try later.' }))),
    );
    renderWithProviders(<ContactForm />);
    fillValidForm();
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));

    fireEvent.click(sendButton());

    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Try later.');
    expect(screen.getByLabelText(/^First Name/)).toHaveProperty('value', 'Ann');
  });

  it('uploads a chosen file at once and sends its token as fileName', async () => {
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url === '/api/Feedback/uploadfeedbackfile'
          ? jsonResponse(200, { isSuccess: true, message: 'token-123' })
          : jsonResponse(200, { isSuccess: true, message: 'Sent.' }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const { container } = renderWithProviders(<ContactForm />);

    chooseFile(container, new File(['a,b\n1,2'], 'claims.csv', { type: 'text/csv' }));

    expect(await screen.findByText('Attached: claims.csv')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove claims.csv' })).toBeTruthy();
    const uploadBody = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body;
    expect(uploadBody).toBeInstanceOf(FormData);
    expect((uploadBody as FormData).get('File')).toHaveProperty('name', 'claims.csv');

    fillValidForm();
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));
    fireEvent.click(sendButton());
    await screen.findByText('Sent.');
    const saved = (fetchMock.mock.calls[1] as unknown as [string, RequestInit])[1].body;
    expect(JSON.parse(saved as string)).toHaveProperty('fileName', 'token-123');
  });

  it('takes the keyboard to the file field when the attachment is removed', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(jsonResponse(200, { isSuccess: true, message: 'token-123' })),
    );
    const { container } = renderWithProviders(<ContactForm />);
    chooseFile(container, new File(['a,b\n1,2'], 'claims.csv', { type: 'text/csv' }));

    const remove = await screen.findByRole('button', { name: 'Remove claims.csv' });
    remove.focus();
    fireEvent.click(remove);

    await waitFor(() => expect(screen.queryByText('Attached: claims.csv')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Attachment/ }));
  });

  it("shows the server's message when the upload is refused", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          jsonResponse(400, {
            isSuccess: false,
            statusCode: 400,
            message: 'This file type is not accepted.',
          }),
        ),
      ),
    );
    const { container } = renderWithProviders(<ContactForm />);

    chooseFile(container, new File(['x'], 'photo.png', { type: 'image/png' }));

    expect(await screen.findByText('This file type is not accepted.')).toBeTruthy();
    expect(screen.queryByText(/Attached:/)).toBeNull();
  });

  it('shows the network message when the upload cannot reach the server', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { container } = renderWithProviders(<ContactForm />);

    chooseFile(container, new File(['x'], 'claims.csv', { type: 'text/csv' }));

    expect(await screen.findByText(UPLOAD_NETWORK_MESSAGE)).toBeTruthy();
  });
});

describe('ContactForm focus', () => {
  dropFocusFromDisabledControls();

  it('gives the keyboard to the answer once the message is sent and the emptied form is closed', async () => {
    const held = heldAnswer();
    stubApi({ '/api/Feedback/savefeedback': held.answer });
    renderWithProviders(<ContactForm />);
    fillValidForm();
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));

    await pressAndLoseFocus(sendButton());
    held.release(jsonResponse(200, { isSuccess: true, message: 'Thank you, we will reply.' }));

    const answer = await screen.findByRole('status');
    expect(answer.textContent).toBe('Thank you, we will reply.');
    await waitFor(() => expect(document.activeElement).toBe(answer));
    expect(sendButton()).toHaveProperty('disabled', true);
  });
});
