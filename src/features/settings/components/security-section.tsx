// Change password. The server signs every device out afterwards, this one included, so the form
// ends with a fresh sign-in rather than a session that silently dies later.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormField } from '../../../components/form-field';
import { ShieldIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api/api-error';
import { signOut } from '../../../lib/session/sign-out';
import { useChangePassword } from '../api/change-password';
import { validatePasswordChange, type PasswordChangeField, type PasswordChangeForm } from '../model/password-change';
import { SettingsSection } from './settings-section';

const EMPTY: PasswordChangeForm = { oldPassword: '', newPassword: '', confirmPassword: '' };

const FIELDS: ReadonlyArray<{ field: PasswordChangeField; label: string; autoComplete: string }> = [
  { field: 'oldPassword', label: 'settings.security.oldPassword', autoComplete: 'current-password' },
  { field: 'newPassword', label: 'settings.security.newPassword', autoComplete: 'new-password' },
  { field: 'confirmPassword', label: 'settings.security.confirmPassword', autoComplete: 'new-password' },
];

export function SecuritySection() {
  const { t } = useTranslation();
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<PasswordChangeField, string>>>({});
  const mutation = useChangePassword();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validatePasswordChange(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(
      { old_password: form.oldPassword, new_password: form.newPassword },
      {
        onSuccess: async () => {
          setForm(EMPTY);
          toast.success(t('settings.security.changed'));
          await signOut();
        },
        onError: (error) => toast.error(isApiError(error) ? error.message : t('errors.unknown')),
      },
    );
  }

  return (
    <SettingsSection id="security" icon={<ShieldIcon />} title={t('settings.security.title')} description={t('settings.security.description')}>
      <form className="settings-form" onSubmit={submit} noValidate>
        {FIELDS.map(({ field, label, autoComplete }) => (
          <FormField key={field} label={t(label)} error={errors[field] ? t(errors[field], { min: 6 }) : undefined}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="password"
                autoComplete={autoComplete}
                value={form[field]}
                disabled={mutation.isPending}
                data-testid={`password-${field}`}
                onChange={(event) => {
                  const value = event.target.value;
                  setForm((f) => ({ ...f, [field]: value }));
                  setErrors((e) => ({ ...e, [field]: undefined }));
                }}
              />
            )}
          </FormField>
        ))}
        <div>
          <button type="submit" className="btn btn--primary" disabled={mutation.isPending}>
            {mutation.isPending ? <Spinner size={16} /> : null}
            {t('settings.security.submit')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
