import { vi } from 'vitest';
import { jsonResponse } from './render.tsx';
import { ALASKA_MSAS, ENTITLED, MRI_CODES, PLAN, SUMMARY, rateRow } from './search-fixtures.ts';

type Answer =
  Response | ((url: URL, init: RequestInit | undefined) => Response | Promise<Response>);

/**
 * A stand-in for the search API: each call answers from `answers` by its path (case as the app
 * sends it), else a default for a searchable consumer in Alaska, else 404.
 */
export function stubSearchApi(answers: Record<string, Answer> = {}) {
  const defaults: Record<string, Answer> = {
    '/api/OobRates/getoobratesSetting': jsonResponse(200, ['Inpatient', 'Outpatient', 'Drugs']),
    '/api/OobRates/getReportType': jsonResponse(200, [ENTITLED]),
    '/api/OobRates/getoobratesStatewiseUserAccess': jsonResponse(200, {
      WA: 'Washington',
      AK: 'Alaska',
      AL: 'Alabama',
    }),
    '/api/OobRates/getoobratesEmployersAccess': jsonResponse(200, [{ API: 'no' }]),
    '/api/Subscription/getmsafilter': (url) =>
      jsonResponse(200, url.searchParams.get('stateCode') === 'AK' ? ALASKA_MSAS : []),
    '/api/OobRates/GetCodeDescriptionbyMSA': (url) => {
      const filter = JSON.parse(url.searchParams.get('FilterJson') ?? '{}') as {
        queryText?: string;
      };
      const text = filter.queryText ?? '';
      return jsonResponse(
        200,
        MRI_CODES.filter((option) => option.procedureCode.trim().startsWith(text)),
      );
    },
    '/api/OobRates/getPlanDesign': jsonResponse(200, PLAN),
    '/api/OobRates/getoobrates': jsonResponse(200, [rateRow()]),
    '/api/OobRates/Getoobrateswithcustomvalue': jsonResponse(200, [rateRow()]),
    '/api/OobRates/getoobratesSummery': jsonResponse(200, SUMMARY),
  };
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const answer = answers[url.pathname] ?? defaults[url.pathname];
    if (answer === undefined) return Promise.resolve(jsonResponse(404, { message: 'Not found.' }));
    return Promise.resolve(typeof answer === 'function' ? answer(url, init) : answer.clone());
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The calls made to `path`, as URLs with their request options. */
export function callsTo(
  fetchMock: ReturnType<typeof stubSearchApi>,
  path: string,
): { url: URL; init: RequestInit | undefined }[] {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(input, 'http://localhost'), init }))
    .filter((call) => call.url.pathname === path);
}

/** The JSON body a call sent. */
export function sentJson(call: { init: RequestInit | undefined } | undefined): unknown {
  const body = call?.init?.body;
  return typeof body === 'string' ? (JSON.parse(body) as unknown) : undefined;
}
