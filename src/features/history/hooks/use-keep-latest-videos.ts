// "Keep the newest N finished videos" (settings, lib/offline/use-kept-videos.ts): when the history
// page opens online, the newest finished videos not yet on the device are kept, one at a time,
// within the budget. A failure waits for the next visit; nothing is said about it.
import { useEffect } from 'react';
import { useOnlineStatus } from '../../../lib/offline/online-status';
import { keepVideoOnDevice, keptKeyOf, useKeptVideos } from '../../../lib/offline/use-kept-videos';
import { fetchHistoryPage } from '../api/history-list-query';

export function useKeepLatestVideos(): void {
  const { online } = useOnlineStatus();
  const { settings, loaded, videos } = useKeptVideos();
  const latest = settings.latest;
  useEffect(() => {
    if (!online || !loaded || latest === 0) return;
    const controller = new AbortController();
    const keys = new Set(videos.map((v) => v.key));
    void (async () => {
      const page = await fetchHistoryPage('videos', null, controller.signal);
      const newest = page.items.filter((v) => v.status === 'completed' && v.url).slice(0, latest);
      for (const video of newest) {
        if (controller.signal.aborted) return;
        if (keys.has(keptKeyOf(video.url!))) continue;
        await keepVideoOnDevice(video.url!, video.id, false);
      }
    })().catch(() => undefined);
    return () => controller.abort();
    // Once per visit and per choice: the list of kept videos changes as this runs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [online, loaded, latest]);
}
