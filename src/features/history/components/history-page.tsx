// Placeholder until this tool's own work lands: the page, its title and a proper empty state.
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { HistoryIcon } from '../../../components/icons';

export default function Page() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('nav.history')}</h1>
        <p>{t('pages.history.subtitle')}</p>
      </header>
      <EmptyState
        icon={<HistoryIcon size={30} />}
        title={t('pages.history.emptyTitle')}
        description={t('pages.history.emptyBody')}
        testId="page-history"
      />
    </div>
  );
}
