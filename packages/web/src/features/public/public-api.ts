import {
  FeedbackUploadResponseSchema,
  PartnerListSchema,
  ResultSchema,
  type Feedback,
  type Partner,
  type Result,
} from '@ratelens/core';
import { ApiRequestError, expectSuccess, requestJson } from '../../shared/http.ts';

/** search-and-accounts §8 "Contact failure": the network message when the file upload fails. */
export const UPLOAD_NETWORK_MESSAGE =
  'The file could not be uploaded. Check your connection and try again.';

function serverMessage(data: unknown): string | null {
  if (typeof data === 'object' && data !== null && 'message' in data) {
    return typeof data.message === 'string' && data.message !== '' ? data.message : null;
  }
  return null;
}

/**
 * `POST /api/Feedback/uploadfeedbackfile`, multipart field `File`. Resolves to the token the
 * server answered, to send back as `fileName`. `requestJson` only sends JSON, hence the fetch.
 */
export async function uploadFeedbackFile(file: File, signal?: AbortSignal): Promise<string> {
  const body = new FormData();
  body.append('File', file);

  let response: Response;
  try {
    response = await fetch('/api/Feedback/uploadfeedbackfile', {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body,
      signal: signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, UPLOAD_NETWORK_MESSAGE);
  }

  let data: unknown;
  try {
    data = await response.json();
  } catch {
    data = undefined;
  }
  const parsed = FeedbackUploadResponseSchema.safeParse(data);
  if (response.ok && parsed.success && parsed.data.isSuccess) return parsed.data.message;
  throw new ApiRequestError(response.ok ? 200 : response.status, serverMessage(data));
}

/** `POST /api/Feedback/savefeedback`; `isSuccess: false` is a failure with the server's message. */
export async function saveFeedback(feedback: Feedback): Promise<Result> {
  return expectSuccess(
    await requestJson('/api/Feedback/savefeedback', {
      method: 'POST',
      body: feedback,
      schema: ResultSchema,
    }),
  );
}

/** `GET /api/Partner/list`. */
export async function listPartners(signal?: AbortSignal): Promise<Partner[]> {
  const result = await requestJson('/api/Partner/list', { schema: PartnerListSchema, signal });
  return result.data;
}
