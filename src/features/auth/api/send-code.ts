import { useMutation } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import type { ApiSchema } from '../../../lib/api/api-types';

export interface SendCodePayload {
  phone: string;
  international_code: string;
}

export type SendCodeReply = ApiSchema<'CodeSent'>;

/** POST /auth/send-code — the server texts a six-digit code. */
export function sendCode(payload: SendCodePayload): Promise<SendCodeReply> {
  return http.post<SendCodeReply>('auth', '/auth/send-code', payload);
}

export function useSendCode() {
  return useMutation({ mutationFn: sendCode });
}
