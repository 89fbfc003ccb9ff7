import { and, desc, eq, gt, lt, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { feedback, feedbackFiles } from '../schema.ts';

export type FeedbackFileRow = typeof feedbackFiles.$inferSelect;
export type NewFeedbackFile = Omit<typeof feedbackFiles.$inferInsert, 'id' | 'createdAt'>;
export type FeedbackRow = typeof feedback.$inferSelect;
export type NewFeedback = Omit<typeof feedback.$inferInsert, 'id' | 'createdAt'>;

export async function insertFeedbackFile(db: Executor, file: NewFeedbackFile): Promise<string> {
  const [row] = await db.insert(feedbackFiles).values(file).returning({ id: feedbackFiles.id });
  if (!row) throw new Error('feedback_files insert returned no row');
  return row.id;
}

/** The bytes of the attachments uploaded since `since`, sent with a message or not. */
export async function feedbackFileBytesSince(db: Executor, since: Date): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<number>`coalesce(sum(${feedbackFiles.bytes}), 0)::float8` })
    .from(feedbackFiles)
    .where(gt(feedbackFiles.createdAt, since));
  return row?.bytes ?? 0;
}

export async function findFeedbackFile(
  db: Executor,
  id: string,
): Promise<FeedbackFileRow | undefined> {
  const [row] = await db.select().from(feedbackFiles).where(eq(feedbackFiles.id, id)).limit(1);
  return row;
}

/**
 * Locks an uploaded file for the transaction and says when it was uploaded and whether a
 * submission already holds it; undefined when there is no such file.
 */
export async function lockFeedbackFile(
  db: Executor,
  id: string,
): Promise<{ originalName: string; createdAt: Date; attached: boolean } | undefined> {
  const [file] = await db
    .select({ originalName: feedbackFiles.originalName, createdAt: feedbackFiles.createdAt })
    .from(feedbackFiles)
    .where(eq(feedbackFiles.id, id))
    .for('update');
  if (!file) return undefined;
  const [holder] = await db
    .select({ id: feedback.id })
    .from(feedback)
    .where(eq(feedback.fileId, id))
    .limit(1);
  return { ...file, attached: holder !== undefined };
}

/** Removes the files uploaded before `before` that no submission holds; returns how many. */
export async function deleteUnattachedFeedbackFiles(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(feedbackFiles)
    .where(
      and(
        lt(feedbackFiles.createdAt, before),
        notExists(
          db
            .select({ id: feedback.id })
            .from(feedback)
            .where(eq(feedback.fileId, feedbackFiles.id)),
        ),
      ),
    )
    .returning({ id: feedbackFiles.id });
  return rows.length;
}

export async function insertFeedback(db: Executor, entry: NewFeedback): Promise<FeedbackRow> {
  const [row] = await db.insert(feedback).values(entry).returning();
  if (!row) throw new Error('feedback insert returned no row');
  return row;
}

/** Newest first, with the attachment's name when there is one (never its bytes). */
export async function listFeedback(
  db: Executor,
  limit = 500,
): Promise<(FeedbackRow & { attachmentName: string | null })[]> {
  const rows = await db
    .select({ entry: feedback, attachmentName: feedbackFiles.originalName })
    .from(feedback)
    .leftJoin(feedbackFiles, eq(feedbackFiles.id, feedback.fileId))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(limit);
  return rows.map(({ entry, attachmentName }) => ({ ...entry, attachmentName }));
}
