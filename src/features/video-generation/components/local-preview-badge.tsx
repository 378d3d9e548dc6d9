// Said plainly: the built-in engine made this, not an AI model.
import { useTranslation } from 'react-i18next';

export function LocalPreviewBadge() {
  const { t } = useTranslation();
  return (
    <p className="vg-preview-badge" role="note" data-testid="local-preview">
      {t('videoGeneration.localPreview')}
    </p>
  );
}
