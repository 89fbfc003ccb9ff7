import {
  isAdmin,
  wholeNumberOrDigits,
  type FieldError,
  type Partner,
  type Result,
} from '@ratelens/core';
import {
  deletePartner,
  findPartnerImage,
  insertPartner,
  listPartners,
  type Database,
  type PartnerSummaryRow,
} from '@ratelens/db';
import { z } from 'zod';
import type { AuthContext } from '../auth/auth-service.ts';
import { badRequest, fieldError, forbidden, notFound } from '../http/errors.ts';
import type { MultipartForm } from '../http/multipart.ts';
import { imageInfo } from './image-info.ts';

export const PARTNER_IMAGE_MAX_BYTES = 1024 * 1024;
export const IMAGE_TOO_LARGE_MESSAGE = 'The image must not be larger than 1 MB.';
const IMAGE_TYPE_MESSAGE = 'The image must be a PNG, JPEG, WebP or SVG file.';
/** A logo's largest side: a PNG's header may claim up to 2³² − 1 pixels, more than the column holds. */
const MAX_IMAGE_SIDE = 10_000;
const IMAGE_SIZE_MESSAGE = `The image must not be more than ${MAX_IMAGE_SIDE.toLocaleString('en-US')} pixels wide or high.`;

const PartnerFieldsSchema = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name should not be blank.')
    .max(100, 'Name should not be more than 100 characters.'),
  website: z
    // abort: a value that is no URL at all is not given to the check below, whose new URL throws.
    .url({ protocol: /^https$/, error: 'Website must be an https:// address.', abort: true })
    // A public link holds no user name or password (https://user:pass@host/ shows them to all).
    .refine((url) => {
      const parsed = new URL(url);
      return parsed.username === '' && parsed.password === '';
    }, 'Website must not hold a user name or password.'),
  // Digits only: `z.coerce` read "0x10" as 16 and "1e3" as 1000.
  position: wholeNumberOrDigits('Position must be a whole number.', (n) =>
    n.min(0, 'Position must be a whole number.').max(1_000_000, 'Position is too large.'),
  ).optional(),
});

export interface PartnerImage {
  content: Buffer;
  contentType: string;
}

function present(row: PartnerSummaryRow): Partner {
  return {
    id: row.id,
    name: row.name,
    website: row.website,
    imageurl: `/api/Partner/image/${row.id}`,
    imageWidth: row.imageWidth,
    imageHeight: row.imageHeight,
  };
}

/** The partner logos of /partner (subscriptions-and-payments §2): served by us, never hot-linked. */
export class PartnersService {
  constructor(private readonly db: Database) {}

  async list(): Promise<{ data: Partner[] }> {
    return { data: (await listPartners(this.db)).map(present) };
  }

  async image(id: string): Promise<PartnerImage> {
    const row = await findPartnerImage(this.db, id);
    if (!row) throw notFound('No partner image has this id.');
    return { content: row.image, contentType: row.imageType };
  }

  /** Adds a partner; the form is read only once the caller is known to be an administrator. */
  async create(auth: AuthContext, readForm: () => Promise<MultipartForm>): Promise<Partner> {
    this.requireAdmin(auth);
    const form = await readForm();
    const fields = PartnerFieldsSchema.safeParse({
      ...form.fields,
      position: form.fields.position?.trim() || undefined,
    });
    if (!fields.success) {
      const errors: FieldError[] = fields.error.issues.map((issue) => ({
        field: issue.path.join('.'),
        rule: issue.code,
        message: issue.message,
      }));
      throw badRequest([...new Set(errors.map((e) => e.message))].join(' '), errors);
    }
    const file = form.file;
    if (!file || file.fieldName !== 'image' || file.bytes.length === 0)
      throw fieldError('image', 'required', 'Choose an image.');
    const info = imageInfo(file.bytes);
    if (!info) throw fieldError('image', 'file-type', IMAGE_TYPE_MESSAGE);
    if (Math.max(info.width, info.height) > MAX_IMAGE_SIDE)
      throw fieldError('image', 'too_big', IMAGE_SIZE_MESSAGE);
    const row = await insertPartner(this.db, {
      name: fields.data.name,
      website: fields.data.website,
      position: fields.data.position,
      image: file.bytes,
      imageType: info.type,
      imageWidth: info.width,
      imageHeight: info.height,
    });
    return present(row);
  }

  async remove(auth: AuthContext, id: string): Promise<Result> {
    this.requireAdmin(auth);
    const deleted = await deletePartner(this.db, id);
    if (!deleted) throw notFound('No partner has this id.');
    return { isSuccess: true, message: 'The partner was removed.' };
  }

  private requireAdmin(auth: AuthContext): void {
    if (!isAdmin(auth.role)) throw forbidden('Only administrators can manage partners.');
  }
}
