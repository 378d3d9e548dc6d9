import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readEventStream } from '../../../src/lib/api/event-stream';
import { postEventStream } from '../../../src/lib/api/post-event-stream';
import { primeRuntimeConfig } from '../../../src/lib/api/runtime-config';
import { initI18n } from '../../../src/i18n/i18n';
import { followOtherTabs } from '../../../src/lib/session/session-store';

const t = (key: string) => key;
const encoder = new TextEncoder();

function streamOf(chunks: string[], options: { hold?: boolean } = {}): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!options.hold) controller.close();
    },
  });
}

interface Event {
  type: string;
  progress?: number;
}
const isFinal = (e: Event) => e.type === 'complete' || e.type === 'error';

describe('readEventStream', () => {
  it('hands over each data: JSON event, across chunk boundaries', async () => {
    const events: Event[] = [];
    const outcome = await readEventStream<Event>(
      streamOf(['data: {"type":"connected"}\n\n', 'data: {"type":"prog', 'ress","progress":40}\n', '\ndata: {"type":"complete"}\n\n']),
      { onEvent: (e) => events.push(e), isFinal, t },
    );
    expect(events).toEqual([{ type: 'connected' }, { type: 'progress', progress: 40 }, { type: 'complete' }]);
    expect(outcome).toBe('completed');
  });

  it('stops at a final event even if the server keeps the stream open', async () => {
    const events: Event[] = [];
    const outcome = await readEventStream<Event>(streamOf(['data: {"type":"error"}\n\n', 'data: {"type":"late"}\n\n'], { hold: true }), {
      onEvent: (e) => events.push(e),
      isFinal,
      t,
    });
    expect(outcome).toBe('completed');
    expect(events).toEqual([{ type: 'error' }]);
  });

  it('reports a stream the server closed without a final event', async () => {
    expect(await readEventStream<Event>(streamOf(['data: {"type":"start"}\n\n']), { onEvent: () => {}, isFinal, t })).toBe('ended');
  });

  it('rejects a line that is not JSON', async () => {
    await expect(readEventStream(streamOf(['data: {oops\n\n']), { onEvent: () => {}, t })).rejects.toMatchObject({ message: 'errors.streamParse' });
  });

  it('a cancelled stream resolves silently and stops delivering', async () => {
    const controller = new AbortController();
    const events: Event[] = [];
    const reading = readEventStream<Event>(streamOf(['data: {"type":"start"}\n\n'], { hold: true }), {
      onEvent: (e) => {
        events.push(e);
        controller.abort();
      },
      signal: controller.signal,
      t,
    });
    await expect(reading).resolves.toBe('cancelled');
    expect(events).toHaveLength(1);
  });
});

describe('postEventStream', () => {
  beforeAll(async () => {
    // The storage event below stands for another tab, as the app follows them once it shows.
    followOtherTabs();
    await initI18n();
    primeRuntimeConfig({ api: { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' }, version: '1.0.0' });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('POSTs multipart with the bearer token and reads the events', async () => {
    localStorage.setItem('token', 'tok');
    localStorage.setItem('isLoggedIn', 'true');
    window.dispatchEvent(new StorageEvent('storage', { key: 'token' }));
    const fetchMock = vi.fn(async () => new Response(streamOf(['data: {"type":"complete"}\n\n']), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const form = new FormData();
    form.append('prompt', 'silk');
    const events: Event[] = [];
    const outcome = await postEventStream<Event>({ path: '/regenerate-stream', body: form, onEvent: (e) => events.push(e), isFinal });
    expect(outcome).toBe('completed');
    expect(events).toEqual([{ type: 'complete' }]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/image-api/regenerate-stream');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(form);
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('an HTTP error carries the server message, else "HTTP error! status: N"', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ message: 'model busy' }), { status: 503 })));
    await expect(postEventStream({ path: '/x', body: {}, onEvent: () => {} })).rejects.toMatchObject({ message: 'model busy', code: 503 });
    vi.stubGlobal('fetch', vi.fn(async () => new Response('gateway', { status: 502 })));
    await expect(postEventStream({ path: '/x', body: {}, onEvent: () => {} })).rejects.toMatchObject({ message: 'HTTP error! status: 502' });
  });

  it('cancelling before or during the request is silent', async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            // As real fetch: an already aborted signal rejects at once.
            if (init.signal?.aborted) reject(new DOMException('aborted', 'AbortError'));
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const pending = postEventStream({ path: '/x', body: {}, onEvent: () => {}, signal: controller.signal });
    controller.abort();
    await expect(pending).resolves.toBe('cancelled');
    await expect(postEventStream({ path: '/x', body: {}, onEvent: () => {}, signal: controller.signal })).resolves.toBe('cancelled');
  });
});
