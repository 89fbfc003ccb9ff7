import { isAdmin, type OrganisationInput, type OrganisationView } from '@ratelens/core';
import { inTransaction, uniqueViolationOf, type Pool, type PoolClient } from '@ratelens/db';
import type { AuthContext } from '../auth/auth-service.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';

const SELECT = `
  SELECT o.id, o.name, o.account_email AS "accountEmail", o.employer_access AS "employerAccess",
         o.ocr_access AS "ocrAccess", o.employer_ocr AS "employerOcr",
         coalesce(array_agg(m.email ORDER BY m.email) FILTER (WHERE m.email IS NOT NULL), '{}') AS "memberEmails"
    FROM organisations o LEFT JOIN organisation_members m ON m.organisation_id = o.id`;

const accountTaken = (email: string) =>
  conflict(`${email} is already the account of an organisation.`);
const memberTaken = (email: string) =>
  conflict(`${email} is already a member of another organisation.`);

/**
 * Held by every create and update until it commits: an address may be one organisation's account
 * or member only, across two tables that no unique index spans, so two writes at once take turns.
 */
const WRITE_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('organisations', 0))`;

/** Employer organisations and their member e-mails: admin only. */
export class Organisations {
  constructor(private readonly pool: Pool) {}

  private requireAdmin(auth: AuthContext): void {
    if (!isAdmin(auth.role)) throw forbidden('Only administrators can manage organisations.');
  }

  async list(auth: AuthContext): Promise<OrganisationView[]> {
    this.requireAdmin(auth);
    const { rows } = await this.pool.query<OrganisationView>(
      `${SELECT} GROUP BY o.id ORDER BY o.name`,
    );
    return rows;
  }

  private async one(db: Pool | PoolClient, id: string): Promise<OrganisationView> {
    const { rows } = await db.query<OrganisationView>(`${SELECT} WHERE o.id = $1 GROUP BY o.id`, [
      id,
    ]);
    if (!rows[0]) throw notFound('No such organisation.');
    return rows[0];
  }

  private async writeMembers(
    client: PoolClient,
    id: string,
    input: OrganisationInput,
  ): Promise<void> {
    await client.query(`DELETE FROM organisation_members WHERE organisation_id = $1`, [id]);
    const members = [...new Set(input.memberEmails)].filter((e) => e !== input.accountEmail);
    if (members.length === 0) return;
    const { rows: taken } = await client.query<{ email: string }>(
      `SELECT email FROM organisation_members WHERE email = ANY($1::text[]) AND organisation_id <> $2`,
      [members, id],
    );
    if (taken[0]) throw memberTaken(taken[0].email);
    // Nor another organisation's account: entitlements would follow one of the two.
    const { rows: accounts } = await client.query<{ email: string }>(
      `SELECT account_email AS email FROM organisations WHERE account_email = ANY($1::text[]) AND id <> $2`,
      [members, id],
    );
    if (accounts[0]) throw accountTaken(accounts[0].email);
    await client.query(
      `INSERT INTO organisation_members (organisation_id, email) SELECT $1, unnest($2::text[])`,
      [id, members],
    );
  }

  private async accountEmailFree(client: PoolClient, email: string, id: string | null) {
    const { rows } = await client.query(
      `SELECT 1 FROM organisations WHERE account_email = $1 AND ($2::uuid IS NULL OR id <> $2)`,
      [email, id],
    );
    if (rows.length > 0) throw accountTaken(email);
    const { rows: members } = await client.query(
      `SELECT 1 FROM organisation_members
        WHERE email = $1 AND ($2::uuid IS NULL OR organisation_id <> $2)`,
      [email, id],
    );
    if (members.length > 0) throw memberTaken(email);
  }

  /**
   * Runs a create or an update, under WRITE_LOCK. Its checks read before it writes, so a row
   * written in between by other means (SQL, a migration) meets the unique indexes instead: the
   * same 409, not a 500.
   */
  private async writing<T>(input: OrganisationInput, work: (client: PoolClient) => Promise<T>) {
    try {
      return await inTransaction(this.pool, async (client) => {
        await client.query(WRITE_LOCK);
        return work(client);
      });
    } catch (error) {
      const index = uniqueViolationOf(error);
      if (index === 'organisations_account_email_key') throw accountTaken(input.accountEmail);
      if (index === 'organisation_members_email_key')
        throw conflict('A member e-mail was just added to another organisation: try again.');
      throw error;
    }
  }

  async create(auth: AuthContext, input: OrganisationInput): Promise<OrganisationView> {
    this.requireAdmin(auth);
    return this.writing(input, async (client) => {
      await this.accountEmailFree(client, input.accountEmail, null);
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO organisations (name, account_email, employer_access, ocr_access, employer_ocr)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [input.name, input.accountEmail, input.employerAccess, input.ocrAccess, input.employerOcr],
      );
      const id = rows[0]?.id;
      if (!id) throw new Error('organisation not created');
      await this.writeMembers(client, id, input);
      return this.one(client, id);
    });
  }

  async update(auth: AuthContext, id: string, input: OrganisationInput): Promise<OrganisationView> {
    this.requireAdmin(auth);
    return this.writing(input, async (client) => {
      await this.accountEmailFree(client, input.accountEmail, id);
      const { rowCount } = await client.query(
        `UPDATE organisations SET name = $2, account_email = $3, employer_access = $4, ocr_access = $5, employer_ocr = $6
          WHERE id = $1`,
        [
          id,
          input.name,
          input.accountEmail,
          input.employerAccess,
          input.ocrAccess,
          input.employerOcr,
        ],
      );
      if (!rowCount) throw notFound('No such organisation.');
      await this.writeMembers(client, id, input);
      return this.one(client, id);
    });
  }

  async remove(auth: AuthContext, id: string): Promise<void> {
    this.requireAdmin(auth);
    const { rowCount } = await this.pool.query(`DELETE FROM organisations WHERE id = $1`, [id]);
    if (!rowCount) throw notFound('No such organisation.');
  }
}
