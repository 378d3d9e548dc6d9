// The Gemini adapter's analysis against a local server speaking Gemini's wire format:
// POST /v1beta/models/{model}:streamGenerateContent?alt=sse answered with `data: <GenerateContentResponse>`
// events (no [DONE]), error bodies in google.rpc.Status form, RetryInfo delays, safety blocks.
import { beforeAll, describe, expect, it } from 'vitest';
import { ProviderError, type AnalyseInput } from '../../../../server/providers/capabilities.js';
import { createGeminiProvider } from '../../../../server/providers/gemini/gemini-provider.js';
import { gifImage, openSse, pause, pieces, pngImage, sendJson, sseAnswer, textReader, unreachableUrl, useProviderTestServer, writeSse } from '../provider-test-server.js';
import { expectProviderError, GEMINI_REQUEST_LIMIT, geminiChunk, geminiTextStream, largeScanPng, rpcError, SAMPLE_ANALYSIS, TEST_RETRY, withRequestLimit } from './gemini-fixtures.js';

const STREAM_PATH = '/v1beta/models/gemini-text-test:streamGenerateContent';

const server = useProviderTestServer();
let input: Omit<AnalyseInput, 'signal'>;

beforeAll(async () => {
  input = {
    prompt: 'A summer dress for the fair',
    fabric: { fabric_name: 'Rose voile', composition: '100% cotton', weight: '80', drape: 'strong' },
    description: 'light and airy',
    modelImages: [{ data: await pngImage(400, 600), mimeType: 'image/png', role: 'model', width: 400, height: 600 }],
    patternImages: [{ data: await gifImage(300, 300), mimeType: 'image/gif', role: 'pattern' }],
    language: 'en-US',
  };
});

const provider = () =>
  createGeminiProvider({ apiKey: 'test-gemini-key', baseUrl: server.url, textModel: 'gemini-text-test', imageModel: 'gemini-image-test', retry: TEST_RETRY });

/** The answer's JSON with the prose's é and 🌸 written as \u escapes, so the pieces cut escapes in half. */
function escapedAnswerJson(): string {
  return JSON.stringify(SAMPLE_ANALYSIS).replace('é', '\\u00e9').replace('🌸', '\\ud83c\\udf38');
}

describe('Gemini analysis', () => {
  it('streams the prose piece by piece while the JSON arrives, then returns the checked AnalysisData', async () => {
    let resolveGate!: () => void;
    const firstTextSeen = new Promise<void>((resolve) => (resolveGate = resolve));
    let sawTextBeforeEnd = false;
    server.on('POST', STREAM_PATH, async (_req, res) => {
      openSse(res);
      const parts = pieces(escapedAnswerJson(), 7);
      const half = Math.floor(parts.length / 2);
      for (const piece of parts.slice(0, half)) writeSse(res, geminiChunk(piece), '\r\n\r\n');
      // Hold the rest back until the adapter has handed text to the caller: proof that it streams.
      await Promise.race([firstTextSeen.then(() => (sawTextBeforeEnd = true)), pause(3000)]);
      parts.slice(half).forEach((piece, i) => writeSse(res, geminiChunk(piece, i === parts.length - half - 1 ? 'STOP' : undefined), '\r\n\r\n'));
      res.end();
    });
    const chunks: string[] = [];
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, (chunk) => {
      chunks.push(chunk);
      resolveGate();
    });

    expect(sawTextBeforeEnd).toBe(true);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(SAMPLE_ANALYSIS.analysis);
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    expect(result.model).toBe('gemini-text-test-001');
    expect(result.data.summary).toBe(SAMPLE_ANALYSIS.summary);
    // Largest share first, hex in lower case.
    expect(result.data.colors.map((c) => c.hex)).toEqual(['#c0392b', '#f4e9d8']);
    expect(result.data.pattern.kind).toBe('floral');
    expect(result.data.image_prompt).toBe(SAMPLE_ANALYSIS.image_prompt);

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.query.get('alt')).toBe('sse');
    expect(request.headers['x-goog-api-key']).toBe('test-gemini-key');
    const body = request.json as {
      contents: { role: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
      systemInstruction: { parts: { text: string }[] };
      generationConfig: { responseMimeType: string; responseSchema: { type: string; propertyOrdering: string[]; properties: Record<string, { type: string }> } };
    };
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(body.generationConfig.responseSchema.type).toBe('OBJECT');
    expect(body.generationConfig.responseSchema.propertyOrdering[0]).toBe('analysis');
    expect(body.generationConfig.responseSchema.properties.colors!.type).toBe('ARRAY');
    expect(body.systemInstruction.parts[0]!.text).toMatch(/English/);
    const parts = body.contents[0]!.parts;
    expect(parts[0]!.text).toMatch(/A summer dress for the fair/);
    expect(parts[0]!.text).toMatch(/Composition: 100% cotton/);
    const images = parts.filter((p) => p.inlineData);
    expect(images).toHaveLength(2);
    expect(images[0]!.inlineData!.mimeType).toBe('image/png');
    // GIF is not among Gemini's inline image types: re-encoded.
    expect(images[1]!.inlineData!.mimeType).not.toBe('image/gif');
    expect(Buffer.from(images[0]!.inlineData!.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });

  it('hands over the whole prose at the end when the model writes another field first', async () => {
    const { analysis, ...rest } = SAMPLE_ANALYSIS;
    server.on('POST', STREAM_PATH, sseAnswer(geminiTextStream(JSON.stringify({ ...rest, analysis }), 40)));
    const chunks: string[] = [];
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, (c) => chunks.push(c));
    expect(chunks).toEqual([analysis]);
    expect(result.text).toBe(analysis);
  });

  it('refuses JSON in the wrong shape as bad_response', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk(JSON.stringify({ analysis: 'fine prose', colors: 'red' }), 'STOP')]));
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'bad_response', /wrong shape/);
  });

  it('refuses a garbage event as bad_response', async () => {
    server.on('POST', STREAM_PATH, sseAnswer(['<html>proxy error</html>']));
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'bad_response');
  });

  it('treats a stream that ends cleanly without a finishReason as cut: asked again, the shown text reset first', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{"analysis": "The print is a half')], '\r\n\r\n'), 1);
    server.on('POST', STREAM_PATH, sseAnswer(geminiTextStream(escapedAnswerJson(), 11), '\r\n\r\n'));
    const reader = textReader();
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, reader.show, reader.restart);
    expect(reader.restarts).toBe(1);
    expect(reader.shown).toBe(SAMPLE_ANALYSIS.analysis);
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    // The cut text was streamed too, but the reset took it back before the whole came.
    expect(reader.streamedInAll).toBe('The print is a half'.length + SAMPLE_ANALYSIS.analysis.length);
    expect(server.requests).toHaveLength(2);
  });

  it('gives a persistently cut stream to the job runner as unavailable (retryable)', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{"analysis": "half of it')]));
    const error = await expectProviderError(
      provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}, () => {}),
      'unavailable',
      /before it was complete/,
    );
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(TEST_RETRY.retries + 1);
  });

  it('asks again after a 503 inside the stream once prose was shown, when the reader can drop it', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{"analysis": "The print is'), rpcError(503, 'UNAVAILABLE', 'The model is overloaded.')]), 1);
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk(JSON.stringify(SAMPLE_ANALYSIS), 'STOP')]));
    const reader = textReader();
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, reader.show, reader.restart);
    expect(reader.shown).toBe(result.text);
    expect(server.requests).toHaveLength(2);
  });

  it('maps promptFeedback.blockReason and finishReason SAFETY to safety, MAX_TOKENS to bad_response', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([{ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, modelVersion: 'x' }]), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'safety', /PROHIBITED_CONTENT/);

    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{"analysis": "The', 'SAFETY')]), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'safety', /SAFETY/);

    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{"analysis": "The', 'MAX_TOKENS')]), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'bad_response', /length limit/);
  });

  it('retries a 429 after the RetryInfo delay, then succeeds', async () => {
    const sentAt: number[] = [];
    server.on('POST', STREAM_PATH, (_req, res) => {
      sentAt.push(Date.now());
      sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.2s' }]));
    }, 1);
    server.on('POST', STREAM_PATH, (_req, res) => {
      sentAt.push(Date.now());
      openSse(res);
      writeSse(res, geminiChunk(JSON.stringify(SAMPLE_ANALYSIS), 'STOP'));
      res.end();
    });
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {});
    expect(result.data.summary).toBe(SAMPLE_ANALYSIS.summary);
    expect(server.requests).toHaveLength(2);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(190);
  });

  it('leaves a long RetryInfo delay to the job runner: rate_limited with retryAfterMs, no retry here', async () => {
    server.on('POST', STREAM_PATH, (_req, res) =>
      sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerMinutePerProjectPerModel' }] },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34s' },
      ])),
    );
    const error = await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'rate_limited');
    expect(error.retryAfterMs).toBe(34_000);
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on a persistent 503 after the bounded retries, as unavailable', async () => {
    server.on('POST', STREAM_PATH, (_req, res) => sendJson(res, 503, rpcError(503, 'UNAVAILABLE', 'The model is overloaded.')));
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'unavailable', /overloaded/);
    expect(server.requests).toHaveLength(TEST_RETRY.retries + 1);
  });

  it('maps a daily quota to quota, a bad key to auth, a bad request to invalid_request', async () => {
    server.on('POST', STREAM_PATH, (_req, res) =>
      sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Daily quota', [
        { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] },
      ])), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'quota');

    server.on('POST', STREAM_PATH, (_req, res) =>
      sendJson(res, 400, rpcError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ])), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'auth', /API key not valid/);

    server.on('POST', STREAM_PATH, (_req, res) => sendJson(res, 403, rpcError(403, 'PERMISSION_DENIED', 'Permission denied')), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'auth');

    server.on('POST', STREAM_PATH, (_req, res) => sendJson(res, 400, rpcError(400, 'INVALID_ARGUMENT', 'Unable to process input image.')), 1);
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}), 'invalid_request');
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry a mid-stream error once prose has been streamed', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{"analysis": "The print is'), rpcError(503, 'UNAVAILABLE', 'The model is overloaded.')]));
    const chunks: string[] = [];
    await expectProviderError(provider().analyser.analyse({ ...input, signal: new AbortController().signal }, (c) => chunks.push(c)), 'unavailable');
    expect(chunks.join('')).toBe('The print is');
    expect(server.requests).toHaveLength(1);
  });

  it('retries a mid-stream error that came before any prose', async () => {
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk('{'), rpcError(503, 'UNAVAILABLE', 'The model is overloaded.')]), 1);
    server.on('POST', STREAM_PATH, sseAnswer([geminiChunk(JSON.stringify(SAMPLE_ANALYSIS), 'STOP')]));
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, () => {});
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    expect(server.requests).toHaveLength(2);
  });

  it('reports the caller cancelling mid-stream as cancelled', async () => {
    server.on('POST', STREAM_PATH, async (_req, res) => {
      openSse(res);
      writeSse(res, geminiChunk('{"analysis": "The print'));
      await pause(2000);
      res.end();
    });
    const controller = new AbortController();
    const running = provider().analyser.analyse({ ...input, signal: controller.signal }, () => controller.abort());
    await expectProviderError(running, 'cancelled');
  });

  it('reports an unreachable server as unavailable', async () => {
    const adapter = createGeminiProvider({ apiKey: 'k', baseUrl: await unreachableUrl(), textModel: 'm', imageModel: 'i', retry: { ...TEST_RETRY, retries: 0 } });
    const error = await adapter.analyser.analyse({ ...input, signal: new AbortController().signal }, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('unavailable');
  });
});

describe('Gemini analysis within the 20 MB request limit', () => {
  it('fits three 9 MB PNG fabric scans into one request under 20 MB (the double refuses larger ones as Gemini does)', async () => {
    const scans = await Promise.all(['#7f7f7f', '#807060', '#606080'].map((colour) => largeScanPng(colour)));
    expect(scans.reduce((sum, scan) => sum + scan.length, 0)).toBeGreaterThan(25_000_000);
    server.on(
      'POST',
      STREAM_PATH,
      withRequestLimit((_req, res) => {
        openSse(res);
        writeSse(res, geminiChunk(JSON.stringify(SAMPLE_ANALYSIS), 'STOP'));
        res.end();
      }),
    );
    const result = await provider().analyser.analyse(
      {
        ...input,
        modelImages: [],
        patternImages: scans.map((data) => ({ data, mimeType: 'image/png', role: 'pattern' as const, width: 2048, height: 1400 })),
        signal: new AbortController().signal,
      },
      () => {},
    );
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.body.length).toBeLessThan(GEMINI_REQUEST_LIMIT);
    const parts = (request.json as { contents: { parts: { inlineData?: { mimeType: string } }[] }[] }).contents[0]!.parts.filter((p) => p.inlineData);
    // All three still go, as JPEGs at the size the model reads.
    expect(parts.map((p) => p.inlineData!.mimeType)).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg']);
  });
});
