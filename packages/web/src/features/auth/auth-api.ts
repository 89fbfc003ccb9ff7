import {
  LoginResponseSchema,
  ResultSchema,
  ROLES,
  UserDetailsSchema,
  type ConfirmEmailRequest,
  type LoginRequest,
  type LoginResponse,
  type Result,
  type UserDetails,
} from '@ratelens/core';
import { expectSuccess, requestJson, withQuery } from '../../shared/http.ts';
import { authedRequest } from './api-client.ts';

/** The calls of the sign-up, sign-in and account screens (both specs, §7). */

export interface RegisterInput {
  email: string;
  password: string;
  confirmPassword: string;
  /** The solved ALTCHA payload. */
  altcha: string;
}

export async function register(input: RegisterInput): Promise<Result> {
  const result = await requestJson('/api/Auth/Register', {
    method: 'POST',
    body: {
      // The sign-up form has no name field: the e-mail stands in (subscriptions-and-payments §7).
      FullName: input.email,
      email: input.email,
      RoleName: ROLES.webUser,
      Password: input.password,
      ConfirmPassword: input.confirmPassword,
      altcha: input.altcha,
    },
    schema: ResultSchema,
  });
  return expectSuccess(result);
}

export async function login(input: LoginRequest): Promise<LoginResponse> {
  const response = await requestJson('/api/Auth/login', {
    method: 'POST',
    body: { UserName: input.UserName, password: input.password },
    schema: LoginResponseSchema,
  });
  return expectSuccess(response);
}

export async function forgetPassword(input: { Email: string; altcha: string }): Promise<Result> {
  const result = await requestJson('/api/auth/ForgetPassword', {
    method: 'POST',
    body: input,
    schema: ResultSchema,
  });
  return expectSuccess(result);
}

export interface ResetPasswordInput {
  NewPassword: string;
  ConfirmPassword: string;
  Email: string;
  Token: string;
}

export async function resetPassword(input: ResetPasswordInput): Promise<Result> {
  const result = await requestJson('/api/auth/ResetPassword', {
    method: 'POST',
    body: input,
    schema: ResultSchema,
  });
  return expectSuccess(result);
}

export async function confirmEmail(input: ConfirmEmailRequest): Promise<Result> {
  const result = await requestJson('/api/auth/ConfirmEmail', {
    method: 'POST',
    body: input,
    schema: ResultSchema,
  });
  return expectSuccess(result);
}

/** Asks the server to e-mail a verification link to the signed-in address. */
export async function requestEmailVerification(email: string): Promise<Result> {
  const result = await authedRequest(
    withQuery('/api/auth/EmailVerifyUserAsync', { UserEmail: JSON.stringify({ Email: email }) }),
    { schema: ResultSchema },
  );
  return expectSuccess(result);
}

export function getUserDetails(email: string): Promise<UserDetails> {
  return authedRequest(withQuery('/api/user/getUserDetails', { UserInput: email }), {
    schema: UserDetailsSchema,
  });
}
