import { isAdmin, normaliseEmail, type UserDetails, type UserListItem } from '@ratelens/core';
import { findUserByEmail, listUsers, type Database } from '@ratelens/db';
import type { AuthContext } from '../auth/auth-service.ts';
import { forbidden, notFound } from '../http/errors.ts';

export class UsersService {
  constructor(private readonly db: Database) {}

  /** A user's own details; an admin may look up anyone. */
  async details(auth: AuthContext, email: string): Promise<UserDetails> {
    const wanted = normaliseEmail(email);
    if (wanted !== auth.email && !isAdmin(auth.role))
      throw forbidden('You can only see your own account.');
    const user = await findUserByEmail(this.db, wanted);
    if (!user) throw notFound('No account has this e-mail address.');
    return {
      userID: user.id,
      emailID: user.email,
      userName: user.fullName || user.email,
      role: user.role,
      emailConfirmed: user.emailConfirmed,
    };
  }

  /** Every account, for admins only (the spec's open list is a defect: docs/decisions/0007). */
  async list(auth: AuthContext): Promise<UserListItem[]> {
    if (!isAdmin(auth.role)) throw forbidden('Only administrators can see the user list.');
    const rows = await listUsers(this.db);
    return rows.map((user) => ({
      firstName: user.firstName,
      lastName: user.lastName,
      emailID: user.email,
      address: user.address,
      zip: user.zip,
      lastLogin: user.lastLoginAt?.toISOString() ?? null,
    }));
  }
}
