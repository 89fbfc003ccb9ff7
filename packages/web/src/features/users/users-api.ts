import { UserListItemSchema, type UserListItem } from '@ratelens/core';
import { authedRequest } from '../auth/api-client.ts';

/**
 * Every user, for administrators. A 403 (signed in, not an administrator) is answered on the
 * page instead of ending the session: the spec's list open to every user is a defect we fixed.
 */
export function getUsers(): Promise<UserListItem[]> {
  return authedRequest('/api/user/getusers', {
    schema: UserListItemSchema.array(),
    keepSessionOn: [403],
  });
}
