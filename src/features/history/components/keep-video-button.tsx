// "Keep on this device" for a finished video (issue 25): the whole file goes into the device's
// kept videos (lib/offline/kept-videos.ts) within the budget chosen in settings, and then plays
// offline, seeking included. Kept, it offers to remove it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { formatBytes } from '../../../components/offline/offline-settings';
import { Spinner } from '../../../components/spinner';
import { KeepVideoError } from '../../../lib/offline/kept-videos';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { budgetBytes, keepVideoOnDevice, removeVideoFromDevice, useKeptVideos } from '../../../lib/offline/use-kept-videos';

export function KeepVideoButton({ id, url }: { id: number; url: string }) {
  const { t, i18n } = useTranslation();
  const { online } = useOnlineStatus();
  const { isKept, settings } = useKeptVideos();
  const [busy, setBusy] = useState(false);
  const kept = isKept(url);
  const language = i18n.resolvedLanguage ?? 'zh-CN';

  async function keep() {
    setBusy(true);
    try {
      await keepVideoOnDevice(url, id, true);
      toast.success(t('history.keep.done', { id }));
    } catch (error) {
      if (!(error instanceof KeepVideoError)) toast.error(t('history.keep.failed'));
      else if (error.reason === 'too-large')
        toast.error(t('history.keep.tooLarge', { size: formatBytes(error.bytes, language), budget: formatBytes(budgetBytes(settings), language) }));
      else toast.error(t(error.reason === 'storage-full' ? 'history.keep.storageFull' : 'history.keep.failed'));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!kept) return;
    setBusy(true);
    try {
      await removeVideoFromDevice(kept.key);
      toast.success(t('history.keep.removed', { id }));
    } finally {
      setBusy(false);
    }
  }

  if (kept) {
    return (
      <>
        <span className="history-kept" data-testid="video-kept">
          {t('history.keep.kept')} ({formatBytes(kept.bytes, language)})
        </span>
        <button type="button" className="btn btn--ghost" onClick={() => void remove()} disabled={busy} data-testid="unkeep-video">
          {busy ? <Spinner size={16} /> : null}
          {t('history.keep.remove')}
        </button>
      </>
    );
  }
  return (
    <button type="button" className="btn btn--ghost" onClick={() => void keep()} disabled={busy || !online} data-testid="keep-video">
      {busy ? <Spinner size={16} /> : null}
      {t('history.keep.action')}
    </button>
  );
}
