import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { workerWhen } from './worker.ts';

describe('workerWhen', () => {
  it('names every job the worker schedules, and when it runs, with the defaults', () => {
    expect(workerWhen(parseConfig({}))).toBe(
      'hospital files are read again on the schedule "30 4 * * *" (cron, UTC); ' +
        'subscriptions are renewed on the schedule "0 * * * *"; ' +
        'expired reports are deleted every hour at 20 past; ' +
        'ingests cut off when their process stopped are recorded as failed every ten minutes; ' +
        'runs that found a file unchanged again are deleted after 90 days (RUN_RETENTION_DAYS) ' +
        'and sent outbox messages after 30 (OUTBOX_RETENTION_DAYS), every day at 03:00 UTC',
    );
  });

  it('says the retention the settings give, and the queued e-mail when MAIL_DRIVER=smtp', () => {
    const when = workerWhen(
      parseConfig({
        MAIL_DRIVER: 'smtp',
        SMTP_URL: 'smtp://mail.example:25',
        RUN_RETENTION_DAYS: '400',
        OUTBOX_RETENTION_DAYS: '7',
      }),
    );
    expect(when).toContain(
      '; e-mail the SMTP server has not taken is tried again every minute; expired reports',
    );
    expect(when).toContain(
      'deleted after 400 days (RUN_RETENTION_DAYS) and sent outbox messages after 7 (OUTBOX_RETENTION_DAYS)',
    );
  });
});
