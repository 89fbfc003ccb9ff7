import type { FieldError } from '@ratelens/core';
import type { FastifyInstance } from 'fastify';
import { badRequest, jsonOf } from './errors.ts';

/**
 * Where `value` holds a string with a NUL character, as a field path ("items.0.state"), or null.
 * PostgreSQL's text cannot hold one (it refused the insert, and the answer was a 500), and no
 * name, code or message has one. Walked with a stack, not recursion: a body may nest deeply.
 */
export function nulCharacterAt(value: unknown, root = ''): string | null {
  const stack: [unknown, string][] = [[value, root]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, path] = next;
    if (typeof item === 'string') {
      if (item.includes('\0')) return path;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item))
        stack.push([child, path === '' ? key : `${path}.${key}`]);
    }
  }
  return null;
}

/**
 * A query parameter holding JSON (the spec's FilterJson) is text until its schema parses it, and
 * its NUL would come from an escape ("\u0000"): read as JSON where it is JSON and has one.
 */
function parsedQueryValue(value: unknown): unknown {
  if (typeof value !== 'string' || !value.includes('\\u0000') || !/^\s*[[{]/.test(value))
    return value;
  return jsonOf(value) ?? value;
}

export const nulCharacterError = (field: string): FieldError => ({
  field,
  rule: 'no_nul_character',
  message: `${field} must not contain a NUL character.`,
});

/** Refuses, before validation, a request whose params, query or body hold a NUL character. */
export function registerNulCharacterCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const query = Object.fromEntries(
      Object.entries((request.query ?? {}) as Record<string, unknown>).map(([key, value]) => [
        key,
        parsedQueryValue(value),
      ]),
    );
    const field =
      nulCharacterAt(request.params) ?? nulCharacterAt(query) ?? nulCharacterAt(request.body);
    if (field === null) return;
    const error = nulCharacterError(field === '' ? 'body' : field);
    throw badRequest(error.message, [error]);
  });
}
