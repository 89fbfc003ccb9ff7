import { isIP } from 'node:net';
import cronParser from 'cron-parser';
import { z } from 'zod';

const duration = z
  .string()
  .regex(/^\d+(s|m|h|d)$/, 'must be a whole number followed by s, m, h or d, for example 15m')
  .transform((value) => {
    const amount = Number(value.slice(0, -1));
    const unit = value.slice(-1);
    const seconds = { s: 1, m: 60, h: 3600, d: 86_400 }[unit] ?? 1;
    return amount * seconds * 1000;
  });

const secret = z.string().min(32, 'must be at least 32 characters');

/** TRUST_PROXY=true: proxies on this machine or a private network (proxy-addr's names). */
const PRIVATE_PROXIES = 'loopback,linklocal,uniquelocal';

/** An IP address, a CIDR range (`10.0.0.0/8`, `2001:db8::/32`) or one of PRIVATE_PROXIES. */
function proxyAddress(text: string): boolean {
  if (PRIVATE_PROXIES.split(',').includes(text)) return true;
  const [address = '', prefix, extra] = text.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Five cron fields (minute, hour, day of month, month, day of week), read in UTC; or `off`. */
const schedule = z
  .string()
  .trim()
  .refine(
    (value) => value === 'off' || (value.split(/\s+/).length === 5 && isCron(value)),
    'must be five cron fields (minute hour day month weekday, in UTC: "30 4 * * *" is 04:30 every day) or off',
  );

/**
 * RENEWALS_INTERVAL_MINUTES as five cron fields, or `off` for 0: every N minutes from the hour's
 * start, or every N hours from midnight UTC.
 */
export function renewalsSchedule(minutes: number): string {
  if (minutes === 0) return 'off';
  if (minutes < 60) return `*/${minutes} * * * *`;
  const hours = minutes / 60;
  return hours === 1 ? '0 * * * *' : hours === 24 ? '0 0 * * *' : `0 */${hours} * * *`;
}

/** How many days the worker keeps something (RUN_RETENTION_DAYS, OUTBOX_RETENTION_DAYS). */
const RETENTION_DAYS_RULE = 'must be a whole number of days from 1 to 3650';
const retentionDays = z.coerce
  .number({ error: RETENTION_DAYS_RULE })
  .int(RETENTION_DAYS_RULE)
  .min(1, RETENTION_DAYS_RULE)
  .max(3650, RETENTION_DAYS_RULE);

function isCron(value: string): boolean {
  try {
    cronParser.parseExpression(value, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Every environment variable the server reads, parsed once at start. A bad value stops the
 * process with a message that names it. Documented, one by one, in .env.example.
 */
export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /**
     * Which X-Forwarded-For hops to believe: false (none), or the proxies in front, by address,
     * CIDR range or proxy-addr's names (loopback, linklocal, uniquelocal), comma-separated; true
     * is a proxy on this machine or a private network. Never every hop: the client writes the
     * left of the header, and could name a new address with each request.
     */
    TRUST_PROXY: z
      .string()
      .trim()
      .default('false')
      .refine(
        (value) =>
          value === 'true' ||
          value === 'false' ||
          value.split(',').every((part) => proxyAddress(part.trim())),
        "must be false, true (a proxy on this machine or a private network), or the proxies' addresses and CIDR ranges, comma-separated",
      )
      .transform((value): false | string =>
        value === 'false'
          ? false
          : value === 'true'
            ? PRIVATE_PROXIES
            : value
                .split(',')
                .map((part) => part.trim())
                .join(','),
      ),
    DATABASE_URL: z.url().optional(),
    DATA_DIR: z.string().min(1).default('./.data'),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    JWT_SECRET: secret.optional(),
    ALTCHA_HMAC_KEY: secret.optional(),
    ALTCHA_MAX_NUMBER: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
    ACCESS_TOKEN_TTL: duration.default(15 * 60 * 1000),
    SESSION_TTL: duration.default(30 * 86_400 * 1000),
    /**
     * How long (ms) one server process reuses a session it looked up; 0 looks every call up.
     * A session ended on another instance still works here for at most this long.
     */
    SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
    VERIFY_EMAIL_TOKEN_TTL: duration.default(48 * 3600 * 1000),
    RESET_PASSWORD_TOKEN_TTL: duration.default(3600 * 1000),
    LOGIN_LOCK_THRESHOLD: z.coerce.number().int().min(1).default(10),
    LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
    AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    MAIL_DRIVER: z.enum(['outbox', 'smtp']).default('outbox'),
    MAIL_FROM: z.string().min(3).default('RateLens <no-reply@ratelens.local>'),
    SMTP_URL: z.url().optional(),
    /** Where contact-form submissions are announced. */
    TEAM_EMAIL: z.email().default('team@ratelens.local'),
    /** outbox: kept in outbox_messages (shown at /dev/outbox); twilio: sent through Twilio. */
    SMS_DRIVER: z.enum(['outbox', 'twilio']).default('outbox'),
    TWILIO_ACCOUNT_SID: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be an Account SID: AC and 32 hexadecimal characters')
      .optional(),
    /** A secret: never logged. */
    TWILIO_AUTH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** The sending number in E.164 (+15551234567) or a Messaging Service SID (MG…). */
    TWILIO_FROM: z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/,
        'must be a phone number such as +15551234567 or a Messaging Service SID (MG…)',
      )
      .optional(),
    TWILIO_BASE_URL: z.url().optional(),
    /** How long the link of a texted report works. */
    REPORT_LINK_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(72),
    /** Megabytes of contact-form attachments the public may upload in 24 hours, all together. */
    FEEDBACK_UPLOAD_MB_PER_DAY: z.coerce.number().int().min(1).default(200),
    /** Texted reports a client address may ask for per hour (each costs an SMS). */
    TEXT_REPORTS_PER_HOUR: z.coerce.number().int().min(1).default(10),
    /** Texted reports one account may have sent in 24 hours, from whatever addresses. */
    TEXT_REPORTS_PER_USER_PER_DAY: z.coerce.number().int().min(1).default(20),
    /** sandbox: deterministic, Authorize.Net's documented test behaviour; authorizenet: its JSON API. */
    PAYMENT_GATEWAY: z.enum(['sandbox', 'authorizenet']).default('sandbox'),
    /** Authorize.Net's endpoint: the sandbox by default, https://api.authorize.net/xml/v1/request.api live. */
    AUTHORIZENET_URL: z.url().default('https://apitest.authorize.net/xml/v1/request.api'),
    AUTHORIZENET_API_LOGIN_ID: z
      .string()
      .min(1)
      .max(25, 'must be at most 25 characters')
      .optional(),
    /** A secret: never logged. */
    AUTHORIZENET_TRANSACTION_KEY: z.string().length(16, 'must be 16 characters').optional(),
    /** How long a gateway call may take; after it the order stays pending until reconciled. */
    PAYMENT_GATEWAY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(30_000),
    /** Payment calls one client address may make per minute. */
    PAYMENT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    /** Donation codes one e-mail address may be sent per hour (the client address is limited too). */
    DONATION_OTP_PER_HOUR: z.coerce.number().int().min(1).default(5),
    /**
     * How often the background worker renews, expires and charges installments (ADR 0017); 0
     * for never. A schedule keeps it (renewalsSchedule), so it divides an hour or a day.
     */
    RENEWALS_INTERVAL_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(1440)
      .refine(
        (minutes) =>
          minutes === 0 ||
          (minutes <= 60 ? 60 % minutes === 0 : minutes % 60 === 0 && 1440 % minutes === 0),
        'must divide an hour (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60) or a day in whole hours (120, 180, 240, 360, 480, 720 or 1440), or be 0 for never',
      )
      .default(60),
    WEB_DIST_DIR: z.string().optional(),
    DEMO_DATA: z.enum(['on', 'off']).default('on'),
    /** Whether the server runs the background worker (pg-boss queues) itself; `npm run worker` runs one alone. */
    WORKER: z.enum(['on', 'off']).default('on'),
    /** When the worker reads every hospital's file in use again, loading what changed (ADR 0021). */
    REFRESH_SCHEDULE: schedule.default('30 4 * * *'),
    /**
     * Days the worker keeps an ingest run that found its file unchanged (or skipped) as the run
     * before it did, when a later run found the same again (ADR 0021, "Retention").
     */
    RUN_RETENTION_DAYS: retentionDays.default(90),
    /** Days the worker keeps an e-mail or text the outbox drivers kept, from when it was sent. */
    OUTBOX_RETENTION_DAYS: retentionDays.default(30),
  })
  .superRefine((config, ctx) => {
    if (config.MAIL_DRIVER === 'smtp' && !config.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'is required when MAIL_DRIVER=smtp',
      });
    }
    if (config.SMS_DRIVER === 'twilio') {
      for (const key of ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const) {
        if (!config[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when SMS_DRIVER=twilio',
          });
      }
    }
    if (config.PAYMENT_GATEWAY === 'authorizenet') {
      for (const key of ['AUTHORIZENET_API_LOGIN_ID', 'AUTHORIZENET_TRANSACTION_KEY'] as const) {
        if (!config[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'is required when PAYMENT_GATEWAY=authorizenet',
          });
      }
    }
    if (config.NODE_ENV === 'production') {
      for (const key of ['JWT_SECRET', 'ALTCHA_HMAC_KEY', 'DATABASE_URL', 'PUBLIC_URL'] as const) {
        if (!config[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
      }
      // The sandbox approves every well-formed card without charging it: a production server
      // left on the default would give plans away.
      if (config.PAYMENT_GATEWAY === 'sandbox')
        ctx.addIssue({
          code: 'custom',
          path: ['PAYMENT_GATEWAY'],
          message:
            'must be authorizenet in production (the sandbox approves every card without charging it)',
        });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most .env tooling.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = ConfigSchema.safeParse(present);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) => `  ${issue.path.join('.') || '(config)'}: ${issue.message}`,
  );
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
