import { deleteExpiredReports, findLiveReport, insertReport, type Executor } from '@ratelens/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashToken, randomToken } from '../auth/tokens.ts';
import { attachmentDisposition } from '../http/attachment.ts';
import { notFound } from '../http/errors.ts';

export { deleteExpiredReports };

/** A link token as randomToken makes it: 32 random bytes in base64url, 43 characters. */
export const REPORT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface StoredReport {
  fileName: string;
  pdf: Buffer;
}

/**
 * Keeps a rendered report behind a new unguessable link. Only the token's SHA-256 is stored: the
 * token itself exists in the link (the text message) and nowhere else.
 */
export async function storeReport(
  db: Executor,
  report: { userId: string; fileName: string; pdf: Buffer; ttlHours: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const expiresAt = new Date(Date.now() + report.ttlHours * 3_600_000);
  // Each new report clears the expired ones (indexed on expires_at): no job needed to keep the
  // table to the reports whose links still work.
  await deleteExpiredReports(db);
  await insertReport(db, {
    tokenHash: hashToken(token),
    userId: report.userId,
    fileName: report.fileName,
    pdf: report.pdf,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The report of a link, or null when the token is malformed, unknown or expired. */
export async function loadReport(db: Executor, token: string): Promise<StoredReport | null> {
  if (!REPORT_TOKEN_PATTERN.test(token)) return null;
  const row = await findLiveReport(db, hashToken(token));
  return row ? { fileName: row.fileName, pdf: row.pdf } : null;
}

/** The address a report is read at: reportsRoutes is registered under /api. */
export function reportUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/reports/${token}`;
}

const ParamsSchema = z.object({
  token: z
    .string()
    .regex(
      REPORT_TOKEN_PATTERN,
      'This report link is not complete. Open the whole link from the text message.',
    ),
});

/**
 * The texted report's link (§4 "Text me a report"). Whoever holds the link may read the report
 * until it expires, so it needs no sign-in; it is never cached and never sent as a referrer.
 */
export const reportsRoutes: FastifyPluginAsyncZod<{ db: Executor }> = async (app, { db }) => {
  app.get('/reports/:token', {
    config: { refusals: { 404: 'The report link has expired or does not exist.' } },
    schema: {
      tags: ['Reports'],
      summary: 'A texted PDF rate report, by the token of its link',
      params: ParamsSchema,
      produces: ['application/pdf'],
    },
    handler: async (request, reply) => {
      const report = await loadReport(db, request.params.token);
      if (!report)
        throw notFound(
          'This report link has expired or does not exist. Ask for a new report from your search results.',
        );
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          attachmentDisposition(report.fileName).replace(/^attachment/, 'inline'),
        )
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .header('x-content-type-options', 'nosniff')
        .send(report.pdf);
    },
  });
};
