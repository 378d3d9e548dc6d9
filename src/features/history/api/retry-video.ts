// POST /user/video-generations/{id}/retry: a new video from the original parameters (a creation
// call: transient failures are tried again under the shared retry policy before the person is asked).
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { http } from '../../../lib/api';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from '../../../lib/api/idempotency-key';
import { queryKeys } from '../../../lib/query/query-keys';
import { withRetry } from '../../../lib/retry/with-retry';
import { applyItemUpdate } from '../model/history-pages';
import type { HistoryPage, VideoDetail, VideoGeneration } from '../model/history-types';

export function retryVideo(id: number): Promise<VideoDetail> {
  // One key for every attempt: an answer lost on the way back makes no second video.
  const key = newIdempotencyKey();
  return withRetry((signal) =>
    http.post<VideoDetail>('main', `/user/video-generations/${id}/retry`, undefined, { signal, headers: { [IDEMPOTENCY_HEADER]: key } }),
  );
}

export function useRetryVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryVideo,
    onSuccess: (video) => {
      queryClient.setQueryData(queryKeys.history.detail('video', video.id), video);
      queryClient.setQueryData<InfiniteData<HistoryPage<VideoGeneration>, string | null>>(
        queryKeys.history.list('videos'),
        (data) => (data ? { ...data, ...applyItemUpdate(data, video) } : data),
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.history.list('videos') });
    },
  });
}
