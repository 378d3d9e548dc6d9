// The generation service with the real Gemini adapter against a local server speaking Gemini's
// documented protocol, for what providers do that the happy path never shows: one candidate
// blocked, a rate limit on one candidate that outlasts the adapter's patience, an analysis stream
// cut after its text began. Every provider call is counted at the double.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerationProviders } from '../../../server/modules/generation/engines/generation-providers.js';
import { createGeminiProvider } from '../../../server/providers/gemini/gemini-provider.js';
import { geminiChunk, geminiParts, geminiTextStream, rpcError, SAMPLE_ANALYSIS, SAMPLE_VIDEO_PROMPTS } from '../providers/gemini/gemini-fixtures.js';
import { pieces, pngImage, sendJson, sseAnswer, useProviderTestServer } from '../providers/provider-test-server.js';
import { createGenerationApp, type GenerationTestApp, type Part } from './helpers/generation-app.js';

const STREAM_PATH = '/v1beta/models/gemini-text-test:streamGenerateContent';
const IMAGE_PATH = '/v1beta/models/gemini-image-test:generateContent';

interface RequestView {
  status: string;
  analysis_text: string | null;
  images: { status: string; url: string | null; error: { code: string; message: string } | null }[];
  candidates: { made: number; refused: number; total: number; message: string | null };
}

const server = useProviderTestServer();
let t: GenerationTestApp;
let user: { id: number; token: string };
let generatedPng: Buffer;
let model: Buffer;
let pattern: Buffer;

beforeAll(async () => {
  // No waiting inside the adapter: what a rate limit leaves goes to the job runner at once.
  const gemini = createGeminiProvider({
    apiKey: 'test-gemini-key',
    baseUrl: server.url,
    textModel: 'gemini-text-test',
    imageModel: 'gemini-image-test',
    retry: { retries: 1, maxWaitMs: 100, fallbackWaitMs: 10 },
  });
  const slot = <T>(impl: T) => ({ impl, provider: 'gemini', localPreview: false });
  const providers: GenerationProviders = { analyser: slot(gemini.analyser), imageGenerator: slot(gemini.imageGenerator), promptWriter: slot(gemini.promptWriter) };
  t = await createGenerationApp('sqlite', providers);
  user = await t.user('GENERAL');
  generatedPng = await pngImage(64, 96, '#8e44ad');
  model = await pngImage(40, 60, '#dddddd');
  pattern = await pngImage(32, 32, '#c0392b');
});
afterAll(async () => {
  await t?.close();
});

const form = (requestId: string): Part[] => [
  { name: 'prompt', value: 'A summer dress from this fabric' },
  { name: 'request_id', value: requestId },
  { name: 'language', value: 'en-US' },
  { name: 'model_images', value: model, filename: 'model.png', contentType: 'image/png' },
  { name: 'pattern_images', value: pattern, filename: 'pattern.png', contentType: 'image/png' },
];

const imageAnswer = () => geminiParts([{ inlineData: { mimeType: 'image/png', data: generatedPng.toString('base64') } }]);

const analysisAnswer = sseAnswer(geminiTextStream(JSON.stringify(SAMPLE_ANALYSIS), 40), '\r\n\r\n');

const calls = (path: string) => server.requests.filter((r) => r.path === path).length;

/** The text a reader holds at the end: streamed pieces placed at their offsets, dropped at each reset. */
function shownText(events: Record<string, unknown>[]): { shown: string; streamedInAll: number; resets: number } {
  let shown = '';
  let streamedInAll = 0;
  let resets = 0;
  for (const e of events) {
    if (e.type === 'streaming_reset') {
      shown = '';
      resets += 1;
    } else if (e.type === 'streaming') {
      const content = String(e.content);
      streamedInAll += content.length;
      shown = shown.slice(0, Number(e.offset)) + content;
    }
  }
  return { shown, streamedInAll, resets };
}

describe('generation with the Gemini adapter as Gemini behaves', () => {
  it('keeps the five when one candidate is blocked: complete says 1 of 6 was blocked and why (7 calls)', async () => {
    server.on('POST', STREAM_PATH, analysisAnswer);
    let images = 0;
    server.on('POST', IMAGE_PATH, (_req, res) => {
      images += 1;
      sendJson(res, 200, images === 4 ? geminiParts([], 'IMAGE_SAFETY') : imageAnswer());
    });
    const { events } = await t.stream('/image-api/analyze-images-json-stream', { token: user.token, form: form('blocked-one') });
    const complete = events.find((e) => e.type === 'complete');
    expect(complete).toBeDefined();
    const view = complete!.data as RequestView;
    expect(view.status).toBe('completed');
    expect(view.candidates).toEqual({ made: 5, refused: 1, total: 6, message: "1 of 6 images not made: blocked by the AI service's safety filter" });
    expect(view.images.filter((i) => i.status === 'completed' && i.url)).toHaveLength(5);
    const blocked = view.images.find((i) => i.status === 'failed')!;
    expect(blocked.error).toMatchObject({ code: 'safety' });
    expect(blocked.error!.message).toMatch(/safety filter/);
    expect(events.filter((e) => e.stage === 'image_ready')).toHaveLength(5);
    expect(calls(STREAM_PATH)).toBe(1);
    expect(calls(IMAGE_PATH)).toBe(6);
  });

  it('asks again only for the candidates a rate limit left, in the job\'s next run (7 image calls for 6 images)', async () => {
    server.on('POST', STREAM_PATH, analysisAnswer);
    let images = 0;
    server.on('POST', IMAGE_PATH, (_req, res) => {
      images += 1;
      // The third call meets a per-minute limit whose RetryInfo outlasts the adapter's patience.
      if (images === 3) {
        sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.3s' }]));
      } else sendJson(res, 200, imageAnswer());
    });
    const { events } = await t.stream('/image-api/analyze-images-json-stream', { token: user.token, form: form('limited-one') });
    const view = events.find((e) => e.type === 'complete')!.data as RequestView;
    expect(view.candidates).toMatchObject({ made: 6, refused: 0, message: null });
    expect(events.some((e) => e.type === 'progress' && e.retry_in_ms !== undefined)).toBe(true);
    expect(calls(STREAM_PATH)).toBe(1);
    expect(calls(IMAGE_PATH)).toBe(7);
  });

  it('never shows the analysis twice when its stream is cut and asked again; the shown text is the saved one (2 analysis calls)', async () => {
    // Cut: the connection ends cleanly without a finishReason.
    server.on('POST', STREAM_PATH, sseAnswer(pieces(JSON.stringify(SAMPLE_ANALYSIS).slice(0, 160), 40).map((piece) => geminiChunk(piece)), '\r\n\r\n'), 1);
    server.on('POST', STREAM_PATH, analysisAnswer);
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer()));
    const { events } = await t.stream('/image-api/analyze-images-json-stream', { token: user.token, form: form('cut-stream') });
    const view = events.find((e) => e.type === 'complete')!.data as RequestView;
    const { shown, streamedInAll, resets } = shownText(events);
    expect(resets).toBe(1);
    expect(streamedInAll).toBeGreaterThan(view.analysis_text!.length);
    expect(shown).toBe(view.analysis_text);
    expect(calls(STREAM_PATH)).toBe(2);
    expect(calls(IMAGE_PATH)).toBe(6);
  });

  it('completes with the five made when one candidate stays rate limited past the job\'s patience, saying why', async () => {
    server.on('POST', STREAM_PATH, analysisAnswer);
    let images = 0;
    server.on('POST', IMAGE_PATH, (_req, res) => {
      images += 1;
      if (images <= 5) sendJson(res, 200, imageAnswer());
      else sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.4s' }]));
    });
    const { events } = await t.stream('/image-api/analyze-images-json-stream', { token: user.token, form: form('limited-for-good') });
    const view = events.find((e) => e.type === 'complete')!.data as RequestView;
    expect(view.status).toBe('completed');
    expect(view.candidates).toMatchObject({ made: 5, refused: 1 });
    expect(view.candidates.message).toMatch(/^1 of 6 images not made: the AI service stayed busy/);
  });

  it('streams the video prompts as they are written; a cut stream is dropped and asked again (2 prompt calls)', async () => {
    server.on('POST', STREAM_PATH, analysisAnswer);
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer()));
    const { events: analysed } = await t.stream('/image-api/analyze-images-json-stream', { token: user.token, form: form('prompts-source') });
    const image = (analysed.find((e) => e.type === 'complete')!.data as { images: { id: number }[] }).images[0]!;
    server.reset();
    const json = JSON.stringify(SAMPLE_VIDEO_PROMPTS);
    server.on('POST', STREAM_PATH, sseAnswer(pieces(json.slice(0, 150), 25).map((piece) => geminiChunk(piece)), '\r\n\r\n'), 1);
    server.on('POST', STREAM_PATH, sseAnswer(geminiTextStream(json, 25), '\r\n\r\n'));
    const { events } = await t.stream('/image-api/video-prompts-stream', { token: user.token, body: { image_ids: [image.id], language: 'en-US' } });
    let drafts: string[] = [];
    for (const e of events) {
      if (e.type === 'prompt_streaming_reset') drafts = [];
      if (e.type === 'prompt_streaming') {
        const index = Number(e.index);
        drafts[index] = (drafts[index] ?? '').slice(0, Number(e.offset)) + String(e.content);
      }
    }
    const saved = events.find((e) => e.type === 'prompts')!.prompts as { prompt: string }[];
    expect(events.filter((e) => e.type === 'prompt_streaming_reset')).toHaveLength(1);
    expect(drafts).toEqual(saved.map((p) => p.prompt));
    expect(calls(STREAM_PATH)).toBe(2);
  });
});
