import { DrizzleQueryError } from 'drizzle-orm/errors';
import { pino, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { errorForLog, loggerOptions } from './logging.ts';
import { parseConfig } from '../config.ts';

/** As the ORM throws it for a failed sign-up: the values in its message, PostgreSQL's detail. */
function failedInsert(): DrizzleQueryError {
  const cause = Object.assign(new Error('duplicate key value violates unique constraint'), {
    code: '23505',
    constraint: 'users_email_key',
    detail: 'Key (email)=(jane@example.com) already exists.',
  });
  return new DrizzleQueryError(
    'insert into "users" ("email", "password_hash") values ($1, $2)',
    ['jane@example.com', '$argon2id$v=19$m=19456,t=2,p=1$secret-hash'],
    cause,
  );
}

describe('errorForLog', () => {
  it("keeps a failed query's text, type, code and constraint, never its values", () => {
    const logged = errorForLog(failedInsert());
    expect(logged.type).toBe('DrizzleQueryError');
    expect(logged.message).toBe(
      'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: (not logged)',
    );
    expect(logged.cause).toMatchObject({ code: '23505', constraint: 'users_email_key' });
    const text = JSON.stringify(logged);
    expect(text).not.toContain('jane@example.com');
    expect(text).not.toContain('argon2id');
    expect(logged.stack).toContain('at ');
  });

  it('is the serializer of the server log', () => {
    const lines: string[] = [];
    const { serializers } = loggerOptions(parseConfig({})) as Pick<LoggerOptions, 'serializers'>;
    const logger = pino({ serializers }, { write: (line: string) => lines.push(line) });
    logger.error({ err: failedInsert() }, 'unhandled error');
    expect(lines.join('')).toContain('params: (not logged)');
    expect(lines.join('')).not.toContain('jane@example.com');
  });
});
