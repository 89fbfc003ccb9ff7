export const ROLES = {
  webUser: 'HCL Web User',
  admin: 'admin',
} as const;

export type Role = (typeof ROLES)[keyof typeof ROLES];

export const ALL_ROLES: readonly Role[] = [ROLES.webUser, ROLES.admin];

/** Whether a role is the administrators'; no role (signed out) is not. */
export function isAdmin(role: string | null): boolean {
  return role === ROLES.admin;
}
