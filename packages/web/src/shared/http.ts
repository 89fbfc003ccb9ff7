import { ApiErrorSchema, type FieldError, type Result } from '@ratelens/core';

export const NETWORK_ERROR_MESSAGE =
  'Could not reach RateLens. Check your connection and try again.';
export const UNEXPECTED_ERROR_MESSAGE = 'Something went wrong. Please try again.';

/**
 * A failed call. `status` is the HTTP status, or 0 when the server could not be reached.
 * `serverMessage` is the server's own `message` (docs/decisions/0004-error-format.md), null when
 * the answer was not the error shape; `message` always holds something a person can read.
 */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly serverMessage: string | null;
  readonly fieldErrors: readonly FieldError[];
  readonly requestId: string | null;
  /**
   * The parsed body of a failed answer (undefined without one). A payment decline is an
   * Authorize.Net-shaped answer, not the error shape, and its text is read from here.
   */
  readonly body: unknown;

  constructor(
    status: number,
    serverMessage: string | null,
    details: {
      fieldErrors?: readonly FieldError[];
      requestId?: string | null;
      body?: unknown;
    } = {},
  ) {
    super(serverMessage ?? (status === 0 ? NETWORK_ERROR_MESSAGE : UNEXPECTED_ERROR_MESSAGE));
    this.name = 'ApiRequestError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.fieldErrors = details.fieldErrors ?? [];
    this.requestId = details.requestId ?? null;
    this.body = details.body;
  }
}

/** Anything with zod's `parse`: the response contracts of @ratelens/core. */
export interface ResponseSchema<T> {
  parse(input: unknown): T;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON; a FormData is sent as multipart/form-data (the browser sets the boundary). */
  body?: unknown;
  headers?: Record<string, string>;
  /** Validates the 2xx body; without it the body is returned as `unknown`-typed T. */
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
}

/** Query string from a record, for `GET /api/...?a=b` paths. */
export function withQuery(path: string, query: Record<string, string>): string {
  return `${path}?${new URLSearchParams(query).toString()}`;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function looseMessage(data: unknown): string | null {
  if (typeof data === 'object' && data !== null && 'message' in data) {
    return typeof data.message === 'string' && data.message !== '' ? data.message : null;
  }
  return null;
}

/** The error of a failed answer, from its parsed body (docs/decisions/0004-error-format.md). */
function errorFromBody(status: number, data: unknown): ApiRequestError {
  const apiError = ApiErrorSchema.safeParse(data);
  if (apiError.success) {
    return new ApiRequestError(status, apiError.data.message || null, {
      fieldErrors: apiError.data.errors ?? [],
      requestId: apiError.data.requestId ?? null,
      body: data,
    });
  }
  // Not quite the contract (an older server, a proxy): still show a message it carries.
  return new ApiRequestError(status, looseMessage(data), { body: data });
}

/** A same-origin JSON call to the RateLens API. Throws ApiRequestError on every failure. */
export async function requestJson<T>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const multipart = typeof FormData !== 'undefined' && options.body instanceof FormData;
  if (options.body !== undefined && !multipart) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body:
        options.body === undefined
          ? undefined
          : multipart
            ? (options.body as FormData)
            : JSON.stringify(options.body),
      signal: options.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, null);
  }

  const data = parseJson(await response.text().catch(() => ''));

  if (!response.ok) throw errorFromBody(response.status, data);

  if (!options.schema) return data as T;
  try {
    return options.schema.parse(data);
  } catch {
    // The server answered 2xx with a body that breaks the contract in core.
    throw new ApiRequestError(response.status, null);
  }
}

/** A downloaded file: its bytes and the name the server gave it (Content-Disposition), if any. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * The file name of a Content-Disposition header: RFC 6266's `filename*=UTF-8''…` first, then
 * `filename="…"` or a bare `filename=…`; null when there is none.
 */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header);
  const name = (plain?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[2])?.trim();
  return name ? name : null;
}

/**
 * A same-origin GET of a file (an attachment, an export) with the name the server gave it.
 * Throws ApiRequestError on every failure, with the server's message when the error answer
 * carries one.
 */
export async function requestFile(
  path: string,
  options: Pick<RequestOptions<Blob>, 'headers' | 'signal'> = {},
): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'GET',
      headers: { Accept: '*/*', ...options.headers },
      signal: options.signal ?? null,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, null);
  }
  if (!response.ok) {
    throw errorFromBody(response.status, parseJson(await response.text().catch(() => '')));
  }
  try {
    const blob = await response.blob();
    return { blob, fileName: fileNameFromDisposition(response.headers.get('Content-Disposition')) };
  } catch {
    throw new ApiRequestError(0, null);
  }
}

/** A same-origin GET of a file as a Blob (see `requestFile`). */
export async function requestBlob(
  path: string,
  options: Pick<RequestOptions<Blob>, 'headers' | 'signal'> = {},
): Promise<Blob> {
  return (await requestFile(path, options)).blob;
}

/** The legacy `{ isSuccess, message }` envelope: `isSuccess: false` is a failure too. */
export function expectSuccess<R extends Result>(result: R): R {
  if (!result.isSuccess) throw new ApiRequestError(200, result.message || null);
  return result;
}

/** The message to show for a failure of any kind. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  return UNEXPECTED_ERROR_MESSAGE;
}
