import {
  CodeOptionSchema,
  EmployersAccessSchema,
  EntitlementSchema,
  OopRateRowSchema,
  PlanDesignSchema,
  ResultSchema,
  StatewiseAccessSchema,
  SummaryRowSchema,
  type CodeOption,
  type CustomSearchInput,
  type Entitlement,
  type OopRateRow,
  type PlanDesign,
  type Result,
  type SearchInput,
  type SendPdfBody,
  type SummaryRow,
} from '@ratelens/core';
import { authedFile, authedRequest } from '../auth/api-client.ts';
import {
  ApiRequestError,
  expectSuccess,
  requestJson,
  withQuery,
  type DownloadedFile,
  type ResponseSchema,
} from '../../shared/http.ts';

/**
 * The calls of the rate search (search-and-accounts §7, the `OobRates/…` rows). All but the
 * billing classes carry the bearer token and the secret key.
 *
 * A 403 on a search is a refusal (the free allowance is used up, the subscription expired): the
 * page shows the server's message and goes home, so it must not end the session as other 403s do.
 */
const KEEP_ON_REFUSAL = [403] as const;

const StringListSchema: ResponseSchema<string[]> = {
  parse(input) {
    if (Array.isArray(input) && input.every((item) => typeof item === 'string')) return input;
    throw new TypeError('Expected a list of strings.');
  },
};

/** `GET OobRates/getoobratesSetting`: the billing classes (public). */
export function getBillingClasses(): Promise<string[]> {
  return requestJson('/api/OobRates/getoobratesSetting', { schema: StringListSchema });
}

/** `GET OobRates/getReportType?email=&userId=`: the first element is the entitlement. */
export async function getEntitlement(userName: string, userId: string): Promise<Entitlement> {
  const list = await authedRequest(
    withQuery('/api/OobRates/getReportType', { email: userName, userId }),
    { schema: EntitlementSchema.array() },
  );
  const first = list[0];
  if (!first) throw new ApiRequestError(200, null);
  return first;
}

/** `GET OobRates/getoobratesStatewiseUserAccess?email=`: state code → state name. */
export function getStatewiseAccess(account: string): Promise<Record<string, string>> {
  return authedRequest(
    withQuery('/api/OobRates/getoobratesStatewiseUserAccess', { email: account }),
    { schema: StatewiseAccessSchema },
  );
}

export type EmployerAccess = 'yes' | 'no';

/** `POST OobRates/getoobratesEmployersAccess {accout}`: the first item's API flag. */
export async function getEmployerAccess(account: string): Promise<EmployerAccess> {
  const list = await authedRequest('/api/OobRates/getoobratesEmployersAccess', {
    method: 'POST',
    body: { accout: account },
    schema: EmployersAccessSchema,
  });
  return list[0]?.API ?? 'no';
}

export interface CodeQuery {
  stateCode: string;
  msaId: string;
  msaName: string;
  queryText: string;
}

/** `GET OobRates/GetCodeDescriptionbyMSA?FilterJson={…}`: the code options for the typed text. */
export function searchCodes(query: CodeQuery, signal?: AbortSignal): Promise<CodeOption[]> {
  const FilterJson = JSON.stringify(query);
  return authedRequest(withQuery('/api/OobRates/GetCodeDescriptionbyMSA', { FilterJson }), {
    schema: CodeOptionSchema.array(),
    signal,
  });
}

/** `POST OobRates/getoobrates`: the standard search (single person, nothing spent this year). */
export function getRates(input: SearchInput): Promise<OopRateRow[]> {
  return authedRequest('/api/OobRates/getoobrates', {
    method: 'POST',
    body: input,
    schema: OopRateRowSchema.array(),
    keepSessionOn: KEEP_ON_REFUSAL,
  });
}

/** `POST OobRates/Getoobrateswithcustomvalue`: the search with family status and YTD spend. */
export function getCustomRates(input: CustomSearchInput): Promise<OopRateRow[]> {
  return authedRequest('/api/OobRates/Getoobrateswithcustomvalue', {
    method: 'POST',
    body: input,
    schema: OopRateRowSchema.array(),
    keepSessionOn: KEEP_ON_REFUSAL,
  });
}

/** `POST OobRates/getoobratesSummery`: low, average, high and cash price per hospital. */
export function getSummary(input: SearchInput): Promise<SummaryRow[]> {
  return authedRequest('/api/OobRates/getoobratesSummery', {
    method: 'POST',
    body: input,
    schema: SummaryRowSchema.array(),
    keepSessionOn: KEEP_ON_REFUSAL,
  });
}

/** `GET OobRates/getPlanDesign`: the plan the out-of-pocket estimates assume. */
export function getPlanDesign(): Promise<PlanDesign> {
  return authedRequest('/api/OobRates/getPlanDesign', { schema: PlanDesignSchema });
}

/**
 * `GET OobRates/exportOobData?oobinput=…` (or `exportOobDatacustomvalue` with family status and
 * YTD spend): the rates as a spreadsheet. The name comes from Content-Disposition, else
 * '{state}.xlsx' (§7).
 */
export async function exportRates(
  input: SearchInput | CustomSearchInput,
): Promise<{ blob: Blob; fileName: string }> {
  const custom = 'lives' in input;
  const path = custom ? '/api/OobRates/exportOobDatacustomvalue' : '/api/OobRates/exportOobData';
  const file: DownloadedFile = await authedFile(
    withQuery(path, { oobinput: JSON.stringify(input) }),
    { keepSessionOn: KEEP_ON_REFUSAL },
  );
  return {
    blob: file.blob,
    fileName: file.fileName ?? `${input.stateName ?? input.stateCode}.xlsx`,
  };
}

/**
 * `GET OobRates/logIndvsubscount` (header userId): counts one search of an individual
 * subscription. Its answer is not shown (§7); the refreshed entitlement carries the new count.
 */
export async function logIndividualSearch(userId: string): Promise<void> {
  await authedRequest('/api/OobRates/logIndvsubscount', {
    headers: { userId },
    keepSessionOn: KEEP_ON_REFUSAL,
  });
}

/**
 * `POST OobRates/sendPdftoUser`: texts a link to the PDF report. `isSuccess: false` is a failure.
 * A 400 or 403 is the send failing, shown as such, not the end of the session.
 */
export async function sendReport(body: SendPdfBody): Promise<Result> {
  return expectSuccess(
    await authedRequest('/api/OobRates/sendPdftoUser', {
      method: 'POST',
      body,
      schema: ResultSchema,
      keepSessionOn: [400, 403],
    }),
  );
}
