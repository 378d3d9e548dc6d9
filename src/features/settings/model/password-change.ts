// Rules of the change-password form: the current password, a new one of at least six
// characters (spec §9) that differs from it, typed twice.
const PASSWORD_MIN_LENGTH = 6; // spec §9

export interface PasswordChangeForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type PasswordChangeField = keyof PasswordChangeForm;

export function validatePasswordChange(form: PasswordChangeForm): Partial<Record<PasswordChangeField, string>> {
  const errors: Partial<Record<PasswordChangeField, string>> = {};
  if (form.oldPassword === '') errors.oldPassword = 'settings.security.oldRequired';
  if (form.newPassword === '') errors.newPassword = 'auth.passwordRequired';
  else if (form.newPassword.length < PASSWORD_MIN_LENGTH) errors.newPassword = 'auth.passwordMinLength';
  else if (form.newPassword === form.oldPassword) errors.newPassword = 'settings.security.sameAsOld';
  if (form.confirmPassword !== form.newPassword) errors.confirmPassword = 'settings.security.mismatch';
  return errors;
}
