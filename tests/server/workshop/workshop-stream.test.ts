// The workshop's event stream over real HTTP, with the real Gemini adapter against a local server
// speaking Gemini's documented streaming protocol and the built-in engine: authorised as the other
// workshop calls, the text as it is written, a reconnect that replays the text so far from the row
// and carries on, a stream cut mid-text that is dropped and asked again (the reader never holds a
// sentence twice), and the end (complete or error) replayed to a stream that comes late.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationProviders } from '../../../server/modules/generation/engines/generation-providers.js';
import type { Enhancer } from '../../../server/providers/capabilities.js';
import { createGeminiProvider } from '../../../server/providers/gemini/gemini-provider.js';
import { createLocalEnhancer } from '../../../server/providers/local/enhancer.js';
import { StreamedJsonField } from '../../../server/providers/shared/streamed-json-field.js';
import { createGenerationApp, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { geminiChunk } from '../providers/gemini/gemini-fixtures.js';
import { openSse, pieces, sseAnswer, useProviderTestServer, writeSse } from '../providers/provider-test-server.js';
import { expectOnContract } from '../helpers/stream-contract.js';

const STREAM_PATH = '/v1beta/models/gemini-text-test:streamGenerateContent';
const ANSWER = { text: 'Rose voile: a featherlight cotton with a crimson floral. Cool on hot days, it drapes softly and keeps its colour wash after wash.', confidence: 0.82 };
const JSON_ANSWER = JSON.stringify(ANSWER);

type Event = Record<string, unknown> & { type: string };

/** An event stream read as it arrives over HTTP. */
interface Reader {
  events: Event[];
  /** Resolves once an event (or the events so far) satisfy `done`. */
  until(done: (events: Event[]) => boolean): Promise<void>;
  ended: Promise<void>;
  close(): void;
}

const server = useProviderTestServer();
let t: GenerationTestApp;
let base: string;
let admin: string;
let localGate: Promise<void> = Promise.resolve();

beforeAll(async () => {
  const gemini = createGeminiProvider({
    apiKey: 'test-gemini-key',
    baseUrl: server.url,
    textModel: 'gemini-text-test',
    imageModel: 'gemini-image-test',
    retry: { retries: 1, maxWaitMs: 100, fallbackWaitMs: 10 },
  });
  const local = createLocalEnhancer();
  // The built-in engine as it is, held at its start until a test lets it go.
  const gatedLocal: Enhancer = {
    async enhance(input, onText, onRestart) {
      await localGate;
      return local.enhance(input, onText, onRestart);
    },
  };
  const providers: GenerationProviders = {
    enhancers: [
      { impl: gemini.enhancer, provider: 'gemini', localPreview: false },
      { impl: gatedLocal, provider: 'local', localPreview: true },
    ],
  };
  t = await createGenerationApp('sqlite', providers);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await t.adminToken();
});
/** Every gate and stream of a test, let go after it whatever happened, so nothing holds the app open. */
const leftOpen: (() => void)[] = [];
afterEach(() => {
  for (const release of leftOpen.splice(0)) release();
});
afterAll(async () => {
  await t?.close();
});

const calls = () => server.requests.filter((r) => r.path === STREAM_PATH).length;

async function create(text: string, model: 'gemini' | 'local'): Promise<number> {
  const r = await t.call<{ id: number }>('POST', '/third-api/workshop/items', { token: admin, body: { type: 'text', text, config: { model } } });
  expect(r.status).toBe(201);
  return r.body.data.id;
}

function openEvents(id: number, token = admin): Reader {
  const events: Event[] = [];
  const waiters = new Set<{ done: (e: Event[]) => boolean; resolve: () => void }>();
  const controller = new AbortController();
  leftOpen.push(() => controller.abort());
  const ended = (async () => {
    const response = await fetch(`${base}/third-api/workshop/items/${id}/events`, {
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', 'x-api-version': 'v1' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!data) continue;
          const event = JSON.parse(data) as Event;
          expectOnContract('/third-api/workshop/items/1/events', [event]);
          events.push(event);
          for (const w of [...waiters]) {
            if (!w.done(events)) continue;
            waiters.delete(w);
            w.resolve();
          }
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return {
    events,
    ended,
    close: () => controller.abort(),
    until: (done) =>
      done(events)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            waiters.add({ done, resolve });
            void ended.then(() => (done(events) ? resolve() : reject(new Error(`stream ended first: ${JSON.stringify(events).slice(0, 800)}`))));
          }),
  };
}

/** What a reader holds after each event: streamed pieces placed at their offsets, dropped at each reset. */
function shownAfterEach(events: Event[]): string[] {
  let shown = '';
  return events.map((e) => {
    if (e.type === 'streaming_reset') shown = '';
    if (e.type === 'streaming') shown = shown.slice(0, Number(e.offset)) + String(e.content);
    return shown;
  });
}
const shown = (events: Event[]) => shownAfterEach(events).at(-1) ?? '';

/** A gate a double waits on until the test opens it. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  leftOpen.push(() => open());
  return { wait, open };
}

describe('GET /workshop/items/:id/events', () => {
  it('is authorised like the other workshop calls: no token 401, a DESIGNER 403, another person\'s item 404', async () => {
    localGate = Promise.resolve();
    const id = await create('Soft   cotton twill', 'local');
    const url = `/third-api/workshop/items/${id}/events`;
    expect((await t.call('GET', url)).status).toBe(401);
    const designer = await t.user('DESIGNER');
    expect((await t.call('GET', url, { token: designer.token })).status).toBe(403);
    const otherAdmin = await t.user('ADMIN');
    const other = await t.call('GET', url, { token: otherAdmin.token });
    expect([other.status, other.body.message]).toEqual([404, expect.any(String)]);
  });

  it('streams the text as Gemini writes it; a reconnect replays it from the row and carries on; a cut is dropped, never shown twice (2 calls)', async () => {
    const watching = gate();
    const cut = gate();
    const finish = gate();
    const cutJson = JSON_ANSWER.slice(0, 70);
    const cutText = new StreamedJsonField('text').push(cutJson);
    server.on('POST', STREAM_PATH, async (_req, res) => {
      openSse(res);
      await watching.wait;
      for (const piece of pieces(cutJson, 9)) writeSse(res, geminiChunk(piece), '\r\n\r\n');
      await cut.wait;
      // Cut: the connection ends cleanly without a finishReason.
      res.end();
    }, 1);
    server.on('POST', STREAM_PATH, async (_req, res) => {
      openSse(res);
      for (const piece of pieces(JSON_ANSWER, 9)) writeSse(res, geminiChunk(piece), '\r\n\r\n');
      await finish.wait;
      writeSse(res, geminiChunk('', 'STOP'), '\r\n\r\n');
      res.end();
    });

    const id = await create('rose voile, cotton, light', 'gemini');
    const first = openEvents(id);
    await first.until((events) => events.some((e) => e.type === 'progress'));
    watching.open();
    await first.until((events) => shown(events) === cutText);
    expect(first.events.filter((e) => e.type === 'streaming').length).toBeGreaterThan(1);

    // A second stream (the page reloaded) hears where the item is: the text so far, from the row, at 0.
    const second = openEvents(id);
    await second.until((events) => shown(events) === cutText);
    expect(second.events.slice(0, 2)).toEqual([
      { type: 'progress', status: 'processing', message: 'Generating…' },
      { type: 'streaming', content: cutText, offset: 0 },
    ]);

    cut.open();
    for (const reader of [first, second]) await reader.until((events) => shown(events) === ANSWER.text);
    finish.open();
    await Promise.all([first.ended, second.ended]);

    for (const { events } of [first, second]) {
      const complete = events.at(-1)!;
      expect(complete).toMatchObject({ type: 'complete', data: { id, status: 'completed', result: { text: ANSWER.text, confidence: 0.82 } } });
      expect(events.filter((e) => e.type === 'complete' || e.type === 'error')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'streaming_reset')).toHaveLength(1);
      // At no moment did the reader hold more than the text once: never the cut start and then the whole.
      for (const text of shownAfterEach(events)) expect(ANSWER.text.startsWith(text) || cutText.startsWith(text)).toBe(true);
      // Each piece starts where the reader's text ends: nothing is sent twice.
      let length = 0;
      for (const e of events) {
        if (e.type === 'streaming_reset') length = 0;
        if (e.type !== 'streaming') continue;
        expect(e.offset).toBe(length);
        length += String(e.content).length;
      }
      expect(shown(events)).toBe(ANSWER.text);
    }
    expect(calls()).toBe(2);
  });

  it("carries the built-in engine's text through the same stream", async () => {
    const start = gate();
    localGate = start.wait;
    const id = await create('ＡＢＣ fabric ,100%polyester', 'local');
    const reader = openEvents(id);
    await reader.until((events) => events.some((e) => e.type === 'progress'));
    start.open();
    await reader.ended;
    const complete = reader.events.at(-1)!;
    expect(complete).toMatchObject({ type: 'complete', data: { status: 'completed', local_preview: true } });
    const text = (complete.data as { result: { text: string } }).result.text;
    expect(text).toContain('ABC fabric');
    expect(reader.events.some((e) => e.type === 'streaming')).toBe(true);
    expect(shown(reader.events)).toBe(text);
    expect(calls()).toBe(0);
  });

  it('replays a finished item at once: complete with its result, or error with the reason in the reader\'s language', async () => {
    localGate = Promise.resolve();
    const done = await create('Soft   cotton twill', 'local');
    const late = openEvents(done);
    await late.ended;
    expect(late.events).toEqual([{ type: 'complete', data: expect.objectContaining({ id: done, status: 'completed' }) }]);

    server.on('POST', STREAM_PATH, sseAnswer([{ promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'gemini-text-test-001' }], '\r\n\r\n'));
    const blocked = await create('blocked words', 'gemini');
    const watcher = openEvents(blocked);
    await watcher.ended;
    const error = watcher.events.at(-1)!;
    expect(error).toMatchObject({ type: 'error', code: 'safety', data: { id: blocked, status: 'error' } });
    expect(String(error.message)).toMatch(/safety filter/);
    expect(calls()).toBe(1);
  });
});
