// The collection page's stream follower: every event lands in the cached view, a cut stream is
// opened again after a short wait and its snapshot replaces what was missed, the end event stops
// it, and a collection that is gone is not asked for again and again.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import axios, { AxiosError, type AxiosAdapter } from 'axios';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CollectionEvent, CollectionItemView, CollectionView } from '../../../shared/collections/collection-types';
import { collectionQueryKey } from '../../../src/features/collections/api/collection-query';
import { useCollectionEvents } from '../../../src/features/collections/hooks/use-collection-events';
import { initI18n } from '../../../src/i18n/i18n';
import { primeRuntimeConfig } from '../../../src/lib/api/runtime-config';
import { getSession, saveGrant } from '../../../src/lib/session/session-store';

const zero = { queued: 0, running: 0, review: 0, done: 0, failed: 0, skipped: 0, cancelled: 0 };
const stages = { analysis: 0, candidates: 0, pick: 0, video_prompts: 0, video: 0 };

function item(id: number, status: CollectionItemView['status'], stage: CollectionItemView['stage'] = 'analysis'): CollectionItemView {
  return {
    id, position: id, code: `C${id}`, name: null, status, stage, error: null, request_id: null, candidates: [],
    picked_image_id: null, pick_by: null, pick_reason: null, video_prompt: null, video: null, updated_at: '2026-11-27T00:00:00Z',
  };
}

function view(items: CollectionItemView[], status: CollectionView['status'] = 'running'): CollectionView {
  return {
    id: 4, client_collection_id: 'c4', name: 'SS27', status, total: items.length, counts: zero, created_at: '2026-11-27T00:00:00Z',
    completed_at: null, settings: { image_prompt: 'p', candidates: 1, pick_rule: 'score', stop_for_review: false, video: { kind: 'standard', aspect: 'auto', camera: [], duration: 6, resolution: '768P' } },
    language: 'en-US', by_stage: stages, estimate_ms: null, items,
  };
}

describe('useCollectionEvents', () => {
  beforeAll(async () => {
    await initI18n();
    primeRuntimeConfig({ api: { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' }, version: '1.0.0' });
  });
  afterEach(() => vi.unstubAllGlobals());

  const encoder = new TextEncoder();
  /** Each call of fetch opens a stream the test writes to and closes. */
  function streams() {
    const open: { push(event: CollectionEvent): void; close(): void }[] = [];
    const fetchMock = vi.fn(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          open.push({
            push: (event) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
            close: () => controller.close(),
          });
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    return { open, fetchMock };
  }

  function setup(initial: CollectionView) {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(collectionQueryKey(4), initial);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const cached = () => queryClient.getQueryData<CollectionView>(collectionQueryKey(4))!;
    return { wrapper, cached };
  }

  it('applies the events, opens the stream again after a cut and takes the next snapshot, stops at the end', async () => {
    const { open, fetchMock } = streams();
    const { wrapper, cached } = setup(view([item(1, 'queued'), item(2, 'queued')]));
    const { result } = renderHook(() => useCollectionEvents(4, true), { wrapper });
    await waitFor(() => expect(open).toHaveLength(1));
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/collections/4/events');

    act(() => open[0]!.push({ type: 'snapshot', collection: view([item(1, 'running'), item(2, 'queued')]) }));
    await waitFor(() => expect(result.current.stream).toBe('live'));
    expect(cached().items[0]!.status).toBe('running');
    act(() => open[0]!.push({ type: 'progress', item_id: 1, stage: 'analysis', progress: 40 }));
    await waitFor(() => expect(result.current.progress.get(1)).toEqual({ stage: 'analysis', progress: 40 }));

    // The connection is cut; meanwhile row 1 finished and row 2 started.
    act(() => open[0]!.close());
    await waitFor(() => expect(result.current.stream).not.toBe('live'));
    await waitFor(() => expect(open).toHaveLength(2), { timeout: 4000 });
    act(() => open[1]!.push({ type: 'snapshot', collection: view([item(1, 'done', 'video'), item(2, 'running')]) }));
    await waitFor(() => expect(cached().items.map((i) => i.status)).toEqual(['done', 'running']));
    expect(result.current.stream).toBe('live');
    expect(result.current.progress.size).toBe(0);

    act(() => open[1]!.push({ type: 'end', collection: view([item(1, 'done', 'video'), item(2, 'done', 'video')], 'completed') }));
    await waitFor(() => expect(result.current.stream).toBe('idle'));
    expect(cached().status).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('stops when the collection is gone (404)', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ success: false, message: 'not found' }), { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    const { wrapper } = setup(view([item(1, 'queued')]));
    const { result } = renderHook(() => useCollectionEvents(4, true), { wrapper });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(result.current.stream).toBe('idle'));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
  describe('when the stream is refused for a lapsed token (401)', () => {
    const defaultAdapter = axios.defaults.adapter;
    afterEach(() => {
      axios.defaults.adapter = defaultAdapter;
      localStorage.clear();
    });

    /** The events call is refused once with 401, then streams; the refresh call meets `refresh`. */
    function refusedOnce(refresh: AxiosAdapter) {
      saveGrant({ token: 'old', refresh_token: 'r-old' }, 'ann');
      const refreshCalls: string[] = [];
      axios.defaults.adapter = async (config) => {
        refreshCalls.push(config.url ?? '');
        return refresh(config);
      };
      let calls = 0;
      const fetchMock = vi.fn(async () => {
        calls += 1;
        if (calls === 1) return new Response(JSON.stringify({ success: false, code: 401, message: 'expired' }), { status: 401 });
        return new Response(new ReadableStream<Uint8Array>({ start() {} }), { status: 200, headers: { 'content-type': 'text/event-stream' } });
      });
      vi.stubGlobal('fetch', fetchMock);
      return { fetchMock, refreshCalls };
    }

    it('follows again when the refresh got no answer, and the person stays signed in', async () => {
      const { fetchMock, refreshCalls } = refusedOnce(async (config) => {
        throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {});
      });
      const { wrapper } = setup(view([item(1, 'queued')]));
      renderHook(() => useCollectionEvents(4, true), { wrapper });
      await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2), { timeout: 4000 });
      expect(refreshCalls).toEqual(['/api/user/refresh/']);
      expect(getSession().isLoggedIn).toBe(true);
    });

    it('stops when the server refused the refresh token: the session is over', async () => {
      const { fetchMock, refreshCalls } = refusedOnce(async (config) => {
        const response = { status: 401, statusText: '', data: { success: false, code: 401, message: 'revoked', data: null }, headers: {}, config };
        throw new AxiosError('failed', 'ERR_BAD_REQUEST', config, {}, response);
      });
      const { wrapper } = setup(view([item(1, 'queued')]));
      const { result } = renderHook(() => useCollectionEvents(4, true), { wrapper });
      await waitFor(() => expect(refreshCalls).toHaveLength(1));
      await waitFor(() => expect(result.current.stream).toBe('idle'));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });
  });
});
