import { ROLES } from '@ratelens/core';
import { findUserByEmail } from '@ratelens/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/passwords.ts';
import { createTestDatabase, type TestDatabase } from '@ratelens/db/testing/database';
import { createAdmin } from './admin-create.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('createAdmin', () => {
  it('creates a verified admin with the given password', async () => {
    const result = await createAdmin(database.connection.db, 'Boss@Example.com', 'Strong-Pass-9!');
    expect(result).toEqual({ email: 'boss@example.com', created: true });
    const user = await findUserByEmail(database.connection.db, 'boss@example.com');
    expect(user?.role).toBe(ROLES.admin);
    expect(user?.emailConfirmed).toBe(true);
    expect(await verifyPassword(user?.passwordHash ?? '', 'Strong-Pass-9!')).toBe(true);
  });

  it('promotes an existing account and keeps its password when none is given', async () => {
    await createAdmin(database.connection.db, 'second@example.com', 'First-Pass-9!');
    const db = database.connection.db;
    const before = await findUserByEmail(db, 'second@example.com');
    const result = await createAdmin(db, 'second@example.com', undefined);
    expect(result.created).toBe(false);
    expect((await findUserByEmail(db, 'second@example.com'))?.passwordHash).toBe(
      before?.passwordHash,
    );
  });

  it('refuses to create a new admin without a password', async () => {
    await expect(
      createAdmin(database.connection.db, 'nopass@example.com', undefined),
    ).rejects.toThrow('a new admin needs a password');
  });
});
