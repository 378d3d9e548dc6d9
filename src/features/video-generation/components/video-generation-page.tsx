// Placeholder until this tool's own work lands: the page, its title and a proper empty state.
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { VideoIcon } from '../../../components/icons';

export default function Page() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <header className="page__header">
        <h1>{t('nav.videoGeneration')}</h1>
        <p>{t('pages.videoGeneration.subtitle')}</p>
      </header>
      <EmptyState
        icon={<VideoIcon size={30} />}
        title={t('pages.videoGeneration.emptyTitle')}
        description={t('pages.videoGeneration.emptyBody')}
        testId="page-video-generation"
      />
    </div>
  );
}
