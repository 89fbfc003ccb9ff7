import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, renewalsSchedule } from './config.ts';

describe('parseConfig', () => {
  it('has working defaults for a fresh clone', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATA_DIR: './.data',
      MAIL_DRIVER: 'outbox',
      NODE_ENV: 'development',
    });
    expect(config.ACCESS_TOKEN_TTL).toBe(15 * 60 * 1000);
  });

  it('reads durations such as 15m and 30d', () => {
    expect(parseConfig({ ACCESS_TOKEN_TTL: '90s', SESSION_TTL: '2d' })).toMatchObject({
      ACCESS_TOKEN_TTL: 90_000,
      SESSION_TTL: 172_800_000,
    });
  });

  it('names the variable and the rule of a bad value', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT: /);
    expect(() => parseConfig({ ACCESS_TOKEN_TTL: '15 minutes' })).toThrow(
      /ACCESS_TOKEN_TTL: must be a whole number followed by s, m, h or d/,
    );
    expect(() => parseConfig({ JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET: must be at least 32 characters/,
    );
  });

  it('trusts the proxies TRUST_PROXY names, never every hop', () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe('loopback,linklocal,uniquelocal');
    expect(parseConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::1' }).TRUST_PROXY).toBe(
      '10.0.0.0/8,2001:db8::1',
    );
    for (const bad of ['1', 'yes', '10.0.0.0/33', 'proxy.local'])
      expect(() => parseConfig({ TRUST_PROXY: bad })).toThrow(
        /TRUST_PROXY: must be false, true \(a proxy on this machine or a private network\)/,
      );
  });

  it('runs the worker, refreshing daily at 04:30 UTC, unless told otherwise', () => {
    expect(parseConfig({})).toMatchObject({ WORKER: 'on', REFRESH_SCHEDULE: '30 4 * * *' });
    expect(parseConfig({ WORKER: 'off', REFRESH_SCHEDULE: ' off ' })).toMatchObject({
      WORKER: 'off',
      REFRESH_SCHEDULE: 'off',
    });
    expect(parseConfig({ REFRESH_SCHEDULE: '0 */6 * * 1-5' }).REFRESH_SCHEDULE).toBe(
      '0 */6 * * 1-5',
    );
    // Six fields (seconds first) are cron too, but pg-boss reads five; out-of-range and words fail.
    for (const bad of ['daily', '0 30 4 * * *', '61 4 * * *', '30 4 * *'])
      expect(() => parseConfig({ REFRESH_SCHEDULE: bad }), bad).toThrow(
        /REFRESH_SCHEDULE: must be five cron fields \(minute hour day month weekday, in UTC/,
      );
    expect(() => parseConfig({ WORKER: 'yes' })).toThrow(/WORKER: /);
  });

  it('renews hourly, on a schedule the worker keeps, which the interval must fit', () => {
    expect(renewalsSchedule(parseConfig({}).RENEWALS_INTERVAL_MINUTES)).toBe('0 * * * *');
    const scheduled = (minutes: string) =>
      renewalsSchedule(
        parseConfig({ RENEWALS_INTERVAL_MINUTES: minutes }).RENEWALS_INTERVAL_MINUTES,
      );
    expect(scheduled('0')).toBe('off');
    expect(scheduled('15')).toBe('*/15 * * * *');
    expect(scheduled('360')).toBe('0 */6 * * *');
    expect(scheduled('1440')).toBe('0 0 * * *');
    // Every 45 or 90 minutes is no schedule of whole parts of an hour or a day.
    for (const bad of ['45', '90', '300', '-1', '1441'])
      expect(() => parseConfig({ RENEWALS_INTERVAL_MINUTES: bad }), bad).toThrow(
        /RENEWALS_INTERVAL_MINUTES: /,
      );
    expect(() => parseConfig({ RENEWALS_INTERVAL_MINUTES: '45' })).toThrow(
      /must divide an hour \(1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60\) or a day in whole hours/,
    );
  });

  it('needs SMTP_URL for the smtp mail driver', () => {
    expect(() => parseConfig({ MAIL_DRIVER: 'smtp' })).toThrow(
      /SMTP_URL: is required when MAIL_DRIVER=smtp/,
    );
  });

  it('pays through the sandbox by default and needs both credentials for Authorize.Net', () => {
    expect(parseConfig({}).PAYMENT_GATEWAY).toBe('sandbox');
    expect(() => parseConfig({ PAYMENT_GATEWAY: 'authorizenet' })).toThrow(
      /AUTHORIZENET_API_LOGIN_ID: is required when PAYMENT_GATEWAY=authorizenet[\s\S]*AUTHORIZENET_TRANSACTION_KEY: is required/,
    );
    expect(
      parseConfig({
        PAYMENT_GATEWAY: 'authorizenet',
        AUTHORIZENET_API_LOGIN_ID: 'test-login',
        AUTHORIZENET_TRANSACTION_KEY: 'ABCDEFGHIJKLMNOP',
      }).AUTHORIZENET_URL,
    ).toBe('https://apitest.authorize.net/xml/v1/request.api');
  });

  it('refuses to run production without its secrets and database', () => {
    const error = (() => {
      try {
        parseConfig({ NODE_ENV: 'production' });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    for (const name of ['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'DATABASE_URL', 'PUBLIC_URL'])
      expect(error?.message).toContain(`${name}: is required in production`);
  });

  it('refuses to take payments through the sandbox in production', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'j'.repeat(40),
      ALTCHA_HMAC_KEY: 'k'.repeat(40),
      DATABASE_URL: 'postgresql://unused@127.0.0.1/unused',
      PUBLIC_URL: 'https://ratelens.example',
    };
    expect(() => parseConfig(production)).toThrow(
      /PAYMENT_GATEWAY: must be authorizenet in production/,
    );
    expect(() => parseConfig({ ...production, PAYMENT_GATEWAY: 'sandbox' })).toThrow(
      /PAYMENT_GATEWAY: must be authorizenet in production/,
    );
    const live = parseConfig({
      ...production,
      PAYMENT_GATEWAY: 'authorizenet',
      AUTHORIZENET_API_LOGIN_ID: 'login',
      AUTHORIZENET_TRANSACTION_KEY: '0123456789abcdef',
    });
    expect(live.PAYMENT_GATEWAY).toBe('authorizenet');
  });

  it('treats an empty variable as unset', () => {
    const config = parseConfig({ DATABASE_URL: '', PORT: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(3000);
  });
});

describe('RUN_RETENTION_DAYS and OUTBOX_RETENTION_DAYS', () => {
  it('default to 90 and 30 days', () => {
    expect(parseConfig({})).toMatchObject({ RUN_RETENTION_DAYS: 90, OUTBOX_RETENTION_DAYS: 30 });
    expect(parseConfig({ RUN_RETENTION_DAYS: '365', OUTBOX_RETENTION_DAYS: '7' })).toMatchObject({
      RUN_RETENTION_DAYS: 365,
      OUTBOX_RETENTION_DAYS: 7,
    });
  });

  it('stop the process at start on a bad value, naming the variable and the rule', () => {
    for (const bad of ['0', '-1', '1.5', '3651', 'ninety'])
      for (const name of ['RUN_RETENTION_DAYS', 'OUTBOX_RETENTION_DAYS'])
        expect(() => parseConfig({ [name]: bad }), `${name}=${bad}`).toThrow(
          `${name}: must be a whole number of days from 1 to 3650`,
        );
  });
});
