// A sign-in reply must carry a token (spec §4); anything else is "login failed, no token received".
import { ApiError } from '../../../lib/api/api-error';
import type { SessionGrant } from '../../../lib/session/user';

export function requireGrant(data: unknown, noTokenMessage: string): SessionGrant {
  const grant = data as Partial<SessionGrant> | null | undefined;
  if (!grant || typeof grant.token !== 'string' || grant.token === '') {
    throw new ApiError('business', -1, noTokenMessage, undefined, data);
  }
  return { token: grant.token, refresh_token: grant.refresh_token, user: grant.user };
}
