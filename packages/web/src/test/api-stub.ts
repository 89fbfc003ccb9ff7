import { vi } from 'vitest';
import { jsonResponse } from './render.tsx';

export type Answer =
  Response | ((url: URL, init: RequestInit | undefined) => Response | Promise<Response>);

/**
 * A stand-in API: each call answers from `answers` by its path (case as the app sends it), else
 * 404 in the error shape.
 */
export function stubApi(answers: Record<string, Answer>) {
  const fetchMock = vi.fn((input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const answer = answers[url.pathname];
    if (answer === undefined) return Promise.resolve(jsonResponse(404, { message: 'Not found.' }));
    return Promise.resolve(typeof answer === 'function' ? answer(url, init) : answer.clone());
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
