// Logout with confirmation (spec §2). The server call may fail; this device is signed out anyway
// (spec §4). "Please try again" only when clearing this device itself failed.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LogoutIcon } from '../../../components/icons';
import { signOut } from '../../../lib/session/sign-out';

export function LogoutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await signOut();
      setConfirming(false);
      toast.success(t('settings.logout.done'));
      navigate('/login', { replace: true });
    } catch {
      toast.error(t('settings.logout.failed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="btn btn--danger-outline settings-logout" onClick={() => setConfirming(true)} data-testid="logout">
        <LogoutIcon size={18} />
        {t('settings.logout.button')}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('settings.logout.confirmTitle')}
        message={t('settings.logout.confirmBody')}
        confirmLabel={t('settings.logout.confirm')}
        cancelLabel={t('common.cancel')}
        tone="danger"
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
