import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { reports } from '../schema.ts';

export type ReportRow = typeof reports.$inferSelect;

export async function insertReport(
  db: Executor,
  report: { tokenHash: string; userId: string; fileName: string; pdf: Buffer; expiresAt: Date },
): Promise<void> {
  await db.insert(reports).values(report);
}

/** How many reports the user has had made since `since` (of those not yet deleted). */
export async function countReportsOfUserSince(
  db: Executor,
  userId: string,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(reports)
    .where(and(eq(reports.userId, userId), gt(reports.createdAt, since)));
  return row?.count ?? 0;
}

/** The report behind a link's token hash, unless it has expired. */
export async function findLiveReport(
  db: Executor,
  tokenHash: string,
): Promise<Pick<ReportRow, 'fileName' | 'pdf' | 'expiresAt'> | undefined> {
  const [row] = await db
    .select({ fileName: reports.fileName, pdf: reports.pdf, expiresAt: reports.expiresAt })
    .from(reports)
    .where(and(eq(reports.tokenHash, tokenHash), gt(reports.expiresAt, sql`now()`)))
    .limit(1);
  return row;
}

/** Removes the reports whose links have expired; returns how many. */
export async function deleteExpiredReports(db: Executor): Promise<number> {
  const rows = await db
    .delete(reports)
    .where(lte(reports.expiresAt, sql`now()`))
    .returning({ tokenHash: reports.tokenHash });
  return rows.length;
}
