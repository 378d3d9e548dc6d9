// The signed-in user as the main API returns it (GET /user/profile and every sign-in reply).
import type { ApiSchema } from '../api/api-types';

export type User = ApiSchema<'User'>;
export type UserLevel = User['user_level'];

/**
 * Token pair plus profile, from every sign-in and refresh answer: only the token is required of a
 * reply (spec §4), the rest is kept when the server sends it.
 */
export type SessionGrant = Pick<ApiSchema<'SessionGrant'>, 'token'> &
  Partial<Pick<ApiSchema<'SessionGrant'>, 'refresh_token' | 'user'>>;

const LEVELS: readonly string[] = ['ADMIN', 'DESIGNER', 'GENERAL'];

export function isUserLevel(value: unknown): value is UserLevel {
  return typeof value === 'string' && LEVELS.includes(value);
}

/** The name to greet someone by: display name, else account. */
export function displayNameOf(user: Pick<User, 'display_name' | 'account'>): string {
  return user.display_name?.trim() || user.account;
}
