import { desc, eq } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { outboxMessages } from '../schema.ts';

export type OutboxMessageRow = typeof outboxMessages.$inferSelect;

export async function insertOutboxMessage(
  db: Executor,
  message: { channel?: string; to: string; subject: string; text: string; html: string },
): Promise<void> {
  await db.insert(outboxMessages).values(message);
}

/** Newest first; optionally only the messages to one address. */
export async function listOutboxMessages(
  db: Executor,
  options: { to?: string; limit?: number } = {},
): Promise<OutboxMessageRow[]> {
  const query = db.select().from(outboxMessages);
  const filtered = options.to ? query.where(eq(outboxMessages.to, options.to)) : query;
  return filtered
    .orderBy(desc(outboxMessages.sentAt), desc(outboxMessages.id))
    .limit(options.limit ?? 200);
}
