import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../client.ts';
import { partners } from '../schema.ts';

export type PartnerRow = typeof partners.$inferSelect;
export type PartnerSummaryRow = Omit<PartnerRow, 'image'>;
export type NewPartner = Omit<typeof partners.$inferInsert, 'id' | 'createdAt' | 'position'> & {
  position?: number;
};

const summary = {
  id: partners.id,
  name: partners.name,
  website: partners.website,
  imageType: partners.imageType,
  imageWidth: partners.imageWidth,
  imageHeight: partners.imageHeight,
  position: partners.position,
  createdAt: partners.createdAt,
};

/** Inserts a partner; without a position it goes after the last one. */
export async function insertPartner(db: Executor, partner: NewPartner): Promise<PartnerSummaryRow> {
  const position =
    partner.position ??
    sql<number>`(SELECT coalesce(max(${partners.position}) + 1, 0) FROM ${partners})`;
  const [row] = await db
    .insert(partners)
    .values({ ...partner, position })
    .returning(summary);
  if (!row) throw new Error('partners insert returned no row');
  return row;
}

/** In display order, without the image bytes. */
export async function listPartners(db: Executor): Promise<PartnerSummaryRow[]> {
  return db
    .select(summary)
    .from(partners)
    .orderBy(asc(partners.position), asc(partners.createdAt), asc(partners.id));
}

export async function findPartnerImage(
  db: Executor,
  id: string,
): Promise<Pick<PartnerRow, 'image' | 'imageType'> | undefined> {
  const [row] = await db
    .select({ image: partners.image, imageType: partners.imageType })
    .from(partners)
    .where(eq(partners.id, id))
    .limit(1);
  return row;
}

/** True when a partner was deleted. */
export async function deletePartner(db: Executor, id: string): Promise<boolean> {
  const rows = await db.delete(partners).where(eq(partners.id, id)).returning({ id: partners.id });
  return rows.length > 0;
}
