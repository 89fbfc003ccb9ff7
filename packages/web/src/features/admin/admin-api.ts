import {
  FailingFileSchema,
  FeedbackItemSchema,
  HospitalLabelsSchema,
  HospitalRefreshSchema,
  OrganisationSchema,
  PartnerSchema,
  PlanDesignSchema,
  RefreshStatusSchema,
  ResultSchema,
  type FailingFile,
  type FeedbackItem,
  type HospitalClassification,
  type HospitalLabels,
  type HospitalRefresh,
  type OrganisationInput,
  type OrganisationView,
  type Partner,
  type PlanDesign,
  type RefreshStatus,
  type Result,
} from '@ratelens/core';
import { authedDownload, authedRequest } from '../auth/api-client.ts';
import { NO_ACCESS_MESSAGE } from '../auth/guards.tsx';
import { ApiRequestError, errorMessage, expectSuccess } from '../../shared/http.ts';

/**
 * The administrators' calls. A 403 (signed in, not an administrator) is answered on the page
 * instead of ending the session, as on the user list; a 400 on a form is a validation answer
 * (field messages), not the end of the session either.
 */
export const KEEP_ON_READ = [403] as const;
export const KEEP_ON_WRITE = [400, 403] as const;

/** The queries of the administrators' page of failing files (routes/admin-files.tsx). */
export const adminFilesKeys = {
  refreshStatus: ['admin', 'refresh-status'] as const,
  failingFiles: ['admin', 'failing-files'] as const,
};

/** The message of a failed administrators' call: a 403 says the page is not for this account. */
export function adminErrorMessage(error: unknown): string {
  return error instanceof ApiRequestError && error.status === 403
    ? NO_ACCESS_MESSAGE
    : errorMessage(error);
}

/** `GET /api/admin/files/failing`: the hospitals whose latest read of their file failed. */
export function getFailingFiles(signal?: AbortSignal): Promise<FailingFile[]> {
  return authedRequest('/api/admin/files/failing', {
    schema: FailingFileSchema.array(),
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

/** `GET /api/admin/refresh`: the daily refresh of the hospitals' files, and the requests waiting. */
export function getRefreshStatus(signal?: AbortSignal): Promise<RefreshStatus> {
  return authedRequest('/api/admin/refresh', {
    schema: RefreshStatusSchema,
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

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

/** `GET /api/admin/organisations`: the employer organisations with their member e-mails. */
export function listOrganisations(signal?: AbortSignal): Promise<OrganisationView[]> {
  return authedRequest('/api/admin/organisations', {
    schema: OrganisationSchema.array(),
    keepSessionOn: KEEP_ON_READ,
    signal,
  });
}

/**
 * `POST /api/admin/organisations`, or `PUT /api/admin/organisations/<id>` with an id (the member
 * list is replaced). A 409 (an e-mail already belongs to another organisation) carries the
 * server's message.
 */
export function saveOrganisation(
  input: OrganisationInput,
  id: string | null = null,
): Promise<OrganisationView> {
  return authedRequest(
    id === null ? '/api/admin/organisations' : `/api/admin/organisations/${encodeURIComponent(id)}`,
    {
      method: id === null ? 'POST' : 'PUT',
      body: input,
      schema: OrganisationSchema,
      keepSessionOn: KEEP_ON_WRITE,
    },
  );
}

/** `DELETE /api/admin/organisations/<id>` (204). */
export async function deleteOrganisation(id: string): Promise<void> {
  await authedRequest(`/api/admin/organisations/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    keepSessionOn: KEEP_ON_WRITE,
  });
}

/** `PUT /api/admin/plan-design`: the plan out-of-pocket estimates assume; answers the saved plan. */
export function savePlanDesign(plan: PlanDesign): Promise<PlanDesign> {
  return authedRequest('/api/admin/plan-design', {
    method: 'PUT',
    body: plan,
    schema: PlanDesignSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

/**
 * `PUT /api/admin/hospitals/<id>/classification`: the hospital's type and health-system labels
 * (the rate search's HospitalType and healthsystemType); an empty label clears it.
 */
export function classifyHospital(
  hospitalId: string,
  labels: HospitalClassification,
): Promise<HospitalLabels> {
  return authedRequest(`/api/admin/hospitals/${encodeURIComponent(hospitalId)}/classification`, {
    method: 'PUT',
    body: labels,
    schema: HospitalLabelsSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}

/** `POST /api/admin/hospitals/{id}/refresh`: the background worker asked to read its file again. */
export function refreshHospital(hospitalId: string): Promise<HospitalRefresh> {
  return authedRequest(`/api/admin/hospitals/${encodeURIComponent(hospitalId)}/refresh`, {
    method: 'POST',
    schema: HospitalRefreshSchema,
    keepSessionOn: KEEP_ON_WRITE,
  });
}
