import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export interface UploadedFile {
  fieldName: string;
  /** The name the browser sent: untrusted, sanitise before storing or echoing it. */
  fileName: string;
  bytes: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  file: UploadedFile | undefined;
}

function isFileTooLarge(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';
}

/**
 * Reads a multipart form with at most one file of at most `maxBytes` (routes registering
 * @fastify/multipart). A larger file answers 413 with `tooLargeMessage`; a request that is not
 * multipart reads as an empty form, so the caller can name the missing field.
 */
export async function readMultipartForm(
  request: FastifyRequest,
  options: { maxBytes: number; tooLargeMessage: string },
): Promise<MultipartForm> {
  const form: MultipartForm = { fields: {}, file: undefined };
  if (!request.isMultipart()) return form;
  const parts = request.parts({
    limits: { fileSize: options.maxBytes, files: 1, fields: 20, fieldSize: 10_000 },
  });
  for await (const part of parts) {
    if (part.type === 'file') {
      try {
        const bytes = await part.toBuffer();
        form.file = { fieldName: part.fieldname, fileName: part.filename, bytes };
      } catch (error) {
        if (isFileTooLarge(error)) throw new AppError(413, options.tooLargeMessage);
        throw error;
      }
    } else if (typeof part.value === 'string') {
      form.fields[part.fieldname] = part.value;
    }
  }
  return form;
}
