import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field';
import type { FieldErrors, SmartLinkField } from '../model/login-validation';
import { PasswordInput } from './password-input';

interface Props {
  username: string;
  password: string;
  errors: FieldErrors<SmartLinkField>;
  disabled: boolean;
  showPassword: boolean;
  onToggleShowPassword: () => void;
  onChange: (field: SmartLinkField, value: string) => void;
}

/** SmartLink sign-in: the enterprise chat account and its password. */
export function SmartLinkFields({ username, password, errors, disabled, showPassword, onToggleShowPassword, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <FormField label={t('auth.smartLink.account')} error={errors.smartLinkUsername ? t(errors.smartLinkUsername) : undefined}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={username}
            onChange={(event) => onChange('smartLinkUsername', event.target.value)}
            disabled={disabled}
            placeholder={t('auth.smartLink.accountPlaceholder')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            data-testid="smartlink-username"
          />
        )}
      </FormField>
      <FormField label={t('auth.password')} error={errors.smartLinkPassword ? t(errors.smartLinkPassword, { min: 6 }) : undefined}>
        {(control) => (
          <PasswordInput
            {...control}
            value={password}
            onChange={(value) => onChange('smartLinkPassword', value)}
            visible={showPassword}
            onToggleVisible={onToggleShowPassword}
            disabled={disabled}
            placeholder={t('auth.passwordPlaceholder')}
            testId="smartlink-password"
          />
        )}
      </FormField>
    </>
  );
}
