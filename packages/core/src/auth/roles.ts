export const ROLES = {
  webUser: 'HCL Web User',
  admin: 'admin',
} as const;

export type Role = (typeof ROLES)[keyof typeof ROLES];

export const ALL_ROLES: readonly Role[] = [ROLES.webUser, ROLES.admin];

export function isAdmin(role: string): boolean {
  return role === ROLES.admin;
}
