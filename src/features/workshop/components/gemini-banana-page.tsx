// Placeholder until this tool's own work lands: the page, its title and a proper empty state.
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { SparklesIcon } from '../../../components/icons';

export default function Page() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('nav.geminiBanana')}</h1>
        <p>{t('pages.geminiBanana.subtitle')}</p>
      </header>
      <EmptyState
        icon={<SparklesIcon size={30} />}
        title={t('pages.geminiBanana.emptyTitle')}
        description={t('pages.geminiBanana.emptyBody')}
        testId="page-gemini-banana"
      />
    </div>
  );
}
