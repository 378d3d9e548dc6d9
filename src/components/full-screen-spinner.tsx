import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';
import './full-screen-spinner.css';

/** Shown while the session is restored or a page's code loads (spec §2). */
export function FullScreenSpinner() {
  const { t } = useTranslation();
  return (
    <div className="full-screen-spinner" role="status" aria-live="polite" data-testid="full-screen-spinner">
      <Spinner size={36} />
      <p>{t('common.loading')}</p>
    </div>
  );
}
