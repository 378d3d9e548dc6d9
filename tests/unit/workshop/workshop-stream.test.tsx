// The workshop page's handling of an item's event stream: the text placed by offset and dropped on
// a reset (a cut stream asked again, a reconnect's replay) so no sentence is held twice; the hook
// that follows running items, puts the finished item into the cached list, and leaves an item to
// the list's polling when its stream cannot be opened.
import { QueryClient, QueryClientProvider, type InfiniteData } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../src/i18n/i18n';
import { primeRuntimeConfig } from '../../../src/lib/api/runtime-config';
import { queryKeys } from '../../../src/lib/query/query-keys';
import type { WorkshopStreamEvent } from '../../../src/features/workshop/api/workshop-stream';
import { useWorkshopStreams } from '../../../src/features/workshop/hooks/use-workshop-streams';
import { applyWorkshopEvent, NO_LIVE_TEXT, type LiveText } from '../../../src/features/workshop/model/live-text';
import type { WorkshopItem, WorkshopPage } from '../../../src/features/workshop/model/workshop-item';

const TEXT = 'Rose voile: a featherlight cotton with a crimson floral. Cool on hot days.';

function item(id: number, status: WorkshopItem['status'], resultText: string | null = null): WorkshopItem {
  return {
    id,
    type: 'text',
    status,
    text: 'rose voile',
    images: [],
    config: { creativity: 0.5, precision: 0.5, style: 'natural' },
    result: resultText === null ? null : { text: resultText, images: [], confidence: 0.82, model: 'gemini-2.5-flash', text_changes: null, processing_ms: 900 },
    provider: 'gemini',
    local_preview: false,
    error: null,
    created_at: '2026-11-25T10:00:00.000Z',
    started_at: null,
    completed_at: null,
    updated_at: '2026-11-25T10:00:00.000Z',
  };
}

function heldAfterEach(events: WorkshopStreamEvent[]): string[] {
  let live: LiveText = NO_LIVE_TEXT;
  return events.map((e) => (live = applyWorkshopEvent(live, e, 0)).text);
}

describe('the text of a running item, from its stream', () => {
  it('places pieces by offset and drops a cut attempt at the reset: the text is never held twice', () => {
    const held = heldAfterEach([
      { type: 'progress', status: 'processing', message: 'Generating…' },
      { type: 'streaming', content: TEXT.slice(0, 20), offset: 0 },
      { type: 'streaming', content: TEXT.slice(20, 31), offset: 20 },
      // The provider's stream was cut; the server asks again.
      { type: 'streaming_reset' },
      { type: 'streaming', content: TEXT.slice(0, 40), offset: 0 },
      { type: 'streaming', content: TEXT.slice(40), offset: 40 },
    ]);
    expect(held.at(-1)).toBe(TEXT);
    for (const text of held) expect(TEXT.startsWith(text)).toBe(true);
  });

  it('takes a reconnect\'s replay (the text so far at 0) in place of what it held, and carries on', () => {
    const held = heldAfterEach([
      { type: 'streaming', content: TEXT.slice(0, 25), offset: 0 },
      // The stream was opened again: the server replays the text so far from the item's row.
      { type: 'progress', status: 'processing', message: 'Generating' },
      { type: 'streaming', content: TEXT.slice(0, 33), offset: 0 },
      { type: 'streaming', content: TEXT.slice(33), offset: 33 },
    ]);
    expect(held.at(-1)).toBe(TEXT);
    for (const text of held) expect(TEXT.startsWith(text)).toBe(true);
  });

  it('says when a retry is due, until text comes again', () => {
    let live = applyWorkshopEvent(NO_LIVE_TEXT, { type: 'progress', status: 'processing', message: 'Generating', retry_in_ms: 20_000, reason: 'rate_limited' }, 1_000);
    expect(live.retryAt).toBe(21_000);
    live = applyWorkshopEvent(live, { type: 'streaming', content: 'Rose', offset: 0 }, 2_000);
    expect(live).toEqual({ text: 'Rose', retryAt: null });
  });
});

describe('useWorkshopStreams', () => {
  beforeAll(async () => {
    await initI18n();
    primeRuntimeConfig({ api: { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' }, version: '1.0.0' });
  });
  afterEach(() => vi.unstubAllGlobals());

  const encoder = new TextEncoder();
  function setup(items: WorkshopItem[]) {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData<InfiniteData<WorkshopPage, string | null>>(queryKeys.workshop.items(), {
      pages: [{ items, next_cursor: null, has_more: false }],
      pageParams: [null],
    });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const cached = () => queryClient.getQueryData<InfiniteData<WorkshopPage, string | null>>(queryKeys.workshop.items())!.pages[0]!.items;
    return { queryClient, wrapper, cached };
  }

  it('follows a running item: its text as it is written, then the finished item in the list', async () => {
    let push: (event: WorkshopStreamEvent) => void = () => {};
    let close: () => void = () => {};
    const fetchMock = vi.fn(async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (event) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
          close = () => controller.close();
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    });
    vi.stubGlobal('fetch', fetchMock);
    const { wrapper, cached } = setup([item(7, 'pending'), item(6, 'completed', 'done before')]);
    const { result } = renderHook(() => useWorkshopStreams(cached()), { wrapper });

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url] = fetchMock.mock.calls[0] as unknown as [string];
    expect(url).toBe('/third-api/workshop/items/7/events');
    expect(result.current.streamed.has(7)).toBe(true);

    act(() => push({ type: 'progress', status: 'processing', message: 'Generating…' }));
    await waitFor(() => expect(cached()[0]!.status).toBe('processing'));
    act(() => push({ type: 'streaming', content: TEXT.slice(0, 30), offset: 0 }));
    await waitFor(() => expect(result.current.live[7]?.text).toBe(TEXT.slice(0, 30)));
    act(() => push({ type: 'streaming_reset' }));
    act(() => push({ type: 'streaming', content: TEXT.slice(0, 12), offset: 0 }));
    await waitFor(() => expect(result.current.live[7]?.text).toBe(TEXT.slice(0, 12)));
    act(() => push({ type: 'streaming', content: TEXT.slice(12), offset: 12 }));
    await waitFor(() => expect(result.current.live[7]?.text).toBe(TEXT));

    act(() => {
      push({ type: 'complete', data: { ...item(7, 'completed', TEXT) } });
      close();
    });
    await waitFor(() => expect(cached()[0]).toMatchObject({ id: 7, status: 'completed', result: { text: TEXT } }));
    await waitFor(() => expect(result.current.streamed.size).toBe(0));
    expect(result.current.live[7]).toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('leaves an item to polling when its stream cannot be opened', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ message: 'not found' }), { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);
    const { wrapper, cached } = setup([item(9, 'processing')]);
    const { result, rerender } = renderHook(() => useWorkshopStreams(cached()), { wrapper });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(result.current.streamed.size).toBe(0));
    rerender();
    // Not opened again and again: the list's polling follows it now.
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(result.current.live[9]).toBeUndefined();
  });
});
