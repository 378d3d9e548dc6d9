import { http } from '../../../lib/api';

export interface SmartLinkLoginPayload {
  wechat_account: string;
  password: string;
}

/** POST /auth/login-wechat — SmartLink, the enterprise chat account. */
export function loginWithSmartLink(payload: SmartLinkLoginPayload): Promise<unknown> {
  return http.post<unknown>('auth', '/auth/login-wechat', payload);
}
