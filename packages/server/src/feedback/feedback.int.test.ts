import { CONTACT_MESSAGES, FEEDBACK_FILE, type FeedbackItem } from '@ratelens/core';
import { listOutboxMessages } from '@ratelens/db';
import { describe, expect, it } from 'vitest';
import {
  authHeaders,
  createTestApp,
  signedInAdmin,
  signedInUser,
  useTestApp,
} from '../test/app.ts';
import { multipart, pdf, png, x12, xlsx, type FormPart } from '../test/files.ts';
import {
  ATTACHMENTS_FULL_MESSAGE,
  ATTACHMENT_TTL_HOURS,
  FILE_TYPE_MESSAGE,
  THANK_YOU_MESSAGE,
} from './feedback-service.ts';

const test = useTestApp();

const CSV = Buffer.from('claim_id,cpt,billed\nC1,99213,150.00\nC2,80053,42.10\n');

function upload(parts: FormPart[]) {
  const form = multipart(parts);
  return test.app.inject({
    method: 'POST',
    url: '/api/Feedback/uploadfeedbackfile',
    payload: form.payload,
    headers: form.headers,
  });
}

async function uploadedToken(content: Buffer, filename: string): Promise<string> {
  const response = await upload([{ name: 'File', filename, content }]);
  expect(response.statusCode).toBe(200);
  return response.json<{ message: string }>().message;
}

const valid = {
  FirstName: 'Jane',
  LastName: 'Doe',
  email: 'jane@example.com',
  subject: 'Question about rates',
  message: 'How often is the Alaska data refreshed?',
  fileName: '',
};

function save(body: Record<string, unknown>) {
  return test.app.inject({ method: 'POST', url: '/api/Feedback/savefeedback', payload: body });
}

describe('POST api/Feedback/uploadfeedbackfile', () => {
  it.each([
    ['a CSV', CSV, 'claims.csv', 'csv'],
    ['a PDF', pdf(), 'claims.pdf', 'pdf'],
    ['an XLSX workbook', xlsx(), 'claims.xlsx', 'xlsx'],
    ['an EDI X12 interchange', x12(), 'claims.edi', 'edi'],
  ])('accepts %s and answers a token for it', async (_label, content, filename, kind) => {
    const response = await upload([{ name: 'File', filename, content }]);
    expect(response.statusCode).toBe(200);
    const { isSuccess, message } = response.json<{ isSuccess: boolean; message: string }>();
    expect(isSuccess).toBe(true);
    const { rows } = await test.database.connection.pool.query<{
      kind: string;
      bytes: number;
      original_name: string;
    }>(`SELECT kind, bytes, original_name FROM feedback_files WHERE id = $1`, [message]);
    expect(rows[0]).toEqual({ kind, bytes: content.length, original_name: filename });
  });

  it('accepts a file of exactly the size limit', async () => {
    const line = Buffer.from('a,b\n');
    const full = Buffer.alloc(FEEDBACK_FILE.maxBytes, line);
    const response = await upload([{ name: 'File', filename: 'full.csv', content: full }]);
    expect(response.statusCode).toBe(200);
  });

  it('answers 413 with a readable message for a file over the limit', async () => {
    const big = Buffer.alloc(FEEDBACK_FILE.maxBytes + 1, 'a,b\n');
    const response = await upload([{ name: 'File', filename: 'big.csv', content: big }]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      isSuccess: false,
      message: 'The attachment must not be larger than 10 MB.',
    });
  });

  it.each([
    ['a PNG renamed .csv', png(4, 3), 'claims.csv', 'text/csv'],
    [
      'a Windows program renamed .pdf',
      Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(64)]),
      'claims.pdf',
      'application/pdf',
    ],
    ['a zip that is not a workbook', zipOfText(), 'claims.xlsx', 'application/zip'],
  ])('rejects %s by its content', async (_label, content, filename, contentType) => {
    const response = await upload([{ name: 'File', filename, content, contentType }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: FILE_TYPE_MESSAGE,
      errors: [{ field: 'File', rule: 'file-type', message: FILE_TYPE_MESSAGE }],
    });
  });

  it('rejects an empty file', async () => {
    const response = await upload([
      { name: 'File', filename: 'empty.csv', content: Buffer.alloc(0) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'File', message: 'The attachment is empty.' }],
    });
  });

  it('rejects a form without the File field', async () => {
    const response = await upload([{ name: 'Other', value: 'x' }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [{ field: 'File', rule: 'required', message: 'Choose a file to attach.' }],
    });
  });

  it('stores a sanitised name, never a path from the browser', async () => {
    const token = await uploadedToken(CSV, 'C:\\fakepath\\..\\claims;<Q1>.csv');
    const { rows } = await test.database.connection.pool.query<{ original_name: string }>(
      `SELECT original_name FROM feedback_files WHERE id = $1`,
      [token],
    );
    expect(rows[0]?.original_name).toBe('claims_Q1_.csv');
  });
});

function zipOfText(): Buffer {
  // A zip with no workbook parts: PK header, one stored entry, central directory.
  return Buffer.concat([
    Buffer.from('PK\x03\x04', 'latin1'),
    Buffer.alloc(26),
    Buffer.from('PK\x05\x06', 'latin1'),
    Buffer.alloc(18),
  ]);
}

describe('POST api/Feedback/savefeedback', () => {
  it('stores the submission and tells the team by e-mail', async () => {
    const response = await save({ ...valid, subject: 'Stored and mailed' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ isSuccess: true, message: THANK_YOU_MESSAGE });
    const { rows } = await test.database.connection.pool.query(
      `SELECT first_name, last_name, email, message, file_id FROM feedback WHERE subject = 'Stored and mailed'`,
    );
    expect(rows).toEqual([
      {
        first_name: 'Jane',
        last_name: 'Doe',
        email: 'jane@example.com',
        message: valid.message,
        file_id: null,
      },
    ]);
    const [mail] = await listOutboxMessages(test.database.connection.db, {
      to: 'team@ratelens.local',
    });
    expect(mail?.subject).toBe('Contact form: Stored and mailed');
    expect(mail?.text).toContain('Jane Doe <jane@example.com>');
    expect(mail?.text).toContain(valid.message);
  });

  it('attaches an uploaded file and names it in the e-mail', async () => {
    const token = await uploadedToken(pdf(), 'statement.pdf');
    const response = await save({ ...valid, subject: 'With a file', fileName: token });
    expect(response.statusCode).toBe(200);
    const { rows } = await test.database.connection.pool.query(
      `SELECT file_id FROM feedback WHERE subject = 'With a file'`,
    );
    expect(rows).toEqual([{ file_id: token }]);
    const [mail] = await listOutboxMessages(test.database.connection.db, {
      to: 'team@ratelens.local',
    });
    expect(mail?.text).toContain(
      `statement.pdf (administrators can download it at http://localhost:3000/api/Feedback/file/${token})`,
    );
  });

  it('rejects a token no upload answered', async () => {
    const response = await save({ ...valid, fileName: '7d0c1e5e-8a55-4c4b-9a51-0e3c5d1b2a10' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'fileName' }] });
  });

  it('rejects a token that is not one at all', async () => {
    const response = await save({ ...valid, fileName: 'C:\\fakepath\\claims.csv' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'fileName' }] });
  });

  it('rejects a token already sent with another message', async () => {
    const token = await uploadedToken(CSV, 'claims.csv');
    expect((await save({ ...valid, fileName: token })).statusCode).toBe(200);
    const response = await save({ ...valid, fileName: token });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [
        {
          field: 'fileName',
          message: 'This attachment was already sent with a message.',
        },
      ],
    });
  });

  /** Moves an upload back in time by `hours`. */
  async function age(token: string, hours: number): Promise<void> {
    await test.database.connection.pool.query(
      `UPDATE feedback_files SET created_at = now() - $2::float8 * interval '1 hour' WHERE id = $1`,
      [token, hours],
    );
  }

  async function stored(...tokens: string[]): Promise<string[]> {
    const { rows } = await test.database.connection.pool.query<{ id: string }>(
      `SELECT id FROM feedback_files WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [tokens],
    );
    return rows.map((row) => row.id);
  }

  it(`rejects an attachment uploaded more than ${ATTACHMENT_TTL_HOURS} hours ago`, async () => {
    const fresh = await uploadedToken(CSV, 'fresh.csv');
    await age(fresh, ATTACHMENT_TTL_HOURS - 0.1);
    expect((await save({ ...valid, fileName: fresh })).statusCode).toBe(200);

    const stale = await uploadedToken(CSV, 'stale.csv');
    await age(stale, ATTACHMENT_TTL_HOURS + 0.1);
    const response = await save({ ...valid, fileName: stale });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [
        {
          field: 'fileName',
          message: 'The attachment was not found. Please upload the file again.',
        },
      ],
    });
  });

  it('an upload removes those abandoned an hour past the limit, never one a message holds', async () => {
    const abandoned = await uploadedToken(CSV, 'abandoned.csv');
    const recent = await uploadedToken(CSV, 'recent.csv');
    const sent = await uploadedToken(CSV, 'sent.csv');
    expect((await save({ ...valid, fileName: sent })).statusCode).toBe(200);
    await age(abandoned, ATTACHMENT_TTL_HOURS + 1.1);
    await age(sent, ATTACHMENT_TTL_HOURS + 48);
    // Past the limit, but within the hour's margin: kept until a later upload.
    await age(recent, ATTACHMENT_TTL_HOURS + 0.9);

    const next = await uploadedToken(CSV, 'next.csv');
    expect(await stored(abandoned, recent, sent, next)).toEqual(
      [recent, sent, next].sort((a, b) => a.localeCompare(b)),
    );
  });

  const m = CONTACT_MESSAGES;
  it.each([
    ['FirstName', 'J0hn', m.firstNameAlphabetic],
    ['LastName', 'O-Neil', m.lastNameAlphabetic],
    ['FirstName', '   ', m.firstNameBlank],
    ['LastName', '', m.lastNameBlank],
    ['FirstName', 'a'.repeat(51), m.firstNameTooLong],
    ['LastName', 'b'.repeat(51), m.lastNameTooLong],
    ['email', 'jane@example', m.emailInvalid],
    ['email', `${'j'.repeat(40)}@example.com`, m.emailInvalid],
    ['subject', '  ', m.subjectBlank],
    ['subject', 's'.repeat(31), m.subjectTooLong],
    ['message', '', m.messageBlank],
    ['message', 'm'.repeat(501), m.messageTooLong],
    ['FirstName', undefined, 'First Name is required.'],
  ])('answers 400 for %s = %j with the spec message', async (field, value, message) => {
    const response = await save({ ...valid, [field]: value });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, errors: [{ field, message }] });
  });
});

describe('reading submissions', () => {
  it('answers 401 without a session', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/api/Feedback/list' });
    expect(response.statusCode).toBe(401);
  });

  it('answers 403 to a signed-in web user, for the list and for a file', async () => {
    const user = await signedInUser(test.app);
    const token = await uploadedToken(CSV, 'claims.csv');
    const list = await test.app.inject({
      method: 'GET',
      url: '/api/Feedback/list',
      headers: authHeaders(user),
    });
    const file = await test.app.inject({
      method: 'GET',
      url: `/api/Feedback/file/${token}`,
      headers: authHeaders(user),
    });
    expect([list.statusCode, file.statusCode]).toEqual([403, 403]);
  });

  it('lists submissions newest first for an admin, with the attachment link', async () => {
    const token = await uploadedToken(CSV, 'newest.csv');
    await save({ ...valid, subject: 'Older' });
    await save({ ...valid, subject: 'Newest', fileName: token });
    const admin = await signedInAdmin(test);
    const response = await test.app.inject({
      method: 'GET',
      url: '/api/Feedback/list',
      headers: authHeaders(admin),
    });
    expect(response.statusCode).toBe(200);
    const items = response.json<FeedbackItem[]>();
    expect(items[0]).toMatchObject({
      subject: 'Newest',
      firstName: 'Jane',
      attachmentName: 'newest.csv',
      attachmentUrl: `/api/Feedback/file/${token}`,
    });
    expect(items[1]).toMatchObject({ subject: 'Older', attachmentName: null, attachmentUrl: null });
  });

  it('serves an attachment to an admin with its bytes, type and download headers', async () => {
    const content = xlsx();
    const token = await uploadedToken(content, 'claims (Q1) 2026.xlsx');
    const admin = await signedInAdmin(test);
    const response = await test.app.inject({
      method: 'GET',
      url: `/api/Feedback/file/${token}`,
      headers: authHeaders(admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(content)).toBe(true);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="claims (Q1) 2026.xlsx"; filename*=UTF-8''claims%20%28Q1%29%202026.xlsx`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 404 to an admin for an unknown attachment, 400 for an id no attachment can have', async () => {
    const admin = await signedInAdmin(test);
    const fetch = (id: string) =>
      test.app.inject({
        method: 'GET',
        url: `/api/Feedback/file/${id}`,
        headers: authHeaders(admin),
      });
    const unknown = await fetch('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'No attachment has this id.' });
    const malformed = await fetch('not-a-token');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      errors: [{ field: 'id', message: 'id must be an attachment id.' }],
    });
  });
});

describe('rate limits', () => {
  it('refuses uploads past FEEDBACK_UPLOAD_MB_PER_DAY, all addresses counted, until they age out', async () => {
    const budget = await createTestApp({ FEEDBACK_UPLOAD_MB_PER_DAY: '1' });
    try {
      const third = Buffer.alloc(350 * 1024, 'a,b\n');
      const send = (address: string) => {
        const form = multipart([{ name: 'File', filename: 'claims.csv', content: third }]);
        return budget.app.inject({
          method: 'POST',
          url: '/api/Feedback/uploadfeedbackfile',
          payload: form.payload,
          headers: form.headers,
          remoteAddress: address,
        });
      };
      // Sent at once from three addresses: the day's sum is taken in turns, so one is refused.
      const statuses = (
        await Promise.all(['203.0.113.1', '203.0.113.2', '203.0.113.3'].map(send))
      ).map((r) => r.statusCode);
      expect(statuses.sort()).toEqual([200, 200, 429]);
      const refused = await send('203.0.113.4');
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toBe(ATTACHMENTS_FULL_MESSAGE);

      // A day later the morning's uploads no longer count.
      await budget.database.connection.pool.query(
        `UPDATE feedback_files SET created_at = created_at - interval '24 hours 1 minute'`,
      );
      expect((await send('203.0.113.4')).statusCode).toBe(200);
    } finally {
      await budget.close();
    }
  });

  it('counts a client by the address its proxy saw, whatever it wrote, and an IPv6 client by its /64', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'true' });
    try {
      const send = (remoteAddress: string, forwardedFor?: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/Feedback/savefeedback',
          payload: valid,
          remoteAddress,
          headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
        });
      // Behind the proxy at 10.0.0.2, the client writes a new address left of the one the proxy
      // appends each time.
      const proxied = [];
      for (const spoofed of ['198.51.100.1', '198.51.100.2', '198.51.100.3'])
        proxied.push((await send('10.0.0.2', `${spoofed}, 203.0.113.9`)).statusCode);
      expect(proxied).toEqual([200, 200, 429]);
      // Another client behind the same proxy is counted apart.
      expect((await send('10.0.0.2', '203.0.113.10')).statusCode).toBe(200);
      // A client not behind a trusted proxy cannot name its address at all.
      const direct = [];
      for (const spoofed of ['198.51.100.4', '198.51.100.5', '198.51.100.6'])
        direct.push((await send('192.0.2.7', spoofed)).statusCode);
      expect(direct).toEqual([200, 200, 429]);

      const ipv6 = [];
      for (const address of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:a:b:c:d'])
        ipv6.push((await send(address)).statusCode);
      expect(ipv6).toEqual([200, 200, 429]);
      expect((await send('2001:db8:5:7::1')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('answers 429 once a client sends more contact forms a minute than AUTH_RATE_LIMIT_PER_MINUTE', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const send = () =>
        limited.app.inject({ method: 'POST', url: '/api/Feedback/savefeedback', payload: valid });
      const statuses = [
        (await send()).statusCode,
        (await send()).statusCode,
        (await send()).statusCode,
      ];
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
