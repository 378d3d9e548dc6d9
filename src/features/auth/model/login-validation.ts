// Sign-in form rules of spec §5. Each validator answers field → i18n key; empty means valid.
export const PASSWORD_MIN_LENGTH = 6;
export const CODE_LENGTH = 6;

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

const blank = (value: string) => value.trim() === '';

export type AccountField = 'username' | 'password';
export type PhoneField = 'phone' | 'code';
export type SmartLinkField = 'smartLinkUsername' | 'smartLinkPassword';

function passwordError(password: string): string | undefined {
  if (password === '') return 'auth.passwordRequired';
  if (password.length < PASSWORD_MIN_LENGTH) return 'auth.passwordMinLength';
  return undefined;
}

export function validateAccountLogin(form: { username: string; password: string }): FieldErrors<AccountField> {
  const errors: FieldErrors<AccountField> = {};
  if (blank(form.username)) errors.username = 'auth.usernameRequired';
  const password = passwordError(form.password);
  if (password) errors.password = password;
  return errors;
}

export function validatePhoneLogin(form: { phone: string; code: string }): FieldErrors<PhoneField> {
  const errors: FieldErrors<PhoneField> = {};
  if (blank(form.phone)) errors.phone = 'auth.phoneRequired';
  if (blank(form.code)) errors.code = 'auth.codeRequired';
  else if (form.code.trim().length !== CODE_LENGTH) errors.code = 'auth.codeInvalid';
  return errors;
}

/** SmartLink keeps its own error keys so its form never shows the account form's errors. */
export function validateSmartLinkLogin(form: { username: string; password: string }): FieldErrors<SmartLinkField> {
  const errors: FieldErrors<SmartLinkField> = {};
  if (blank(form.username)) errors.smartLinkUsername = 'auth.usernameRequired';
  const password = passwordError(form.password);
  if (password) errors.smartLinkPassword = password;
  return errors;
}

/** Sending a code needs a phone number (spec §5). */
export function validateSendCode(phone: string): FieldErrors<'phone'> {
  return blank(phone) ? { phone: 'auth.phoneRequired' } : {};
}

/** The code input holds at most six characters, digits only (what an SMS code is). */
export function sanitizeCode(value: string): string {
  return value.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

export function hasErrors(errors: object): boolean {
  return Object.keys(errors).length > 0;
}
