import type { Executor } from '../client.ts';
import { auditLog } from '../schema.ts';

/** Who did what to which account; never holds passwords, tokens or request bodies. */
export async function audit(
  db: Executor,
  entry: { userId?: string | null; action: string; detail?: Record<string, unknown> },
): Promise<void> {
  await db
    .insert(auditLog)
    .values({ userId: entry.userId ?? null, action: entry.action, detail: entry.detail ?? {} });
}
