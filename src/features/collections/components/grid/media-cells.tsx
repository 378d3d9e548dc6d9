// The pick (the chosen image, who chose it and why) and the video (its thumbnail as the link to
// its player) of one row.
import { useTranslation } from 'react-i18next';
import type { CollectionItemView } from '../../../../../shared/collections/collection-types';
import { pickedImage } from '../../model/collection-lookbook';
import { stageState } from '../../model/collection-stage-state';
import { StageBadge } from './stage-badge';

export function PickCell({ item }: { item: CollectionItemView }) {
  const { t } = useTranslation();
  const image = pickedImage(item);
  if (!image?.url) return <StageBadge state={stageState(item, 'pick')} />;
  return (
    <div className="cg-media">
      <a
        className="cg-thumb cg-thumb--picked"
        href={image.url}
        target="_blank"
        rel="noopener"
        aria-label={t('collections.grid.openPicked', { code: item.code })}
        data-testid="picked-image"
      >
        {image.thumbnail_url ? <img src={image.thumbnail_url} alt="" loading="lazy" decoding="async" /> : null}
      </a>
      <span className="cg-media__text">
        {item.pick_by ? <span>{t(`collections.grid.pickBy.${item.pick_by}`)}</span> : null}
        {item.pick_reason ? (
          <span className="cg-clamp" title={item.pick_reason}>
            {item.pick_reason}
          </span>
        ) : null}
      </span>
    </div>
  );
}

export function VideoPromptsCell({ item, progress }: { item: CollectionItemView; progress?: number }) {
  const state = stageState(item, 'video_prompts');
  return (
    <div className="cg-text-cell">
      <StageBadge state={state} progress={progress} />
      {item.video_prompt ? (
        <span className="cg-clamp" title={item.video_prompt}>
          {item.video_prompt}
        </span>
      ) : null}
    </div>
  );
}

export function VideoCell({ item, progress }: { item: CollectionItemView; progress?: number }) {
  const { t } = useTranslation();
  const video = item.video;
  if (video?.status === 'completed' && video.url) {
    return (
      <a
        className="cg-video"
        href={video.url}
        target="_blank"
        rel="noopener"
        aria-label={t('collections.grid.playVideo', { code: item.code })}
        data-testid="video-link"
      >
        {video.thumbnail_url ? <img src={video.thumbnail_url} alt="" loading="lazy" decoding="async" /> : null}
        <span className="cg-video__play" aria-hidden="true">
          ▶
        </span>
      </a>
    );
  }
  const state = stageState(item, 'video');
  return <StageBadge state={state} progress={progress ?? (state === 'running' ? video?.progress : undefined)} />;
}
