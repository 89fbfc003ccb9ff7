import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { EmailSchema, normaliseEmail, passwordProblems, ROLES, errorMessage } from '@ratelens/core';
import { audit, findUserByEmail, insertUser, updateUser, type Database } from '@ratelens/db';
import { hashPassword } from '../auth/passwords.ts';
import { ConfigError, parseConfig } from '../config.ts';
import { openDatabase } from '../database.ts';

const USAGE = 'Usage: npm run admin:create -- --email <address> [--password <password>]';

/** A password that satisfies the policy: 20 random URL-safe characters plus one of each class. */
export function generatePassword(): string {
  return `${randomBytes(15).toString('base64url')}Aa1!`;
}

export interface AdminResult {
  email: string;
  created: boolean;
}

/**
 * Makes an account an admin: creates it when the address is new, promotes it otherwise. The
 * password is set when one is given (or generated for a new account).
 */
export async function createAdmin(
  db: Database,
  email: string,
  password: string | undefined,
): Promise<AdminResult> {
  const address = normaliseEmail(email);
  const existing = await findUserByEmail(db, address);
  if (existing) {
    await updateUser(db, existing.id, {
      role: ROLES.admin,
      ...(password ? { passwordHash: await hashPassword(password) } : {}),
    });
    await audit(db, { userId: existing.id, action: 'admin.promoted', detail: { via: 'cli' } });
    return { email: address, created: false };
  }
  if (!password) throw new Error('a new admin needs a password');
  const user = await insertUser(db, {
    email: address,
    fullName: address,
    passwordHash: await hashPassword(password),
    role: ROLES.admin,
    emailConfirmed: true,
  });
  await audit(db, { userId: user?.id ?? null, action: 'admin.created', detail: { via: 'cli' } });
  return { email: address, created: true };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' } },
  });
  const email = EmailSchema.safeParse(values.email ?? '');
  if (!values.email || !email.success) {
    console.error(values.email ? `Invalid --email: ${email.error?.issues[0]?.message}` : USAGE);
    process.exit(2);
  }
  if (values.password) {
    const problems = passwordProblems(values.password);
    if (problems.length > 0) {
      console.error(`Invalid --password:\n  ${problems.join('\n  ')}`);
      process.exit(2);
    }
  }
  const config = parseConfig();
  const database = await openDatabase(config, () => {});
  try {
    const existing = await findUserByEmail(database.connection.db, normaliseEmail(email.data));
    const password = values.password ?? (existing ? undefined : generatePassword());
    const result = await createAdmin(database.connection.db, email.data, password);
    console.log(
      result.created
        ? `Created admin ${result.email}.`
        : `${result.email} is now an admin${values.password ? '; password changed' : ''}.`,
    );
    if (password && !values.password)
      console.log(`Password (shown once, store it safely): ${password}`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(
      error instanceof ConfigError ? error.message : `admin:create failed: ${errorMessage(error)}`,
    );
    process.exit(1);
  });
}
