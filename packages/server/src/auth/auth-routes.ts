import {
  ConfirmEmailRequestSchema,
  EmailVerifyQuerySchema,
  ForgetPasswordRequestSchema,
  LoginRequestSchema,
  LoginResponseSchema,
  LogoutRequestSchema,
  RefreshRequestSchema,
  RefreshResponseSchema,
  RegisterRequestSchema,
  ResetPasswordRequestSchema,
  ResultSchema,
} from '@ratelens/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTHENTICATED, bearer, currentUser, requireUser, secretKey } from '../http/auth-hooks.ts';
import type { AuthService } from './auth-service.ts';

export interface AuthRoutesOptions {
  auth: AuthService;
  /** Requests per minute and client address for each sign-in, sign-up and recovery call. */
  rateLimitPerMinute: number;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { auth, rateLimitPerMinute },
) => {
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };
  const tags = ['Accounts'];
  const authenticated = requireUser(auth);

  app.post('/Auth/Register', {
    config: { ...limited, refusals: { 409: 'An account has this e-mail address already.' } },
    schema: {
      tags,
      summary: 'Create an account (always role HCL Web User) and send the verification e-mail',
      body: RegisterRequestSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => auth.register(request.body),
  });

  app.post('/Auth/login', {
    config: limited,
    schema: {
      tags,
      summary: 'Sign in',
      body: LoginRequestSchema,
      response: { 200: LoginResponseSchema },
    },
    handler: (request) => auth.login(request.body, request.ip),
  });

  app.post('/auth/refreshToken', {
    // Every page load refreshes; a higher ceiling than the password calls.
    config: { rateLimit: { max: rateLimitPerMinute * 4, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'Rotate the refresh token; a reused one ends the session',
      body: RefreshRequestSchema,
      response: { 200: RefreshResponseSchema },
    },
    handler: (request) => auth.refresh(request.body),
  });

  app.post('/auth/logout', {
    schema: {
      tags,
      summary: 'End this session (bearer and secret_key, or the current refresh token)',
      security: AUTHENTICATED,
      body: LogoutRequestSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) =>
      auth.logout({
        bearer: bearer(request),
        secretKey: secretKey(request),
        refreshToken: request.body?.refreshToken,
      }),
  });

  app.post('/auth/ForgetPassword', {
    config: limited,
    schema: {
      tags,
      summary: 'E-mail a password reset link (the same answer whether or not the account exists)',
      body: ForgetPasswordRequestSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => auth.forgetPassword(request.body),
  });

  app.post('/auth/ResetPassword', {
    config: limited,
    schema: {
      tags,
      summary: 'Set a new password with the e-mailed single-use token',
      body: ResetPasswordRequestSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => auth.resetPassword(request.body),
  });

  app.get('/auth/EmailVerifyUserAsync', {
    config: { ...limited, refusals: { 403: "The e-mail address is not the session's." } },
    onRequest: authenticated,
    schema: {
      tags,
      summary: 'E-mail a verification link to the signed-in user',
      security: AUTHENTICATED,
      querystring: EmailVerifyQuerySchema,
      response: { 200: ResultSchema },
    },
    handler: (request) =>
      auth.sendEmailVerification(currentUser(request), request.query.UserEmail.Email),
  });

  app.post('/auth/ConfirmEmail', {
    config: limited,
    schema: {
      tags,
      summary: 'Confirm an e-mail address with the e-mailed single-use token',
      body: ConfirmEmailRequestSchema,
      response: { 200: ResultSchema },
    },
    handler: (request) => auth.confirmEmail(request.body),
  });
};
