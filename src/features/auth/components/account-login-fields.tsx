import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field';
import type { AccountField, FieldErrors } from '../model/login-validation';
import { PasswordInput } from './password-input';

interface Props {
  username: string;
  password: string;
  errors: FieldErrors<AccountField>;
  disabled: boolean;
  showPassword: boolean;
  onToggleShowPassword: () => void;
  onChange: (field: AccountField, value: string) => void;
}

/** Account sign-in: username and password. */
export function AccountLoginFields({ username, password, errors, disabled, showPassword, onToggleShowPassword, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <FormField label={t('auth.username')} error={errors.username ? t(errors.username) : undefined}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={username}
            onChange={(event) => onChange('username', event.target.value)}
            disabled={disabled}
            placeholder={t('auth.usernamePlaceholder')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            data-testid="login-username"
          />
        )}
      </FormField>
      <FormField label={t('auth.password')} error={errors.password ? t(errors.password, { min: 6 }) : undefined}>
        {(control) => (
          <PasswordInput
            {...control}
            value={password}
            onChange={(value) => onChange('password', value)}
            visible={showPassword}
            onToggleVisible={onToggleShowPassword}
            disabled={disabled}
            placeholder={t('auth.passwordPlaceholder')}
            testId="login-password"
          />
        )}
      </FormField>
    </>
  );
}
