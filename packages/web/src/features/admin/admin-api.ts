import {
  FeedbackItemSchema,
  PartnerSchema,
  ResultSchema,
  type FeedbackItem,
  type Partner,
  type Result,
} from '@ratelens/core';
import { authedDownload, authedRequest } from '../auth/api-client.ts';
import { expectSuccess } from '../../shared/http.ts';

/**
 * The administrators' calls. A 403 (signed in, not an administrator) is answered on the page
 * instead of ending the session, as on the user list; a 400 on a form is a validation answer
 * (field messages), not the end of the session either.
 */
const KEEP_ON_READ = [403] as const;
const KEEP_ON_WRITE = [400, 403] as const;

/** `GET /api/Feedback/list`: the contact-form messages, newest first. */
export function getFeedback(signal?: AbortSignal): Promise<FeedbackItem[]> {
  return authedRequest('/api/Feedback/list', {
    schema: FeedbackItemSchema.array(),
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

/** The attachment of a message (`attachmentUrl`, `/api/Feedback/file/<id>`), as a Blob. */
export function downloadFeedbackFile(attachmentUrl: string): Promise<Blob> {
  return authedDownload(attachmentUrl, { keepSessionOn: KEEP_ON_READ });
}

export interface NewPartner {
  name: string;
  website: string;
  /** A whole number, or '' for the server's default. */
  position: string;
  image: File;
}

/** `POST /api/Partner`, multipart: `name`, `website`, optional `position`, file `image`. */
export function createPartner(partner: NewPartner): Promise<Partner> {
  const body = new FormData();
  body.append('name', partner.name);
  body.append('website', partner.website);
  if (partner.position !== '') body.append('position', partner.position);
  body.append('image', partner.image, partner.image.name);
  return authedRequest('/api/Partner', {
    method: 'POST',
    body,
    schema: PartnerSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

/** `DELETE /api/Partner/<id>`; `isSuccess: false` is a failure with the server's message. */
export async function deletePartner(id: string): Promise<Result> {
  return expectSuccess(
    await authedRequest(`/api/Partner/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      schema: ResultSchema,
      keepSessionOn: KEEP_ON_WRITE,
    }),
  );
}
