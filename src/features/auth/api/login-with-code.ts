import { http } from '../../../lib/api';

export interface CodeLoginPayload {
  phone: string;
  code: string;
  international_code: string;
}

/** POST /auth/login — phone and six-digit verification code. */
export function loginWithCode(payload: CodeLoginPayload): Promise<unknown> {
  return http.post<unknown>('auth', '/auth/login', payload);
}
