// A finished item's result: the enhanced text (copy, differences against the original) and the
// enhanced images (compare slider against the source, the viewer, download), with the
// confidence, processing time and model; each can go on to the video workflow.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CompareSlider } from '../../../components/compare-slider/compare-slider';
import { ImageViewer } from '../../../components/image-viewer/image-viewer';
import { offerToVideo } from '../../../lib/handoff/video-handoff';
import type { WorkshopItem, WorkshopResult } from '../model/workshop-item';
import { TextChangesView } from './text-changes';
import { TextDiffView } from './text-diff-view';
import { copyPlainText } from '../../../lib/clipboard';

interface Props {
  item: WorkshopItem;
  result: WorkshopResult;
}

export function ResultMeta({ result, localPreview }: { result: WorkshopResult; localPreview: boolean }) {
  const { t, i18n } = useTranslation();
  const ms = result.processing_ms;
  const fmt = new Intl.NumberFormat(i18n.resolvedLanguage, { maximumFractionDigits: 1 });
  const time =
    ms === null ? '—' : ms < 1000 ? t('workshop.result.milliseconds', { value: fmt.format(ms) }) : t('workshop.result.seconds', { value: fmt.format(ms / 1000) });
  return (
    <dl className="ws-meta" data-testid="workshop-result-meta">
      <div>
        <dt>{t('workshop.result.confidence')}</dt>
        <dd data-testid="workshop-confidence">{result.confidence === null ? '—' : `${Math.round(result.confidence * 100)}%`}</dd>
      </div>
      <div>
        <dt>{t('workshop.result.time')}</dt>
        <dd data-testid="workshop-time">{time}</dd>
      </div>
      <div>
        <dt>{t('workshop.result.model')}</dt>
        <dd data-testid="workshop-model-used">
          {result.model ?? '—'}
          {localPreview && <span className="ws-badge">{t('workshop.result.localPreview')}</span>}
        </dd>
      </div>
    </dl>
  );
}

export function ItemResult({ item, result }: Props) {
  const { t } = useTranslation();
  const [showDiff, setShowDiff] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const original = item.text ?? '';

  async function copy(text: string) {
    try {
      await copyPlainText(text);
      toast.success(t('workshop.result.copied'));
    } catch {
      toast.error(t('workshop.result.copyFailed'));
    }
  }

  function toVideo(offer: { kind: 'description'; text: string } | { kind: 'image'; url: string; fileName: string }) {
    offerToVideo(sessionStorage, { version: 1, ...offer, createdAt: Date.now() });
    toast.success(t('workshop.result.sentToVideo'), {
      action: { label: t('workshop.result.openVideo'), onClick: () => (window.location.hash = '#/video-generation') },
    });
  }

  return (
    <div className="ws-result" data-testid="workshop-result">
      <ResultMeta result={result} localPreview={item.local_preview} />
      {result.text !== null && (
        <div className="ws-result__text">
          {showDiff && original ? (
            <TextDiffView before={original} after={result.text} />
          ) : (
            <p className="ws-result__body" data-testid="workshop-result-text">
              {result.text}
            </p>
          )}
          {result.text_changes ? <TextChangesView changes={result.text_changes} /> : null}
          <div className="ws-actions">
            <button type="button" className="ws-button ws-button--small" onClick={() => void copy(result.text ?? '')}>
              {t('workshop.result.copy')}
            </button>
            {original && (
              <button
                type="button"
                className="ws-button ws-button--small"
                aria-pressed={showDiff}
                onClick={() => setShowDiff((v) => !v)}
                data-testid="workshop-toggle-diff"
              >
                {showDiff ? t('workshop.result.hideDiff') : t('workshop.result.showDiff')}
              </button>
            )}
            <button
              type="button"
              className="ws-button ws-button--small"
              onClick={() => toVideo({ kind: 'description', text: result.text ?? '' })}
              data-testid="workshop-send-text-to-video"
            >
              {t('workshop.result.sendTextToVideo')}
            </button>
          </div>
        </div>
      )}
      {result.images.length > 0 && (
        <ul className="ws-result__images">
          {result.images.map((image, i) => {
            const source = item.images[i] ?? item.images[0];
            const fileName = `workshop-${item.id}-${i + 1}.${image.url.split('?')[0]!.split('.').pop() ?? 'png'}`;
            return (
              <li key={image.file_id + i} className="ws-result__image" data-testid="workshop-result-image">
                {source ? (
                  <CompareSlider
                    beforeSrc={source.url}
                    afterSrc={image.url}
                    beforeLabel={t('workshop.result.original')}
                    afterLabel={t('workshop.result.enhanced')}
                    className="ws-compare"
                  />
                ) : (
                  <img src={image.url} alt={t('workshop.result.enhancedImage', { n: i + 1 })} className="ws-result__img" />
                )}
                <div className="ws-actions">
                  <button type="button" className="ws-button ws-button--small" onClick={() => setViewing(i)} data-testid="workshop-open-viewer">
                    {t('workshop.result.view')}
                  </button>
                  <a className="ws-button ws-button--small" href={image.url} download={fileName}>
                    {t('workshop.result.download')}
                  </a>
                  <button
                    type="button"
                    className="ws-button ws-button--small"
                    onClick={() => toVideo({ kind: 'image', url: image.url, fileName })}
                    data-testid="workshop-send-image-to-video"
                  >
                    {t('workshop.result.sendImageToVideo')}
                  </button>
                </div>
                <ImageViewer
                  open={viewing === i}
                  src={image.url}
                  alt={t('workshop.result.enhancedImage', { n: i + 1 })}
                  fileName={fileName}
                  onClose={() => setViewing(null)}
                  details={<ResultMeta result={result} localPreview={item.local_preview} />}
                />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
