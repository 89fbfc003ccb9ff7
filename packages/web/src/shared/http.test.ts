// @vitest-environment jsdom
import { ResultSchema } from '@ratelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render.tsx';
import {
  ApiRequestError,
  fileNameFromDisposition,
  NETWORK_ERROR_MESSAGE,
  requestJson,
  UNEXPECTED_ERROR_MESSAGE,
} from './http.ts';

afterEach(() => vi.unstubAllGlobals());

async function failure(promise: Promise<unknown>): Promise<ApiRequestError> {
  const error: unknown = await promise.catch((caught: unknown) => caught);
  if (!(error instanceof ApiRequestError)) throw new Error('expected an ApiRequestError');
  return error;
}

describe('requestJson', () => {
  it('sends JSON to the same-origin path and returns the validated answer', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(jsonResponse(200, { isSuccess: true, message: 'Sent.' })),
    );
    vi.stubGlobal('fetch', fetchMock);

    const result = await requestJson('/api/auth/ForgetPassword', {
      method: 'POST',
      body: { Email: 'ann@example.com' },
      schema: ResultSchema,
    });

    expect(result).toEqual({ isSuccess: true, message: 'Sent.' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/ForgetPassword',
      expect.objectContaining({ method: 'POST', body: '{"Email":"ann@example.com"}' }),
    );
  });

  it("turns the server's error shape into its message and field errors", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        jsonResponse(400, {
          isSuccess: false,
          statusCode: 400,
          error: 'Bad Request',
          message: 'Please correct the highlighted fields.',
          errors: [{ field: 'email', rule: 'invalid_format', message: 'Email is not valid.' }],
          requestId: 'req-7',
        }),
      ),
    );

    const error = await failure(requestJson('/api/Auth/Register', { method: 'POST', body: {} }));

    expect(error.status).toBe(400);
    expect(error.message).toBe('Please correct the highlighted fields.');
    expect(error.serverMessage).toBe('Please correct the highlighted fields.');
    expect(error.fieldErrors).toEqual([
      { field: 'email', rule: 'invalid_format', message: 'Email is not valid.' },
    ]);
    expect(error.requestId).toBe('req-7');
  });

  it('still shows the message of a failure that is not quite the error shape', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        jsonResponse(429, { message: 'Too many attempts. Try again in 15 minutes.' }),
      ),
    );

    const error = await failure(requestJson('/api/Auth/login', { method: 'POST', body: {} }));

    expect(error.status).toBe(429);
    expect(error.message).toBe('Too many attempts. Try again in 15 minutes.');
  });

  it('falls back to a generic message when a failure is not the error shape', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('<h1>Bad gateway</h1>', { status: 502 })),
    );

    const error = await failure(requestJson('/api/user/getusers'));

    expect(error.status).toBe(502);
    expect(error.serverMessage).toBeNull();
    expect(error.message).toBe(UNEXPECTED_ERROR_MESSAGE);
  });

  it('reports an unreachable server as status 0 with the network message', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));

    const error = await failure(requestJson('/api/Auth/login'));

    expect(error.status).toBe(0);
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('rejects a 2xx answer that breaks the contract', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(jsonResponse(200, { unexpected: true })));

    const error = await failure(requestJson('/api/auth/ConfirmEmail', { schema: ResultSchema }));

    expect(error.message).toBe(UNEXPECTED_ERROR_MESSAGE);
  });
});

describe('fileNameFromDisposition', () => {
  it("reads RFC 6266's encoded name first, then the quoted or bare one", () => {
    expect(
      fileNameFromDisposition(
        `attachment; filename="Alaska.xlsx"; filename*=UTF-8''New%20M%C3%A9xico.xlsx`,
      ),
    ).toBe('New México.xlsx');
    expect(fileNameFromDisposition('attachment; filename="Alaska \\"AK\\".xlsx"')).toBe(
      'Alaska "AK".xlsx',
    );
    expect(fileNameFromDisposition('attachment; filename=Alaska.xlsx')).toBe('Alaska.xlsx');
  });

  it('is null without a header or a name', () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('attachment')).toBeNull();
  });
});
