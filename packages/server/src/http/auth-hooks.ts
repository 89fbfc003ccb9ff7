import { SECRET_KEY_HEADER } from '@ratelens/core';
import type { FastifyRequest } from 'fastify';
import type { AuthContext, AuthService } from '../auth/auth-service.ts';
import { unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

export function secretKey(request: FastifyRequest): string | undefined {
  const value = request.headers[SECRET_KEY_HEADER];
  return typeof value === 'string' ? value : undefined;
}

/** onRequest hook for every authenticated route: bearer token plus the session's secret_key. */
export function requireUser(auth: AuthService) {
  return async (request: FastifyRequest) => {
    request.auth = await auth.authenticate(bearer(request), secretKey(request));
  };
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** OpenAPI security requirement of an authenticated route. */
export const AUTHENTICATED = [{ bearerAuth: [], secretKey: [] }];
