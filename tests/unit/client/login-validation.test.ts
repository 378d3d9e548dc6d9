import { describe, expect, it } from 'vitest';
import { chooseLoginRequest } from '../../../src/features/auth/model/login-request';
import {
  sanitizeCode,
  validateAccountLogin,
  validatePhoneLogin,
  validateSendCode,
  validateSmartLinkLogin,
} from '../../../src/features/auth/model/login-validation';
import { requireGrant } from '../../../src/features/auth/model/session-grant';
import { ApiError } from '../../../src/lib/api/api-error';
import { validatePasswordChange } from '../../../src/features/settings/model/password-change';

describe('account login rules (spec §5)', () => {
  it('requires a username; whitespace only counts as empty', () => {
    expect(validateAccountLogin({ username: '', password: 'secret1' })).toEqual({ username: 'auth.usernameRequired' });
    expect(validateAccountLogin({ username: ' \t ', password: 'secret1' })).toEqual({ username: 'auth.usernameRequired' });
  });

  it('requires a password of at least six characters', () => {
    expect(validateAccountLogin({ username: 'ann', password: '' })).toEqual({ password: 'auth.passwordRequired' });
    expect(validateAccountLogin({ username: 'ann', password: '12345' })).toEqual({ password: 'auth.passwordMinLength' });
    expect(validateAccountLogin({ username: 'ann', password: '123456' })).toEqual({});
  });
});

describe('phone login rules', () => {
  it('requires phone and a code of exactly six characters', () => {
    expect(validatePhoneLogin({ phone: '', code: '' })).toEqual({ phone: 'auth.phoneRequired', code: 'auth.codeRequired' });
    expect(validatePhoneLogin({ phone: '13800000000', code: '12345' })).toEqual({ code: 'auth.codeInvalid' });
    expect(validatePhoneLogin({ phone: '13800000000', code: '1234567' })).toEqual({ code: 'auth.codeInvalid' });
    expect(validatePhoneLogin({ phone: '13800000000', code: '123456' })).toEqual({});
  });

  it('sending a code needs a non-empty phone', () => {
    expect(validateSendCode('  ')).toEqual({ phone: 'auth.phoneRequired' });
    expect(validateSendCode('138')).toEqual({});
  });

  it('caps the code input at six digits', () => {
    expect(sanitizeCode('12 34-5678')).toBe('123456');
    expect(sanitizeCode('ab1')).toBe('1');
  });
});

describe('SmartLink rules', () => {
  it('keys its errors separately from the account form', () => {
    expect(validateSmartLinkLogin({ username: ' ', password: '123' })).toEqual({
      smartLinkUsername: 'auth.usernameRequired',
      smartLinkPassword: 'auth.passwordMinLength',
    });
    expect(validateSmartLinkLogin({ username: 'wx', password: '' })).toEqual({ smartLinkPassword: 'auth.passwordRequired' });
  });
});

describe('which sign-in call', () => {
  const form = { username: 'ann', password: 'secret1', phone: '', code: '', internationalCode: '84' };

  it('uses the code only when phone and code are both present', () => {
    expect(chooseLoginRequest({ ...form, phone: '0901', code: '123456' })).toEqual({
      kind: 'code',
      payload: { phone: '0901', code: '123456', international_code: '84' },
    });
    expect(chooseLoginRequest({ ...form, phone: '0901' }).kind).toBe('password');
    expect(chooseLoginRequest({ ...form, code: '123456' }).kind).toBe('password');
  });

  it('sends the trimmed account and defaults the country code to 86', () => {
    expect(chooseLoginRequest({ ...form, username: '  ann ' })).toEqual({ kind: 'password', payload: { account: 'ann', password: 'secret1' } });
    expect(chooseLoginRequest({ ...form, internationalCode: '', phone: '1', code: '123456' })).toMatchObject({ payload: { international_code: '86' } });
  });
});

describe('sign-in reply', () => {
  it('a reply without a token is "no token received"', () => {
    expect(() => requireGrant({ user: {} }, 'no token')).toThrow(ApiError);
    expect(() => requireGrant(null, 'no token')).toThrow('no token');
    expect(() => requireGrant({ token: '' }, 'no token')).toThrow('no token');
  });

  it('keeps token, refresh token and user', () => {
    expect(requireGrant({ token: 't', refresh_token: 'r', user: { account: 'a' } }, 'x')).toEqual({ token: 't', refresh_token: 'r', user: { account: 'a' } });
  });
});

describe('change password rules', () => {
  it('needs the old password, a new one of six or more that differs, typed twice', () => {
    expect(validatePasswordChange({ oldPassword: '', newPassword: '123', confirmPassword: '' })).toEqual({
      oldPassword: 'settings.security.oldRequired',
      newPassword: 'auth.passwordMinLength',
      confirmPassword: 'settings.security.mismatch',
    });
    expect(validatePasswordChange({ oldPassword: 'abcdef', newPassword: 'abcdef', confirmPassword: 'abcdef' })).toEqual({ newPassword: 'settings.security.sameAsOld' });
    expect(validatePasswordChange({ oldPassword: 'abcdef', newPassword: 'ghijkl', confirmPassword: 'ghijkl' })).toEqual({});
  });
});
