// The sign-in screen (spec §2 "Login screen"): normal sign-in by account or phone code, or
// SmartLink; validation per spec §5; banners; the help panel; the success hand-over to /.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Banner } from '../../../components/banner';
import { LinkIcon, PhoneIcon, UserIcon } from '../../../components/icons';
import { LanguageSelect } from '../../../components/language-select';
import { SegmentedControl } from '../../../components/segmented-control';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api/api-error';
import { useSession } from '../../../lib/session/use-session';
import { displayNameOf } from '../../../lib/session/user';
import { loginWithCode } from '../api/login-with-code';
import { loginWithPassword } from '../api/login-with-password';
import { loginWithSmartLink } from '../api/login-with-smart-link';
import { useSendCode } from '../api/send-code';
import { RESEND_SECONDS, useCountdown } from '../hooks/use-countdown';
import { useSignIn } from '../hooks/use-sign-in';
import { DEFAULT_COUNTRY_CODE } from '../model/country-codes';
import { chooseLoginRequest } from '../model/login-request';
import {
  hasErrors,
  validateAccountLogin,
  validatePhoneLogin,
  validateSendCode,
  validateSmartLinkLogin,
  type AccountField,
  type FieldErrors,
  type PhoneField,
  type SmartLinkField,
} from '../model/login-validation';
import { AccountLoginFields } from './account-login-fields';
import { HelpPanel } from './help-panel';
import { LoginBrand } from './login-brand';
import { PhoneLoginFields } from './phone-login-fields';
import { SmartLinkFields } from './smart-link-fields';
import './login-page.css';

type Mode = 'normal' | 'smartLink';
type Method = 'account' | 'phone';

function without<F extends string>(errors: FieldErrors<F>, field: string): FieldErrors<F> {
  if (!(field in errors)) return errors;
  const next = { ...errors };
  delete next[field as F];
  return next;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const [mode, setMode] = useState<Mode>('normal');
  const [method, setMethod] = useState<Method>('account');
  const [form, setForm] = useState({ username: '', password: '', phone: '', code: '', internationalCode: DEFAULT_COUNTRY_CODE });
  const [smartLink, setSmartLink] = useState({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<AccountField | PhoneField>>({});
  const [smartLinkErrors, setSmartLinkErrors] = useState<FieldErrors<SmartLinkField>>({});
  const [showPassword, setShowPassword] = useState(false);
  const [authError, setAuthError] = useState<string | null>(null);
  const [pending, setPending] = useState<Mode | null>(null);
  const [codeSentTo, setCodeSentTo] = useState<string | null>(null);
  const countdown = useCountdown();
  const sendCode = useSendCode();
  const { phase, signIn } = useSignIn();

  const signedIn = phase === 'signed-in' || phase === 'leaving';
  const busy = pending !== null || signedIn;

  function updateForm(field: AccountField | PhoneField | 'internationalCode', value: string) {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => without(e, field));
  }

  function updateSmartLink(field: SmartLinkField, value: string) {
    setSmartLink((f) => ({ ...f, [field === 'smartLinkUsername' ? 'username' : 'password']: value }));
    setSmartLinkErrors((e) => without(e, field));
  }

  async function submitNormal(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = method === 'account' ? validateAccountLogin(form) : validatePhoneLogin(form);
    setErrors(found);
    if (hasErrors(found)) return;
    // Only the visible method's fields take part; the code wins when phone and code are present.
    const request = chooseLoginRequest(
      method === 'account' ? { ...form, phone: '', code: '' } : { ...form, username: '', password: '' },
    );
    setAuthError(null);
    setPending('normal');
    const message =
      request.kind === 'code'
        ? await signIn(() => loginWithCode(request.payload), `${request.payload.international_code}${request.payload.phone}`, 'auth.loginFailed')
        : await signIn(() => loginWithPassword(request.payload), request.payload.account, 'auth.loginFailed');
    setPending(null);
    if (message) setAuthError(message);
  }

  async function submitSmartLink(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const found = validateSmartLinkLogin(smartLink);
    setSmartLinkErrors(found);
    if (hasErrors(found)) return;
    setAuthError(null);
    setPending('smartLink');
    const account = smartLink.username.trim();
    const message = await signIn(() => loginWithSmartLink({ wechat_account: account, password: smartLink.password }), account, 'auth.smartLinkFailed');
    setPending(null);
    if (message) {
      // The spec only logs this failure; people still need to know it did not work.
      console.warn('SmartLink sign-in failed:', message);
      toast.error(t('auth.smartLinkFailed'), { description: message });
    }
  }

  function requestCode() {
    const found = validateSendCode(form.phone);
    if (hasErrors(found)) {
      setErrors((e) => ({ ...e, ...found }));
      return;
    }
    const phone = form.phone.trim();
    sendCode.mutate(
      { phone, international_code: form.internationalCode },
      {
        onSuccess: (reply) => {
          countdown.start(reply.resend_after > 0 ? reply.resend_after : RESEND_SECONDS);
          setCodeSentTo(`+${form.internationalCode} ${phone}`);
        },
        onError: (error) => {
          // Silent in the spec; a designer waiting for a text must know it is not coming.
          if (isApiError(error) && error.retryAfterSeconds) countdown.start(error.retryAfterSeconds);
          toast.error(t('auth.sendCodeFailed'), { description: isApiError(error) ? error.message : undefined });
        },
      },
    );
  }

  const name = session.user ? displayNameOf(session.user) : (session.username ?? '');

  return (
    <div className={`login-page${phase === 'leaving' ? ' login-page--leaving' : ''}`} data-testid="login-page">
      <LoginBrand />
      <main className="login-main">
        <div className="login-main__toolbar">
          <LanguageSelect compact testId="login-language" />
        </div>
        <div className="login-card card">
          <header className="login-card__header">
            <h1>{t('auth.title')}</h1>
            <p>{t('auth.subtitle')}</p>
          </header>

          <SegmentedControl
            label={t('auth.modeLabel')}
            value={mode}
            onChange={(value) => setMode(value)}
            disabled={busy}
            testId="login-mode"
            options={[
              { value: 'normal', label: t('auth.modeNormal') },
              { value: 'smartLink', label: t('auth.modeSmartLink'), icon: <LinkIcon size={16} /> },
            ]}
          />

          {signedIn ? <Banner tone="success" testId="login-success">{t('auth.signedInAs', { name })}</Banner> : null}
          {authError && !signedIn ? <Banner tone="error" testId="login-error">{authError}</Banner> : null}

          {mode === 'normal' ? (
            <form className="login-form" onSubmit={submitNormal} noValidate aria-label={t('auth.modeNormal')}>
              <SegmentedControl
                size="sm"
                label={t('auth.methodLabel')}
                value={method}
                onChange={(value) => setMethod(value)}
                disabled={busy}
                testId="login-method"
                options={[
                  { value: 'account', label: t('auth.methodAccount'), icon: <UserIcon size={16} /> },
                  { value: 'phone', label: t('auth.methodPhone'), icon: <PhoneIcon size={16} /> },
                ]}
              />
              {method === 'account' ? (
                <AccountLoginFields
                  username={form.username}
                  password={form.password}
                  errors={errors}
                  disabled={busy}
                  showPassword={showPassword}
                  onToggleShowPassword={() => setShowPassword((v) => !v)}
                  onChange={updateForm}
                />
              ) : (
                <PhoneLoginFields
                  internationalCode={form.internationalCode}
                  phone={form.phone}
                  code={form.code}
                  errors={errors}
                  disabled={busy}
                  sendingCode={sendCode.isPending}
                  countdown={countdown.remaining}
                  codeSentTo={codeSentTo}
                  onChange={updateForm}
                  onSendCode={requestCode}
                />
              )}
              <button type="submit" className="btn btn--primary btn--block" disabled={busy} data-testid="login-submit">
                {pending === 'normal' ? <Spinner size={18} /> : null}
                {pending === 'normal' ? t('auth.loggingIn') : t('auth.login')}
              </button>
            </form>
          ) : (
            <form className="login-form" onSubmit={submitSmartLink} noValidate aria-label={t('auth.modeSmartLink')}>
              <p className="login-form__note">{t('auth.smartLink.description')}</p>
              <SmartLinkFields
                username={smartLink.username}
                password={smartLink.password}
                errors={smartLinkErrors}
                disabled={busy}
                showPassword={showPassword}
                onToggleShowPassword={() => setShowPassword((v) => !v)}
                onChange={updateSmartLink}
              />
              <button type="submit" className="btn btn--primary btn--block" disabled={busy} data-testid="smartlink-submit">
                {pending === 'smartLink' ? <Spinner size={18} /> : null}
                {pending === 'smartLink' ? t('auth.smartLink.loggingIn') : t('auth.smartLink.login')}
              </button>
            </form>
          )}

          <HelpPanel />
        </div>
        <p className="login-main__footer">{t('auth.footer', { version: '1.0.0' })}</p>
      </main>
    </div>
  );
}
