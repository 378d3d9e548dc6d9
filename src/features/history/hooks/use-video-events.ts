// Follows the running videos of the list over the server's event stream while the page is open:
// each progress event and each finished video lands in the list (and an open detail) at once.
// Says whether the stream is connected; when it is not, the list refreshes itself on a timer.
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryKeys } from '../../../lib/query/query-keys';
import { followVideoEvents, type VideoEvent } from '../api/video-events';
import { applyItemUpdate, applyProgress } from '../model/history-pages';
import type { HistoryPage, VideoDetail, VideoGeneration } from '../model/history-types';

type VideoPages = InfiniteData<HistoryPage<VideoGeneration>, string | null>;

export function useVideoEvents(runningIds: readonly number[]): boolean {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const key = [...runningIds].sort((a, b) => a - b).join(',');

  useEffect(() => {
    if (!key) return;
    const ids = key.split(',').map(Number);
    const controller = new AbortController();
    const listKey = queryKeys.history.list('videos');
    const onEvent = (event: VideoEvent) => {
      setLive(true);
      if (event.type === 'video') {
        queryClient.setQueryData<VideoPages>(listKey, (data) => (data ? { ...data, ...applyItemUpdate(data, event.video) } : data));
        queryClient.setQueryData<VideoDetail>(queryKeys.history.detail('video', event.video.id), (detail) =>
          detail ? { ...detail, ...event.video } : detail,
        );
      } else if (event.type === 'progress') {
        queryClient.setQueryData<VideoPages>(listKey, (data) => (data ? { ...data, ...applyProgress(data, event) } : data));
      }
    };
    followVideoEvents(ids, onEvent, controller.signal)
      .catch(() => undefined)
      .finally(() => {
        if (controller.signal.aborted) return;
        setLive(false);
        void queryClient.invalidateQueries({ queryKey: listKey });
      });
    return () => {
      controller.abort();
      setLive(false);
    };
  }, [key, queryClient]);

  return live && key !== '';
}
