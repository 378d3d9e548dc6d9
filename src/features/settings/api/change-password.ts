import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/api';

export interface ChangePasswordPayload {
  old_password: string;
  new_password: string;
}

/** PUT /user/password/ — the server signs every other device out afterwards. */
export function changePassword(payload: ChangePasswordPayload): Promise<unknown> {
  return http.put<unknown>('user', '/user/password/', payload);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
