import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field';
import { Spinner } from '../../../components/spinner';
import { COUNTRY_CODES } from '../model/country-codes';
import { CODE_LENGTH, sanitizeCode, type FieldErrors, type PhoneField } from '../model/login-validation';

interface Props {
  internationalCode: string;
  phone: string;
  code: string;
  errors: FieldErrors<PhoneField>;
  disabled: boolean;
  sendingCode: boolean;
  countdown: number;
  codeSentTo: string | null;
  onChange: (field: PhoneField | 'internationalCode', value: string) => void;
  onSendCode: () => void;
}

/** Phone sign-in: country code, number, and the six-digit code with its send button. */
export function PhoneLoginFields({ internationalCode, phone, code, errors, disabled, sendingCode, countdown, codeSentTo, onChange, onSendCode }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <FormField label={t('auth.phone')} error={errors.phone ? t(errors.phone) : undefined}>
        {(control) => (
          <>
            <select
              className="input phone-fields__country"
              value={internationalCode}
              onChange={(event) => onChange('internationalCode', event.target.value)}
              disabled={disabled}
              aria-label={t('auth.countryCode')}
              data-testid="login-country"
            >
              {COUNTRY_CODES.map((country) => (
                <option key={country.code} value={country.code}>
                  +{country.code} {t(country.nameKey)}
                </option>
              ))}
            </select>
            <input
              {...control}
              className="input"
              type="tel"
              inputMode="numeric"
              value={phone}
              onChange={(event) => onChange('phone', event.target.value)}
              disabled={disabled}
              placeholder={t('auth.phonePlaceholder')}
              autoComplete="tel-national"
              data-testid="login-phone"
            />
          </>
        )}
      </FormField>
      <FormField
        label={t('auth.code')}
        error={errors.code ? t(errors.code, { length: CODE_LENGTH }) : undefined}
        hint={codeSentTo ? t('auth.codeSentTo', { phone: codeSentTo }) : undefined}
      >
        {(control) => (
          <>
            <input
              {...control}
              className="input phone-fields__code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={CODE_LENGTH}
              value={code}
              onChange={(event) => onChange('code', sanitizeCode(event.target.value))}
              disabled={disabled}
              placeholder={t('auth.codePlaceholder')}
              data-testid="login-code"
            />
            <button
              type="button"
              className="btn btn--ghost phone-fields__send"
              onClick={onSendCode}
              disabled={disabled || sendingCode || countdown > 0}
              data-testid="send-code"
            >
              {sendingCode ? <Spinner size={16} /> : null}
              {countdown > 0 ? t('auth.resendIn', { seconds: countdown }) : sendingCode ? t('auth.sendingCode') : t('auth.sendCode')}
            </button>
          </>
        )}
      </FormField>
    </>
  );
}
