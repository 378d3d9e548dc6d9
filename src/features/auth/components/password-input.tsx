// A password input with the visibility toggle. The toggle's state belongs to the sign-in screen:
// one switch shows or hides both password fields (spec §2).
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from '../../../components/icons';
import type { FieldControlProps } from '../../../components/form-field';

interface Props extends FieldControlProps {
  value: string;
  onChange: (value: string) => void;
  visible: boolean;
  onToggleVisible: () => void;
  disabled?: boolean;
  placeholder?: string;
  autoComplete?: string;
  testId?: string;
}

export function PasswordInput({
  value,
  onChange,
  visible,
  onToggleVisible,
  disabled,
  placeholder,
  autoComplete = 'current-password',
  testId,
  ...control
}: Props) {
  const { t } = useTranslation();
  return (
    <span className="input-affix">
      <input
        {...control}
        className="input"
        type={visible ? 'text' : 'password'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        placeholder={placeholder}
        autoComplete={autoComplete}
        data-testid={testId}
      />
      <button
        type="button"
        className="input-affix__button"
        onClick={onToggleVisible}
        // Not while signing in: the field is locked, and revealing it then would change nothing.
        disabled={disabled}
        aria-label={visible ? t('auth.hidePassword') : t('auth.showPassword')}
        aria-pressed={visible}
        data-testid="toggle-password"
      >
        {visible ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
      </button>
    </span>
  );
}
