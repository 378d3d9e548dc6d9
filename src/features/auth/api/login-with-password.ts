import { http } from '../../../lib/api';

export interface PasswordLoginPayload {
  account: string;
  password: string;
}

/** POST /auth/login-password — the reply is checked by requireGrant. */
export function loginWithPassword(payload: PasswordLoginPayload): Promise<unknown> {
  return http.post<unknown>('auth', '/auth/login-password', payload);
}
