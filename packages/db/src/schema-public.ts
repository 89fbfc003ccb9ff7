import {
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/*
 * The public pages (issue 6): contact-form submissions with their attachments, and the partner
 * logos the product serves itself. Uploaded bytes live here, never on the filesystem.
 */

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A contact-form attachment, checked by content on upload; readable by admins only. */
export const feedbackFiles = pgTable(
  'feedback_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    originalName: text('original_name').notNull(),
    /** csv | xlsx | pdf | edi, as detected from the bytes. */
    kind: text('kind').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
    content: bytea('content').notNull(),
  },
  // The day's uploads are summed (the daily budget) and the abandoned ones found by it.
  (t) => [index('feedback_files_created_idx').on(t.createdAt)],
);

export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** Unique: an uploaded file belongs to one submission at most. */
    fileId: uuid('file_id').references(() => feedbackFiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('feedback_file_key').on(t.fileId),
    index('feedback_created_idx').on(t.createdAt),
  ],
);

export const partners = pgTable(
  'partners',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    website: text('website').notNull(),
    image: bytea('image').notNull(),
    /** image/png | image/jpeg | image/webp | image/svg+xml, as detected from the bytes. */
    imageType: text('image_type').notNull(),
    imageWidth: integer('image_width').notNull(),
    imageHeight: integer('image_height').notNull(),
    position: integer('position').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('partners_position_idx').on(t.position, t.createdAt)],
);
