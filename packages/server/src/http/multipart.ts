import type { FastifyRequest } from 'fastify';
import { MULTIPART_ONLY } from './body-types.ts';
import { AppError, badRequest } from './errors.ts';
import { nulCharacterError } from './nul-characters.ts';

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
  options: {
    maxBytes: number;
    tooLargeMessage: string;
    /** The text fields the route reads: only these are kept, and checked whole and once. */
    fields?: readonly string[];
  },
): Promise<MultipartForm> {
  const read = new Set(options.fields ?? []);
  const form: MultipartForm = { fields: {}, file: undefined };
  if (!request.isMultipart()) throw new AppError(415, MULTIPART_ONLY);
  const parts = request.parts({
    limits: { fileSize: options.maxBytes, files: 1, fields: 20, fieldSize: 10_000 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        form.file = { fieldName: part.fieldname, fileName: part.filename, bytes };
      } else if (typeof part.value === 'string') {
        const field = part.fieldname;
        if (part.value.includes('\0')) {
          const error = nulCharacterError(field);
          throw badRequest(error.message, [error]);
        }
        if (!read.has(field)) continue;
        // Cut to the limit or given twice, a value would be stored other than it was sent.
        if (part.valueTruncated)
          throw fieldRefused(field, 'too_big', `${field} must not be more than 10,000 bytes.`);
        if (Object.hasOwn(form.fields, field))
          throw fieldRefused(field, 'repeated', `${field} must be given once.`);
        form.fields[field] = part.value;
      }
    }
  } catch (error) {
    throw formError(error, options.tooLargeMessage);
  }
  return form;
}

function fieldRefused(field: string, rule: string, message: string): AppError {
  return badRequest(message, [{ field, rule, message }]);
}

/**
 * What a failed read of the form says: too large a file is a 413; a second file, too many fields
 * or a body that is not a whole multipart form (no boundary, cut short) is the sender's mistake,
 * a 400, where the parser's own errors made it a 500 or a 413 "reach files limit".
 */
function formError(error: unknown, tooLargeMessage: string): Error {
  if (error instanceof AppError) return error;
  if (isFileTooLarge(error)) return new AppError(413, tooLargeMessage);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') return badRequest('Attach one file only.');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return badRequest('The form has too many fields.');
  return badRequest(
    'The upload could not be read: send it as a whole multipart/form-data form with one file.',
  );
}
