// Personal information from the profile call (cached copy first).
import { useTranslation } from 'react-i18next';
import { UserIcon } from '../../../components/icons';
import { dateFormat } from '../../../i18n/formats';
import { useProfile } from '../../../lib/session/profile';
import { useSession } from '../../../lib/session/use-session';
import { displayNameOf } from '../../../lib/session/user';
import { SettingsSection } from './settings-section';

export function ProfileSection() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const profile = useProfile();
  const user = profile.data ?? session.user;
  const none = t('settings.profile.none');
  const rows: Array<[string, string]> = user
    ? [
        [t('settings.profile.displayName'), displayNameOf(user)],
        [t('settings.profile.account'), user.account],
        [t('settings.profile.role'), t(`roles.${user.user_level}`)],
        [t('settings.profile.phone'), user.phone ? `+${user.international_code ?? '86'} ${user.phone}` : none],
        [t('settings.profile.smartLink'), user.wechat_account || none],
        [
          t('settings.profile.memberSince'),
          dateFormat(i18n.resolvedLanguage, { dateStyle: 'medium' }).format(new Date(user.created_at)),
        ],
      ]
    : [];
  return (
    <SettingsSection id="profile" icon={<UserIcon />} title={t('settings.profile.title')} description={t('settings.profile.description')}>
      {user ? (
        <dl className="settings-profile">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="settings-muted">{profile.isError ? profile.error.message : t('common.loading')}</p>
      )}
    </SettingsSection>
  );
}
