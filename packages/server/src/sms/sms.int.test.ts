import { listOutboxMessages } from '@ratelens/db';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { useTestApp } from '../test/app.ts';
import { outboxSms, reportSmsText, smsSenderFor } from './sms.ts';

const test = useTestApp();
const LINK = 'http://localhost:3000/api/reports/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';

describe('the outbox sms driver', () => {
  it('keeps the message in the outbox as an sms', async () => {
    const db = test.database.connection.db;
    await outboxSms(db).send({ to: '+15551230001', text: 'Hello <there> & welcome' });
    const [message] = await listOutboxMessages(db, { to: '+15551230001' });
    expect(message).toMatchObject({
      channel: 'sms',
      to: '+15551230001',
      subject: 'SMS',
      text: 'Hello <there> & welcome',
      html: 'Hello &lt;there&gt; &amp; welcome',
    });
  });

  it('is the driver by default', async () => {
    const db = test.database.connection.db;
    await smsSenderFor(parseConfig({}), db).send({ to: '+15551230002', text: 'default' });
    expect(await listOutboxMessages(db, { to: '+15551230002' })).toHaveLength(1);
  });

  it('gives way to twilio when SMS_DRIVER=twilio', async () => {
    const db = test.database.connection.db;
    const config = parseConfig({
      SMS_DRIVER: 'twilio',
      TWILIO_ACCOUNT_SID: `AC${'0a'.repeat(16)}`,
      TWILIO_AUTH_TOKEN: 'f'.repeat(32),
      TWILIO_FROM: '+15005550006',
      TWILIO_BASE_URL: 'http://127.0.0.1:1',
    });
    await expect(
      smsSenderFor(config, db).send({ to: '+15551230003', text: 'via twilio' }),
    ).rejects.toThrow('Twilio could not be reached.');
    expect(await listOutboxMessages(db, { to: '+15551230003' })).toHaveLength(0);
  });
});

describe('the development outbox with text messages', () => {
  it('names the channel of each message in its JSON', async () => {
    const db = test.database.connection.db;
    await outboxSms(db).send({
      to: '+15551230004',
      text: reportSmsText(LINK, new Date('2026-11-24T00:00:00Z')),
    });
    const response = await test.app.inject({
      method: 'GET',
      url: `/dev/outbox.json?to=${encodeURIComponent('+15551230004')}`,
    });
    const [message] = response.json<{ channel: string; to: string; text: string }[]>();
    expect(message).toMatchObject({ channel: 'sms', to: '+15551230004' });
    expect(message?.text).toContain(LINK);
  });

  it('shows text messages on the page with their report link clickable', async () => {
    const db = test.database.connection.db;
    await outboxSms(db).send({
      to: '+15551230005',
      text: reportSmsText(LINK, new Date('2026-11-24T00:00:00Z')),
    });
    const page = await test.app.inject({ method: 'GET', url: '/dev/outbox' });
    expect(page.body).toContain('<span class="channel">Text message</span> to +15551230005');
    expect(page.body).toContain(`<a href="${LINK}">${LINK}</a>`);
  });
});
