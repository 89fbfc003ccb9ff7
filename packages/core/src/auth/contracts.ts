import { z } from 'zod';
import { boundedString, requiredString } from '../api/common.ts';
import { LIMITS } from '../limits.ts';
import { EMAIL_MESSAGES, EmailSchema } from './email.ts';
import { NewPasswordSchema, PASSWORD_MESSAGES } from './password-policy.ts';

const AltchaPayloadSchema = boundedString('altcha', 4096).min(1, 'Please complete the bot check.');

// ---- Sign up (subscriptions-and-payments §2 "Sign up", §7 api/Auth/Register) -------------------

export const TERMS_MESSAGE = 'Please accept the Terms and Conditions.';

/** The sign-up form: one schema for the browser form and, through RegisterRequest, the server. */
export const RegisterFormSchema = z
  .object({
    email: EmailSchema,
    password: NewPasswordSchema,
    confirmPassword: z.string(),
    terms: z.boolean().refine((accepted) => accepted, TERMS_MESSAGE),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORD_MESSAGES.mismatch,
  });
export type RegisterForm = z.infer<typeof RegisterFormSchema>;

export const RegisterRequestSchema = z
  .object({
    FullName: boundedString('FullName', LIMITS.nameMaxLength).optional(),
    email: EmailSchema,
    /** Ignored: every registration is an `HCL Web User` (spec §6). */
    RoleName: z.unknown().optional(),
    Password: NewPasswordSchema,
    ConfirmPassword: boundedString('ConfirmPassword', LIMITS.passwordMaxLength),
    altcha: AltchaPayloadSchema,
  })
  .refine((body) => body.Password === body.ConfirmPassword, {
    path: ['ConfirmPassword'],
    message: PASSWORD_MESSAGES.mismatch,
  });
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

// ---- Sign in -------------------------------------------------------------------------------

export const LoginFormSchema = z.object({
  UserName: EmailSchema,
  password: z
    .string({ error: requiredString('Password') })
    .min(1, PASSWORD_MESSAGES.required)
    .max(LIMITS.passwordMaxLength, PASSWORD_MESSAGES.maxLength),
});
export const LoginRequestSchema = LoginFormSchema;
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const LoginResponseSchema = z.object({
  isSuccess: z.boolean(),
  message: z.string(),
  token: z.string(),
  emailID: z.string(),
  userID: z.string(),
  userName: z.string(),
  /** The per-session key the client sends back as the `secret_key` header. */
  secval: z.string(),
  refreshToken: z.string(),
  /** When the access token expires (ISO 8601). */
  expireDate: z.string(),
  role: z.string(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RefreshRequestSchema = z.object({
  token: boundedString('token', 4096).min(1, 'token is required.'),
  refreshToken: boundedString('refreshToken', LIMITS.tokenMaxLength).min(
    1,
    'refreshToken is required.',
  ),
  expiration: z.string().max(64).optional().nullable(),
});
export type RefreshRequest = z.infer<typeof RefreshRequestSchema>;

export const RefreshResponseSchema = z.object({
  token: z.string(),
  refreshToken: z.string(),
  expiration: z.string(),
});
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

/**
 * Logout needs no body when the access token is still valid; with an expired one, the session's
 * current refresh token identifies the session to end instead.
 */
export const LogoutRequestSchema = z
  .object({
    refreshToken: boundedString('refreshToken', LIMITS.tokenMaxLength).optional(),
  })
  .nullish();

// ---- Password recovery ---------------------------------------------------------------------

export const ForgetPasswordFormSchema = z.object({ Email: EmailSchema });
export const ForgetPasswordRequestSchema = ForgetPasswordFormSchema.extend({
  altcha: AltchaPayloadSchema,
});
export type ForgetPasswordRequest = z.infer<typeof ForgetPasswordRequestSchema>;

/** Answered for every address, known or not (docs/decisions/0006-password-reset-disclosure.md). */
export const FORGET_PASSWORD_MESSAGE =
  'If an account exists for this e-mail address, we have sent it a link to reset the password.';

export const ResetPasswordFormSchema = z
  .object({
    NewPassword: NewPasswordSchema,
    ConfirmPassword: z.string(),
  })
  .refine((form) => form.NewPassword === form.ConfirmPassword, {
    path: ['ConfirmPassword'],
    message: PASSWORD_MESSAGES.mismatch,
  });

export const ResetPasswordRequestSchema = z
  .object({
    NewPassword: NewPasswordSchema,
    ConfirmPassword: boundedString('ConfirmPassword', LIMITS.passwordMaxLength),
    Email: EmailSchema,
    Token: boundedString('Token', LIMITS.tokenMaxLength).min(1, 'Token is required.'),
  })
  .refine((body) => body.NewPassword === body.ConfirmPassword, {
    path: ['ConfirmPassword'],
    message: PASSWORD_MESSAGES.resetMismatch,
  });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequestSchema>;

// ---- E-mail verification -------------------------------------------------------------------

/** `GET api/auth/EmailVerifyUserAsync?UserEmail={"Email":"…"}`: the query holds JSON. */
export const EmailVerifyQuerySchema = z.object({
  UserEmail: z
    .string({ error: requiredString('UserEmail') })
    .max(1024, 'UserEmail must not be more than 1024 characters.')
    .meta({
      description:
        'JSON holding the address, as the spec\'s client sends it: {"Email":"you@example.com"}',
      example: '{"Email":"you@example.com"}',
    })
    .transform((raw, ctx) => {
      try {
        const parsed = z.object({ Email: EmailSchema }).safeParse(JSON.parse(raw));
        if (parsed.success) return parsed.data;
        ctx.addIssue({
          code: 'custom',
          message: parsed.error.issues[0]?.message ?? EMAIL_MESSAGES.invalid,
        });
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'UserEmail must be JSON such as {"Email":"you@example.com"}.',
        });
      }
      return z.NEVER;
    }),
});

export const ConfirmEmailRequestSchema = z.object({
  Email: EmailSchema,
  Token: boundedString('Token', LIMITS.tokenMaxLength).min(1, 'Token is required.'),
});
export type ConfirmEmailRequest = z.infer<typeof ConfirmEmailRequestSchema>;

export const EMAIL_CONFIRMED_MESSAGE = 'Your email has been verified successfully.';
export const EMAIL_NOT_VERIFIED_MESSAGE = 'Email address is not verified';

// ---- Users ---------------------------------------------------------------------------------

export const UserDetailsQuerySchema = z.object({ UserInput: EmailSchema });

export const UserDetailsSchema = z.object({
  userID: z.string(),
  emailID: z.string(),
  userName: z.string(),
  role: z.string(),
  emailConfirmed: z.boolean(),
});
export type UserDetails = z.infer<typeof UserDetailsSchema>;

export const UserListItemSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  emailID: z.string(),
  address: z.string(),
  zip: z.string(),
  /** ISO 8601, or null for an account that never signed in. */
  lastLogin: z.string().nullable(),
});
export type UserListItem = z.infer<typeof UserListItemSchema>;

// ---- Bot check (ALTCHA) --------------------------------------------------------------------

export const CaptchaChallengeSchema = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number().optional(),
  salt: z.string(),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof CaptchaChallengeSchema>;

export const VerifyCaptchaRequestSchema = z.object({ recaptchaToken: AltchaPayloadSchema });
export const VerifyCaptchaResponseSchema = z.object({ success: z.boolean() });
