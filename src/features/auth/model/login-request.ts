// Which sign-in call a normal login makes: by code only when both phone and code are present,
// otherwise by password (spec §5).
import { DEFAULT_COUNTRY_CODE } from './country-codes';

export interface NormalLoginForm {
  username: string;
  password: string;
  phone: string;
  code: string;
  internationalCode: string;
}

export type LoginRequest =
  | { kind: 'code'; payload: { phone: string; code: string; international_code: string } }
  | { kind: 'password'; payload: { account: string; password: string } };

export function chooseLoginRequest(form: NormalLoginForm): LoginRequest {
  const phone = form.phone.trim();
  const code = form.code.trim();
  if (phone && code) {
    return {
      kind: 'code',
      payload: { phone, code, international_code: form.internationalCode || DEFAULT_COUNTRY_CODE },
    };
  }
  return { kind: 'password', payload: { account: form.username.trim(), password: form.password } };
}
