import { createHash } from 'node:crypto';
import {
  FEEDBACK_FILE,
  isAdmin,
  type Feedback,
  type FeedbackItem,
  type Result,
} from '@ratelens/core';
import {
  deleteUnattachedFeedbackFiles,
  feedbackFileBytesSince,
  findFeedbackFile,
  insertFeedback,
  insertFeedbackFile,
  listFeedback,
  lockFeedbackFile,
  type Database,
} from '@ratelens/db';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AuthContext } from '../auth/auth-service.ts';
import { fieldError, forbidden, notFound, tooManyRequests } from '../http/errors.ts';
import type { UploadedFile } from '../http/multipart.ts';
import type { Mailer } from '../mail/mailer.ts';
import { feedbackNotification } from '../mail/templates.ts';
import { FEEDBACK_CONTENT_TYPES, detectFeedbackFileKind, safeFileName } from './file-kind.ts';

export const FILE_TYPE_MESSAGE = 'The attachment must be a CSV, XLSX, PDF or EDI file.';
export const FILE_TOO_LARGE_MESSAGE = `The attachment must not be larger than ${FEEDBACK_FILE.maxBytes / (1024 * 1024)} MB.`;
export const THANK_YOU_MESSAGE = 'Thank you for contacting us. We will get back to you soon.';
const UNKNOWN_TOKEN_MESSAGE = 'The attachment was not found. Please upload the file again.';
export const ATTACHMENTS_FULL_MESSAGE =
  'We cannot take more attachments today. Please send your message without one, or try again tomorrow.';
/**
 * How long an uploaded attachment waits for its message. An upload nobody sends is removed an
 * hour after that (the hour keeps the removal clear of a message being saved at the deadline),
 * so the contact form's public upload cannot fill the database with files.
 */
export const ATTACHMENT_TTL_HOURS = 24;
const HOUR_MS = 60 * 60 * 1000;

const Token = z.uuid();

export interface FeedbackServiceDeps {
  db: Database;
  mailer: Mailer;
  teamEmail: string;
  publicUrl: string;
  /**
   * The bytes of attachments the public may upload in 24 hours, all addresses together. A sent
   * attachment is kept, so without a budget anyone could fill the database at the per-address
   * rate limit's pace, from as many addresses as they have.
   */
  uploadBytesPerDay: number;
}

export interface StoredAttachment {
  name: string;
  contentType: string;
  content: Buffer;
}

/** The contact form (search-and-accounts §2, §5, §7): attachments, submissions, admin reading. */
export class FeedbackService {
  constructor(private readonly deps: FeedbackServiceDeps) {}

  /** Stores an attachment whose bytes are a CSV, XLSX, PDF or EDI file; answers its token. */
  async upload(file: UploadedFile | undefined): Promise<Result> {
    if (!file || file.fieldName !== 'File')
      throw fieldError('File', 'required', 'Choose a file to attach.');
    if (file.bytes.length === 0) throw fieldError('File', 'file-empty', 'The attachment is empty.');
    const kind = detectFeedbackFileKind(file.bytes);
    if (!kind) throw fieldError('File', 'file-type', FILE_TYPE_MESSAGE);
    // Each upload clears the abandoned ones, as each report clears the expired reports: no job.
    await deleteUnattachedFeedbackFiles(
      this.deps.db,
      new Date(Date.now() - (ATTACHMENT_TTL_HOURS + 1) * HOUR_MS),
    );
    const id = await this.deps.db.transaction(async (tx) => {
      // Uploads take turns here, so that the sum below holds until this one is in it.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('feedback-uploads', 0))`);
      const today = await feedbackFileBytesSince(tx, new Date(Date.now() - 24 * HOUR_MS));
      if (today + file.bytes.length > this.deps.uploadBytesPerDay)
        throw tooManyRequests(ATTACHMENTS_FULL_MESSAGE);
      return insertFeedbackFile(tx, {
        originalName: safeFileName(file.fileName, kind),
        kind,
        bytes: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        content: file.bytes,
      });
    });
    return { isSuccess: true, message: id };
  }

  /**
   * Stores a submission with its attachment (a token from `upload`, at most ATTACHMENT_TTL_HOURS
   * old, that no other submission holds), then tells the team. A mail failure is logged, not answered: the submission is kept.
   */
  async save(input: Feedback, log: { error: (detail: object, message: string) => void }) {
    const token = input.fileName.trim();
    const { entry, attachment } = await this.deps.db.transaction(async (tx) => {
      let fileId: string | null = null;
      let attachmentName: string | null = null;
      if (token) {
        const locked = Token.safeParse(token).success
          ? await lockFeedbackFile(tx, token)
          : undefined;
        const expired =
          locked !== undefined &&
          locked.createdAt.getTime() < Date.now() - ATTACHMENT_TTL_HOURS * HOUR_MS;
        if (!locked || (expired && !locked.attached))
          throw fieldError('fileName', 'custom', UNKNOWN_TOKEN_MESSAGE);
        if (locked.attached)
          throw fieldError(
            'fileName',
            'custom',
            'This attachment was already sent with a message.',
          );
        fileId = token;
        attachmentName = locked.originalName;
      }
      const row = await insertFeedback(tx, {
        firstName: input.FirstName.trim(),
        lastName: input.LastName.trim(),
        email: input.email,
        subject: input.subject.trim(),
        message: input.message.trim(),
        fileId,
      });
      return { entry: row, attachment: attachmentName };
    });
    try {
      await this.deps.mailer.send(
        feedbackNotification(this.deps.teamEmail, {
          firstName: entry.firstName,
          lastName: entry.lastName,
          email: entry.email,
          subject: entry.subject,
          message: entry.message,
          receivedAt: entry.createdAt,
          attachment:
            entry.fileId && attachment
              ? { name: attachment, url: `${this.deps.publicUrl}${attachmentPath(entry.fileId)}` }
              : null,
        }),
      );
    } catch (error) {
      log.error(
        { err: error, feedbackId: entry.id },
        'could not notify the team of a contact form',
      );
    }
    return { isSuccess: true, message: THANK_YOU_MESSAGE } satisfies Result;
  }

  async list(auth: AuthContext): Promise<FeedbackItem[]> {
    this.requireAdmin(auth);
    const rows = await listFeedback(this.deps.db);
    return rows.map((row) => ({
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      subject: row.subject,
      message: row.message,
      attachmentName: row.fileId ? row.attachmentName : null,
      attachmentUrl: row.fileId ? attachmentPath(row.fileId) : null,
      receivedAt: row.createdAt.toISOString(),
    }));
  }

  async attachment(auth: AuthContext, id: string): Promise<StoredAttachment> {
    this.requireAdmin(auth);
    const file = await findFeedbackFile(this.deps.db, id);
    if (!file) throw notFound('No attachment has this id.');
    return {
      name: file.originalName,
      contentType:
        (FEEDBACK_CONTENT_TYPES as Record<string, string | undefined>)[file.kind] ??
        'application/octet-stream',
      content: file.content,
    };
  }

  private requireAdmin(auth: AuthContext): void {
    if (!isAdmin(auth.role)) throw forbidden('Only administrators can read contact messages.');
  }
}

export function attachmentPath(fileId: string): string {
  return `/api/Feedback/file/${fileId}`;
}
