// The OpenAI-compatible adapter's analysis against a local server speaking the chat completions
// wire format: `data: <chunk>` SSE events ending with `data: [DONE]`, response_format
// json_schema, error bodies with status and Retry-After, a mid-stream error, refusals.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalyseInput } from '../../../../server/providers/capabilities.js';
import { createOpenAiProvider } from '../../../../server/providers/openai-compatible/openai-provider.js';
import { openSse, pause, pieces, pngImage, sendJson, sseAnswer, textReader, useProviderTestServer, writeSse } from '../provider-test-server.js';
import { chatChunk, chatTextStream, expectProviderError, openAiError, SAMPLE_ANALYSIS, schemaKeys } from './openai-fixtures.js';

const CHAT_PATH = '/v1/chat/completions';

const server = useProviderTestServer();
let input: Omit<AnalyseInput, 'signal'>;

beforeAll(async () => {
  input = {
    prompt: 'A summer dress for the fair',
    fabric: { fabric_name: 'Rose voile', luster: 'soft' },
    modelImages: [{ data: await pngImage(400, 600), mimeType: 'image/png', role: 'model' }],
    patternImages: [{ data: await pngImage(200, 200, '#2ecc71'), mimeType: 'image/png', role: 'pattern' }],
    language: 'vi-VN',
  };
});

/** Retries as in production, waits short enough for tests. */
const TEST_RETRY = { retries: 2, maxWaitMs: 1_000, fallbackWaitMs: 10 };
const provider = () => createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${server.url}/v1`, textModel: 'test-chat-model', retry: TEST_RETRY });
const analyse = (onText: (chunk: string) => void = () => {}, signal = new AbortController().signal) =>
  provider().analyser.analyse({ ...input, signal }, onText);

const streamAnswer = (json: string) => sseAnswer(chatTextStream(json, 9));

describe('OpenAI-compatible analysis', () => {
  it('streams the prose while the JSON arrives and checks the whole against the schema', async () => {
    let resolveGate!: () => void;
    const firstText = new Promise<void>((resolve) => (resolveGate = resolve));
    let sawTextBeforeEnd = false;
    server.on('POST', CHAT_PATH, async (_req, res) => {
      openSse(res);
      const parts = pieces(JSON.stringify(SAMPLE_ANALYSIS), 9);
      const half = Math.floor(parts.length / 2);
      for (const piece of parts.slice(0, half)) writeSse(res, chatChunk({ content: piece }));
      await Promise.race([firstText.then(() => (sawTextBeforeEnd = true)), pause(3000)]);
      for (const piece of parts.slice(half)) writeSse(res, chatChunk({ content: piece }));
      writeSse(res, chatChunk({}, 'stop'));
      writeSse(res, '[DONE]');
      res.end();
    });
    const chunks: string[] = [];
    const result = await analyse((chunk) => {
      chunks.push(chunk);
      resolveGate();
    });
    expect(sawTextBeforeEnd).toBe(true);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(SAMPLE_ANALYSIS.analysis);
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    expect(result.model).toBe('test-chat-model-2025');
    expect(result.data.colors[0]).toEqual({ hex: '#c0392b', name: 'crimson', share: 0.55 });

    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-test');
    const body = request.json as {
      model: string;
      stream: boolean;
      response_format: { type: string; json_schema: { name: string; strict: boolean; schema: { properties: Record<string, unknown> } } };
      messages: { role: string; content: string | { type: string; text?: string; image_url?: { url: string } }[] }[];
    };
    expect(body.model).toBe('test-chat-model');
    expect(body.stream).toBe(true);
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(Object.keys(body.response_format.json_schema.schema.properties)[0]).toBe('analysis');
    // Strict mode refuses these keywords; they are checked on our side instead.
    expect(schemaKeys(body.response_format.json_schema.schema).has('minLength')).toBe(false);
    expect(body.messages[0]).toMatchObject({ role: 'system' });
    expect(String(body.messages[0]!.content)).toMatch(/Vietnamese/);
    const content = body.messages[1]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(content[0]!.text).toMatch(/Luster: soft/);
    const urls = content.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url);
    expect(urls).toHaveLength(2);
    expect(urls.every((u) => u.startsWith('data:image/png;base64,iVBOR'))).toBe(true);
  });

  it('maps a refusal and finish_reason content_filter to safety, length to bad_response', async () => {
    server.on('POST', CHAT_PATH, sseAnswer([chatChunk({ refusal: "I can't help with that." }), chatChunk({}, 'stop'), '[DONE]']), 1);
    await expectProviderError(analyse(), 'safety', /refused/);
    server.on('POST', CHAT_PATH, sseAnswer([chatChunk({ content: '{"analysis": "The' }, 'content_filter'), '[DONE]']), 1);
    await expectProviderError(analyse(), 'safety', /content filter/);
    server.on('POST', CHAT_PATH, sseAnswer([chatChunk({ content: '{"analysis": "The' }, 'length'), '[DONE]']), 1);
    await expectProviderError(analyse(), 'bad_response', /length limit/);
  });

  it('reports a mid-stream error event after the prose began, keeping what was streamed', async () => {
    server.on('POST', CHAT_PATH, sseAnswer([chatChunk({ content: '{"analysis": "The print' }), openAiError('The server is overloaded', 'server_error')]));
    const chunks: string[] = [];
    await expectProviderError(analyse((c) => chunks.push(c)), 'unavailable', /overloaded/);
    expect(chunks.join('')).toBe('The print');
    // maxRetries 0, and a caller that cannot take text back: the job runner retries, not the SDK.
    expect(server.requests).toHaveLength(1);
  });

  it('refuses garbage events and JSON of the wrong shape as bad_response', async () => {
    server.on('POST', CHAT_PATH, sseAnswer(['{"choices": [']), 1);
    await expectProviderError(analyse(), 'bad_response');
    server.on('POST', CHAT_PATH, streamAnswer(JSON.stringify({ analysis: 'prose', summary: 's' })), 1);
    await expectProviderError(analyse(), 'bad_response', /wrong shape/);
  });

  it('maps HTTP errors: 429 with Retry-After, insufficient_quota, 401, 500, 400', async () => {
    server.on('POST', CHAT_PATH, (_req, res) =>
      sendJson(res, 429, openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), { 'retry-after': '7' }), 1);
    const limited = await expectProviderError(analyse(), 'rate_limited', /Rate limit reached/);
    expect(limited.retryAfterMs).toBe(7000);
    expect(server.requests).toHaveLength(1);

    server.on('POST', CHAT_PATH, (_req, res) =>
      sendJson(res, 429, openAiError('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota')), 1);
    await expectProviderError(analyse(), 'quota');
    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 401, openAiError('Incorrect API key provided', 'invalid_request_error', 'invalid_api_key')), 1);
    await expectProviderError(analyse(), 'auth', /Incorrect API key/);
    // A 500 is asked again inside the adapter, twice, before the job runner hears of it.
    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 500, openAiError('The server had an error', 'server_error')), 3);
    await expectProviderError(analyse(), 'unavailable');
    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 400, openAiError("model 'llava' does not support images", 'invalid_request_error')), 1);
    await expectProviderError(analyse(), 'invalid_request', /does not support images/);
    expect(server.requests).toHaveLength(7);
  });

  it('reports the caller cancelling mid-stream as cancelled', async () => {
    server.on('POST', CHAT_PATH, async (_req, res) => {
      openSse(res);
      writeSse(res, chatChunk({ content: '{"analysis": "The print' }));
      await pause(2000);
      res.end();
    });
    const controller = new AbortController();
    await expectProviderError(analyse(() => controller.abort(), controller.signal), 'cancelled');
  });
});

describe('OpenAI-compatible analysis: cut streams and rate-limit hints', () => {
  it('asks again when the stream ends without a finish reason or [DONE], telling the reader to drop what it showed', async () => {
    // A clean end: no finish_reason, no data: [DONE].
    server.on('POST', CHAT_PATH, sseAnswer([chatChunk({ content: '{"analysis": "The print is half' })]), 1);
    server.on('POST', CHAT_PATH, streamAnswer(JSON.stringify(SAMPLE_ANALYSIS)));
    const reader = textReader();
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, reader.show, reader.restart);
    expect(reader.restarts).toBe(1);
    // What the reader holds after the reset is the saved text, once.
    expect(reader.shown).toBe(SAMPLE_ANALYSIS.analysis);
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    expect(server.requests).toHaveLength(2);
  });

  it('asks again after an in-stream error event, once the reader can drop the text', async () => {
    server.on('POST', CHAT_PATH, sseAnswer([chatChunk({ content: '{"analysis": "The print' }), openAiError('The server is overloaded', 'server_error')]), 1);
    server.on('POST', CHAT_PATH, streamAnswer(JSON.stringify(SAMPLE_ANALYSIS)));
    const reader = textReader();
    const result = await provider().analyser.analyse({ ...input, signal: new AbortController().signal }, reader.show, reader.restart);
    expect(reader.shown).toBe(result.text);
    expect(server.requests).toHaveLength(2);
  });

  it('waits for the longest rate-limit hint: x-ratelimit-reset-requests over a shorter retry-after', async () => {
    const sentAt: number[] = [];
    server.on('POST', CHAT_PATH, (_req, res) => {
      sentAt.push(Date.now());
      sendJson(res, 429, openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), {
        'retry-after': '0',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '300ms',
        // Tokens left: their reset is not what stopped the request.
        'x-ratelimit-remaining-tokens': '150000',
        'x-ratelimit-reset-tokens': '6m0s',
      });
    }, 1);
    server.on('POST', CHAT_PATH, (req, res) => {
      sentAt.push(Date.now());
      streamAnswer(JSON.stringify(SAMPLE_ANALYSIS))(req, res);
    });
    const result = await analyse();
    expect(result.text).toBe(SAMPLE_ANALYSIS.analysis);
    expect(server.requests).toHaveLength(2);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(290);
  });

  it('leaves a reset hint longer than its patience to the job runner, with that delay', async () => {
    server.on('POST', CHAT_PATH, (_req, res) =>
      sendJson(res, 429, openAiError('Rate limit reached for tokens', 'tokens', 'rate_limit_exceeded'), {
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '1s',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '20s',
      }),
    );
    const error = await expectProviderError(analyse(), 'rate_limited');
    expect(error.retryAfterMs).toBe(20_000);
    // No guessing at 1, 2, 4 s against a 20 s reset: one call, the wait goes to the job runner.
    expect(server.requests).toHaveLength(1);
  });
});
