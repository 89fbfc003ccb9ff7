/** Limits shared by the forms and the server: one number, both sides. */
export const LIMITS = {
  emailMaxLength: 254,
  passwordMinLength: 8,
  /** argon2 work grows with input; a cap keeps a long password from becoming a denial of service. */
  passwordMaxLength: 128,
  nameMaxLength: 100,
  tokenMaxLength: 512,
} as const;
