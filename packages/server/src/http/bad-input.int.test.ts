import { connect } from 'node:net';
import type { ApiError } from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import { authHeaders, signedInUser, useTestApp } from '../test/app.ts';
import { multipart, pdf } from '../test/files.ts';

const test = useTestApp();

const fieldOf = (body: ApiError) => body.errors?.map(({ field, rule }) => ({ field, rule }));

describe('text with a NUL character', () => {
  it('is refused with a 400 naming the field, in a body, a query or JSON in a query', async () => {
    const saved = await test.app.inject({
      method: 'POST',
      url: '/api/Feedback/savefeedback',
      payload: {
        FirstName: 'Jane',
        LastName: 'Doe',
        email: 'jane@example.com',
        subject: 'Rates',
        message: 'a\u0000b',
        fileName: '',
      },
    });
    expect(saved.statusCode).toBe(400);
    expect(fieldOf(saved.json<ApiError>())).toEqual([
      { field: 'message', rule: 'no_nul_character' },
    ]);
    expect(saved.json<ApiError>().message).toBe('message must not contain a NUL character.');

    const areas = await test.app.inject({
      method: 'GET',
      url: '/api/inventory/getmsabystatename?state=%00',
    });
    expect(areas.statusCode).toBe(400);
    expect(fieldOf(areas.json<ApiError>())).toEqual([{ field: 'state', rule: 'no_nul_character' }]);

    const filter = JSON.stringify({ statename: '\u0000', msaId: '11260' });
    const hospitals = await test.app.inject({
      method: 'GET',
      url: `/api/Inventory/getHospitalbyFilter?FilterJson=${encodeURIComponent(filter)}`,
    });
    expect(hospitals.statusCode).toBe(400);
    expect(fieldOf(hospitals.json<ApiError>())).toEqual([
      { field: 'FilterJson.statename', rule: 'no_nul_character' },
    ]);
  });
});

describe('a multipart upload the parser cannot read', () => {
  const upload = (payload: Buffer | string, headers: Record<string, string>) =>
    test.app.inject({
      method: 'POST',
      url: '/api/Feedback/uploadfeedbackfile',
      payload,
      headers,
    });

  it('is a 400 with a message, not a 500: no boundary, cut short, two files, a NUL', async () => {
    const whole = multipart([{ name: 'File', filename: 'bill.pdf', content: pdf() }]);
    const cases = [
      upload(whole.payload, { 'content-type': 'multipart/form-data' }),
      upload(whole.payload.subarray(0, whole.payload.length - 20), whole.headers),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.statusCode).toBe(400);
      expect(response.json<ApiError>().message).toBe(
        'The upload could not be read: send it as a whole multipart/form-data form with one file.',
      );
    }
    const two = multipart([
      { name: 'File', filename: 'a.pdf', content: pdf() },
      { name: 'File', filename: 'b.pdf', content: pdf() },
    ]);
    const twoFiles = await upload(two.payload, two.headers);
    expect(twoFiles.statusCode).toBe(400);
    expect(twoFiles.json<ApiError>().message).toBe('Attach one file only.');

    const named = multipart([
      { name: 'note', value: 'a\u0000b' },
      { name: 'File', filename: 'a.pdf', content: pdf() },
    ]);
    const nul = await upload(named.payload, named.headers);
    expect(nul.statusCode).toBe(400);
    expect(fieldOf(nul.json<ApiError>())).toEqual([{ field: 'note', rule: 'no_nul_character' }]);
  });
});

describe('a request Fastify or Node refuse before any route', () => {
  it('answers in the ApiError shape with the baseline headers, without echoing the path', async () => {
    const long = 'a'.repeat(101);
    for (const [url, status, message] of [
      [
        '/api/Inventory/hospital/%E0%A4%A',
        400,
        'The address is not valid: it holds a broken %-escape.',
      ],
      [
        `/api/Inventory/hospital/${long}`,
        414,
        'The address is too long: a part of it is over 100 characters.',
      ],
    ] as const) {
      const response = await test.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(status);
      expect(response.json<ApiError>()).toMatchObject({
        isSuccess: false,
        statusCode: status,
        message,
      });
      expect(response.json<ApiError>().requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.body).not.toContain(long);
    }
  });

  it('answers HTTP it cannot parse in the ApiError shape: a garbled request line, huge headers', async () => {
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const exchange = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const garbled = await exchange('GARBAGE\r\n\r\n');
    expect(garbled).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(garbled).toContain('x-content-type-options: nosniff');
    expect(JSON.parse(garbled.slice(garbled.indexOf('\r\n\r\n') + 4))).toMatchObject({
      isSuccess: false,
      statusCode: 400,
      message: 'The request could not be read as HTTP.',
    });
    const huge = await exchange(
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(huge).toContain('"message":"The request headers are too large."');
  });
});

describe('a rule whose schema gives no message of its own', () => {
  it("is said with the field's name, not in zod's words", async () => {
    const login = await signedInUser(test.app);
    const response = await test.app.inject({
      method: 'POST',
      url: '/api/OobRates/getoobrates',
      headers: authHeaders(login),
      payload: {
        stateCode: 'AK',
        stateName: 'Alaska',
        msaID: '11260',
        msaName: 'Anchorage, AK',
        code: '99213',
        paymentMethod: 'OUTPATIENT',
        codeType: 12345,
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>()).toMatchObject({
      message: 'codeType must be text.',
      errors: [{ field: 'codeType', rule: 'invalid_type', message: 'codeType must be text.' }],
    });
  });
});

describe('a body that is not JSON', () => {
  it('is a 400 naming the fault when its JSON is broken or poisoned', async () => {
    const poisoned = await test.app.inject({
      method: 'POST',
      url: '/api/Feedback/savefeedback',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"admin": true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json<ApiError>().message).toBe(
      'The request body is not valid JSON, or holds a __proto__ or constructor.prototype key.',
    );
  });

  it('is no body when it is empty: answered where none is needed, refused naming body where one is', async () => {
    const login = await signedInUser(test.app);
    const json = { 'content-type': 'application/json' };
    // A client library that labels every request JSON, on a call without fields.
    const loggedOut = await test.app.inject({
      method: 'POST',
      url: '/api/Auth/logout',
      headers: { ...json, ...authHeaders(login) },
      payload: '',
    });
    expect(loggedOut.statusCode).toBe(200);
    const saved = await test.app.inject({
      method: 'POST',
      url: '/api/Feedback/savefeedback',
      headers: json,
      payload: '',
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.json<ApiError>()).toMatchObject({
      message: 'The request body must be a JSON object.',
      errors: [{ field: 'body', rule: 'required' }],
    });
  });

  it('is a 415 asking for a multipart form on a route that reads one, for JSON or text', async () => {
    for (const [contentType, payload] of [
      ['application/json', '{"File":"bill.pdf"}'],
      ['text/plain', 'bill'],
    ]) {
      const response = await test.app.inject({
        method: 'POST',
        url: '/api/Feedback/uploadfeedbackfile',
        headers: { 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(415);
      expect(response.json<ApiError>().message).toBe(
        'Send the form as multipart/form-data, with the file as one of its parts.',
      );
    }
  });
});

describe('an e-mail address built to make its pattern backtrack', () => {
  // `a@`, 900,000 dots and an @: the pattern tried every dot against the rest, about a quarter of
  // an hour of the server's only thread for one request, signed out (ADR 0004, "Patterns").
  const nearly = `a@${'.'.repeat(900_000)}@`;

  it.each([
    ['/api/Auth/login', { UserName: nearly, password: 'x' }, 'UserName'],
    [
      '/api/Feedback/savefeedback',
      { FirstName: 'Ada', LastName: 'Lovelace', email: nearly, subject: 's', message: 'm' },
      'email',
    ],
  ])('is refused at once by %s with a 400 naming the field', async (url, payload, field) => {
    const response = await test.app.inject({ method: 'POST', url, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json<ApiError>().errors?.map((error) => error.field)).toContain(field);
  });
});
