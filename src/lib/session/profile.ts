// The signed-in user's profile (GET /user/profile). Every answer refreshes the cached copy in
// localStorage (userInfo), which the shell shows until the server answers.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { i18n } from '../../i18n/i18n';
import { ApiError } from '../api/api-error';
import { http } from '../api/http-client';
import { queryKeys } from '../query/query-keys';
import { getSession, saveUser } from './session-store';
import type { User } from './user';

export async function fetchProfile(): Promise<User> {
  // Spec §8: the lookup needs a username stored at sign-in.
  if (!getSession().username) throw new ApiError('business', -1, i18n.t('auth.noUsername'));
  const user = await http.get<User>('user', '/user/profile');
  saveUser(user);
  return user;
}

export const profileQuery = () =>
  queryOptions({
    queryKey: queryKeys.profile,
    queryFn: fetchProfile,
    placeholderData: () => getSession().user ?? undefined,
  });

export function useProfile(enabled = true) {
  return useQuery({ ...profileQuery(), enabled });
}
