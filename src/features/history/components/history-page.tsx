// Spec §2 history: images and videos tabs, newest first with load-more, the detail dialogs, all
// browsable offline from what the device kept. The tab and an open dialog are in the address
// (?tab=videos&video=12), so a reload comes back to the same place.
import { useQueryClient } from '@tanstack/react-query';
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useKeepLatestVideos } from '../hooks/use-keep-latest-videos';
import { useOfflineBudget, pruneHistoryDetails } from '../hooks/use-offline-budget';
import type { HistoryKind } from '../model/history-types';
import { HistoryList } from './history-list';
import { ImageDetailDialog } from './image-detail-dialog';
import { VideoDetailDialog } from './video-detail-dialog';
import './history.css';

const TABS: HistoryKind[] = ['images', 'videos'];

function idParam(value: string | null): number | null {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : null;
}

export default function HistoryPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab: HistoryKind = params.get('tab') === 'videos' ? 'videos' : 'images';
  const imageId = idParam(params.get('image'));
  const videoId = idParam(params.get('video'));
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  useOfflineBudget();
  useKeepLatestVideos();

  function update(next: { tab?: HistoryKind; image?: number | null; video?: number | null }) {
    const p = new URLSearchParams();
    const nextTab = next.tab ?? tab;
    if (nextTab === 'videos') p.set('tab', 'videos');
    if (next.image) p.set('image', String(next.image));
    if (next.video) p.set('video', String(next.video));
    setParams(p, { replace: true });
    if (next.image || next.video) pruneHistoryDetails(queryClient);
  }

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length] as HistoryKind;
    update({ tab: next });
    tabRefs.current[TABS.indexOf(next)]?.focus();
  }

  const openImage = (id: number) => update({ image: id });
  const openVideo = (id: number) => update({ video: id });
  const close = () => update({});

  return (
    <div className="page history-page" data-testid="page-history">
      <header className="page__header">
        <h1>{t('nav.history')}</h1>
        <p>{t('pages.history.subtitle')}</p>
      </header>
      <div className="history-tabs" role="tablist" aria-label={t('history.tabsLabel')} onKeyDown={onTabKey}>
        {TABS.map((kind, index) => (
          <button
            key={kind}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`history-tab-${kind}`}
            aria-selected={tab === kind}
            aria-controls="history-panel"
            tabIndex={tab === kind ? 0 : -1}
            className="history-tabs__tab"
            data-testid={`history-tab-${kind}`}
            onClick={() => update({ tab: kind })}
          >
            {t(`history.tabs.${kind}`)}
          </button>
        ))}
      </div>
      <div id="history-panel" role="tabpanel" aria-labelledby={`history-tab-${tab}`}>
        <HistoryList key={tab} kind={tab} onOpen={tab === 'images' ? openImage : openVideo} />
      </div>
      {imageId !== null ? (
        <ImageDetailDialog key={`i${imageId}`} id={imageId} onClose={close} onOpenImage={openImage} onOpenVideo={openVideo} />
      ) : videoId !== null ? (
        <VideoDetailDialog key={`v${videoId}`} id={videoId} onClose={close} onOpenImage={openImage} onOpenVideo={openVideo} />
      ) : null}
    </div>
  );
}
