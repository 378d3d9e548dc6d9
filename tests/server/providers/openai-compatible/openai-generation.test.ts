// The OpenAI-compatible adapter's images (images/edits multipart and images/generations →
// b64_json), video prompts and workshop against a local server speaking OpenAI's wire format.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InputImage } from '../../../../server/providers/capabilities.js';
import { createOpenAiProvider } from '../../../../server/providers/openai-compatible/openai-provider.js';
import { draftsReader, pieces, pngImage, type RecordedRequest, sendJson, sendText, sseAnswer, textReader, useProviderTestServer } from '../provider-test-server.js';
import { chatChunk, chatCompletion, chatTextStream, expectProviderError, openAiError, SAMPLE_ENHANCED_TEXT, SAMPLE_VIDEO_PROMPTS } from './openai-fixtures.js';

const server = useProviderTestServer();
let modelImage: InputImage;
let patternImage: InputImage;
let generatedPng: Buffer;

beforeAll(async () => {
  modelImage = { data: await pngImage(400, 600), mimeType: 'image/png', role: 'model' };
  patternImage = { data: await pngImage(256, 256, '#2ecc71'), mimeType: 'image/png', role: 'pattern' };
  generatedPng = await pngImage(256, 384, '#8e44ad');
});

/** Retries as in production, waits short enough for tests. */
const TEST_RETRY = { retries: 2, maxWaitMs: 1_000, fallbackWaitMs: 10 };
const provider = (imageModel: string | undefined = 'gpt-image-test') =>
  createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${server.url}/v1`, textModel: 'test-chat-model', imageModel, retry: TEST_RETRY });

const imagesAnswer = (png: Buffer) => ({ created: 1_750_000_000, data: [{ b64_json: png.toString('base64') }] });

async function formOf(request: RecordedRequest): Promise<FormData> {
  return new Response(new Uint8Array(request.body), { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
}

describe('OpenAI-compatible images', () => {
  it('sends the sources to images/edits as multipart files and reads b64_json, one request per candidate', async () => {
    server.on('POST', '/v1/images/edits', (_req, res) => sendJson(res, 200, imagesAnswer(generatedPng)));
    const ready: number[] = [];
    const result = await provider().imageGenerator!.generateImages(
      { prompt: 'A summer dress', sources: [modelImage, patternImage], count: 2, aspect: 'vertical', language: 'th-TH', signal: new AbortController().signal },
      (_image, index) => ready.push(index),
    );
    expect(result.model).toBe('gpt-image-test');
    expect(result.images).toHaveLength(2);
    expect(result.images[0]).toMatchObject({ mimeType: 'image/png', width: 256, height: 384, label: 'เต็มตัว ด้านหน้า' });
    expect(ready.sort()).toEqual([0, 1]);

    expect(server.requests).toHaveLength(2);
    const request = server.requests[0]!;
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(String(request.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(request);
    expect(form.get('model')).toBe('gpt-image-test');
    expect(form.get('size')).toBe('1024x1536');
    expect(form.get('n')).toBe('1');
    expect(String(form.get('prompt'))).toMatch(/A summer dress/);
    expect(form.get('response_format')).toBeNull();
    const files = [...form.getAll('image'), ...form.getAll('image[]')] as File[];
    expect(files).toHaveLength(2);
    expect(files[0]!.type).toBe('image/png');
    expect(Buffer.from(await files[0]!.arrayBuffer()).equals(modelImage.data)).toBe(true);
    // gpt-image-test is no model known to take input_fidelity.
    expect(form.get('input_fidelity')).toBeNull();
  });

  it('uses images/generations without sources, and follows a URL answer', async () => {
    server.on('GET', '/files/picture.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(generatedPng);
    });
    server.on('POST', '/v1/images/generations', (_req, res) => sendJson(res, 200, { created: 1, data: [{ url: `${server.url}/files/picture.png` }] }));
    const result = await provider().imageGenerator!.generateImages(
      { prompt: 'A flat lay of the fabric', sources: [], count: 1, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    expect(result.images[0]!.data.equals(generatedPng)).toBe(true);
    const body = server.requests[0]!.json as { model: string; size: string; n: number };
    expect(body).toMatchObject({ model: 'gpt-image-test', size: '1024x1024', n: 1 });
  });

  it('maps moderation_blocked to safety, an answer without an image or with garbage to bad_response, for that candidate', async () => {
    const run = async () => {
      const result = await provider().imageGenerator!.generateImages(
        { prompt: 'p', sources: [], count: 1, aspect: 'auto', language: 'en-US', signal: new AbortController().signal },
        () => {},
      );
      return Promise.reject(result.failures?.[0]?.error ?? new Error('no failure'));
    };
    server.on('POST', '/v1/images/generations', (_req, res) =>
      sendJson(res, 400, openAiError('Your request was rejected by the safety system.', 'image_generation_user_error', 'moderation_blocked')), 1);
    await expectProviderError(run(), 'safety', /safety system/);
    server.on('POST', '/v1/images/generations', (_req, res) => sendJson(res, 200, { created: 1, data: [] }), 1);
    await expectProviderError(run(), 'bad_response', /without an image/);
    server.on('POST', '/v1/images/generations', (_req, res) => sendJson(res, 200, { created: 1, data: [{ b64_json: 'bm90IGFuIGltYWdl' }] }), 1);
    await expectProviderError(run(), 'bad_response', /cannot be read/);
    expect((server.requests[0]!.json as { size: string }).size).toBe('auto');
  });

  it('keeps the other five when one candidate is moderation_blocked: six calls for six candidates', async () => {
    let calls = 0;
    server.on('POST', '/v1/images/edits', (_req, res) => {
      calls += 1;
      if (calls === 2) sendJson(res, 400, openAiError('Your request was rejected by the safety system.', 'image_generation_user_error', 'moderation_blocked'));
      else sendJson(res, 200, imagesAnswer(generatedPng));
    });
    const ready: number[] = [];
    const result = await provider().imageGenerator!.generateImages(
      { prompt: 'p', sources: [modelImage], count: 6, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      (_image, index) => ready.push(index),
    );
    expect(ready).toHaveLength(5);
    expect(result.failures!.map((f) => f.error.kind)).toEqual(['safety']);
    expect(server.requests).toHaveLength(6);
  });

  it('retries only the candidate that met a 429, after the longest rate-limit hint: seven calls for six images', async () => {
    let calls = 0;
    const sentAt: number[] = [];
    server.on('POST', '/v1/images/edits', (_req, res) => {
      calls += 1;
      sentAt.push(Date.now());
      if (calls === 3) {
        sendJson(res, 429, openAiError('Rate limit reached for images per minute', 'requests', 'rate_limit_exceeded'), {
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': '250ms',
          'retry-after-ms': '40',
        });
      } else sendJson(res, 200, imagesAnswer(generatedPng));
    });
    const ready: number[] = [];
    const result = await provider().imageGenerator!.generateImages(
      { prompt: 'p', sources: [modelImage, patternImage], count: 6, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      (_image, index) => ready.push(index),
    );
    expect(ready.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(result.failures).toEqual([]);
    expect(server.requests).toHaveLength(7);
    // The retry waited for the 250 ms reset, not the 40 ms retry-after-ms.
    expect(Math.max(...sentAt.slice(3).map((t) => t - sentAt[2]!))).toBeGreaterThanOrEqual(240);
  });

  it('sends input_fidelity high to a GPT image model that takes it, and at most three inputs: first model image, then the patterns', async () => {
    server.on('POST', '/v1/images/edits', (_req, res) => sendJson(res, 200, imagesAnswer(generatedPng)));
    const sized = async (width: number, role: 'model' | 'pattern'): Promise<InputImage> => ({ data: await pngImage(width, 300), mimeType: 'image/png', role });
    const sources = [await sized(301, 'model'), await sized(302, 'model'), await sized(303, 'pattern'), await sized(304, 'pattern'), await sized(305, 'pattern')];
    await provider('gpt-image-1.5').imageGenerator!.generateImages(
      { prompt: 'p', sources, count: 1, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    const form = await formOf(server.requests[0]!);
    expect(form.get('input_fidelity')).toBe('high');
    const files = [...form.getAll('image'), ...form.getAll('image[]')] as File[];
    const widths = await Promise.all(files.map(async (f) => (await sharp(Buffer.from(await f.arrayBuffer())).metadata()).width));
    expect(widths).toEqual([301, 303, 304]);

    server.reset();
    server.on('POST', '/v1/images/edits', (_req, res) => sendJson(res, 200, imagesAnswer(generatedPng)));
    await provider('gpt-image-1-mini').imageGenerator!.generateImages(
      { prompt: 'p', sources, count: 1, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    // The mini model takes only 'low', its default: not sent.
    expect((await formOf(server.requests[0]!)).get('input_fidelity')).toBeNull();
  });

  it('gives dall-e-2 its one square PNG under 4 MB', async () => {
    server.on('POST', '/v1/images/edits', (_req, res) => sendJson(res, 200, imagesAnswer(generatedPng)));
    await provider('dall-e-2').imageGenerator!.generateImages(
      { prompt: 'p', sources: [modelImage, patternImage], count: 1, aspect: 'vertical', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    const form = await formOf(server.requests[0]!);
    const files = [...form.getAll('image'), ...form.getAll('image[]')] as File[];
    expect(files).toHaveLength(1);
    const data = Buffer.from(await files[0]!.arrayBuffer());
    expect(data.length).toBeLessThan(4_000_000);
    expect(await sharp(data).metadata()).toMatchObject({ format: 'png', width: 1024, height: 1024 });
    expect(form.get('size')).toBe('1024x1024');
    expect(form.get('input_fidelity')).toBeNull();
  });

  it('offers no image generator without an image model', () => {
    expect(provider('').imageGenerator).toBeUndefined();
  });
});

describe('OpenAI-compatible video prompts', () => {
  it('asks with json_schema and the image as a data URL, and reads exactly `count` options', async () => {
    server.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 200, chatCompletion(JSON.stringify(SAMPLE_VIDEO_PROMPTS))));
    const result = await provider().promptWriter.writeVideoPrompts({
      image: modelImage,
      fabric: { fabric_name: 'Rose voile' },
      userPrompt: 'graceful',
      count: 2,
      language: 'id-ID',
      signal: new AbortController().signal,
    });
    expect(result.prompts).toHaveLength(2);
    expect(result.prompts[0]!.camera).toEqual(['Push in']);
    const body = server.requests[0]!.json as {
      stream?: boolean;
      response_format: { json_schema: { name: string; schema: { properties: { prompts: { minItems: number; maxItems: number } } } } };
      messages: { content: string | { type: string; image_url?: { url: string } }[] }[];
    };
    expect(body.stream).toBeUndefined();
    expect(body.response_format.json_schema.name).toBe('video_prompts');
    expect(body.response_format.json_schema.schema.properties.prompts).toMatchObject({ minItems: 2, maxItems: 2 });
    expect(String(body.messages[0]!.content)).toMatch(/Indonesian/);
    const parts = body.messages[1]!.content as { type: string; image_url?: { url: string } }[];
    expect(parts.some((p) => p.image_url?.url.startsWith('data:image/png;base64,'))).toBe(true);
  });

  it('refuses an HTML page or JSON in a code fence of the wrong shape as bad_response', async () => {
    const run = () =>
      provider().promptWriter.writeVideoPrompts({ image: modelImage, fabric: {}, userPrompt: '', count: 3, language: 'en-US', signal: new AbortController().signal });
    server.on('POST', '/v1/chat/completions', (_req, res) => sendText(res, 200, '<html><body>Gateway says hi</body></html>'), 1);
    await expectProviderError(run(), 'bad_response');
    server.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 200, chatCompletion('```json\n{"prompts": []}\n```')), 1);
    await expectProviderError(run(), 'bad_response', /prompts/);
  });
});

describe('OpenAI-compatible workshop', () => {
  it('enhances text with the model\'s confidence and images through images/edits', async () => {
    server.on('POST', '/v1/chat/completions', (_req, res) => sendJson(res, 200, chatCompletion(JSON.stringify(SAMPLE_ENHANCED_TEXT))));
    server.on('POST', '/v1/images/edits', (_req, res) => sendJson(res, 200, imagesAnswer(generatedPng)));
    const result = await provider().enhancer.enhance({
      type: 'mixed',
      text: 'rose voile, light',
      images: [patternImage],
      creativity: 0,
      precision: 1,
      style: 'natural',
      language: 'en-US',
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ text: SAMPLE_ENHANCED_TEXT.text, confidence: 0.82, model: 'test-chat-model-2025 + gpt-image-test' });
    expect(result.images).toHaveLength(1);
    const chat = server.requests.find((r) => r.path === '/v1/chat/completions')!.json as { temperature: number };
    expect(chat.temperature).toBeCloseTo(0.2);
    const form = await formOf(server.requests.find((r) => r.path === '/v1/images/edits')!);
    expect(form.get('size')).toBe('auto');
  });

  it('refuses image items when the endpoint has no image model', async () => {
    await expectProviderError(
      provider('').enhancer.enhance({ type: 'image', images: [patternImage], creativity: 0, precision: 0, style: 'natural', language: 'en-US', signal: new AbortController().signal }),
      'invalid_request',
      /OPENAI_IMAGE_MODEL/,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('OpenAI-compatible video prompts, streamed', () => {
  it('streams each option\'s prompt text as it is written, and asks again after a cut, dropping what it showed', async () => {
    const json = JSON.stringify(SAMPLE_VIDEO_PROMPTS);
    server.on('POST', '/v1/chat/completions', sseAnswer(pieces(json.slice(0, 120), 11).map((piece) => chatChunk({ content: piece }))), 1);
    server.on('POST', '/v1/chat/completions', sseAnswer(chatTextStream(json, 11)));
    const reader = draftsReader();
    const result = await provider().promptWriter.writeVideoPrompts(
      { image: modelImage, fabric: {}, userPrompt: 'graceful', count: 3, language: 'en-US', signal: new AbortController().signal },
      reader.show,
      reader.restart,
    );
    expect(reader.restarts).toBe(1);
    expect(reader.drafts).toEqual(result.prompts.map((p) => p.prompt));
    expect(server.requests).toHaveLength(2);
    expect((server.requests[1]!.json as { stream?: boolean }).stream).toBe(true);
  });
});

describe('OpenAI-compatible workshop text, streamed', () => {
  const input = () => ({
    type: 'text' as const,
    text: 'rose voile, light',
    images: [],
    creativity: 0.5,
    precision: 0.5,
    style: 'natural' as const,
    language: 'en-US' as const,
    signal: new AbortController().signal,
  });
  const json = JSON.stringify(SAMPLE_ENHANCED_TEXT);

  it('streams the text as it is written (stream: true), exactly the result\'s text (1 call)', async () => {
    server.on('POST', '/v1/chat/completions', sseAnswer(chatTextStream(json, 9)));
    const chunks: string[] = [];
    const result = await provider().enhancer.enhance(input(), (chunk) => chunks.push(chunk));
    expect(result).toMatchObject({ text: SAMPLE_ENHANCED_TEXT.text, confidence: 0.82, model: 'test-chat-model-2025' });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(SAMPLE_ENHANCED_TEXT.text);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.json).toMatchObject({ stream: true, response_format: { type: 'json_schema' } });
  });

  it('asks again when the stream ends without a finish reason or [DONE], the reader dropping what it showed (2 calls)', async () => {
    server.on('POST', '/v1/chat/completions', sseAnswer(pieces(json.slice(0, 50), 9).map((piece) => chatChunk({ content: piece }))), 1);
    server.on('POST', '/v1/chat/completions', sseAnswer(chatTextStream(json, 9)));
    const reader = textReader();
    const result = await provider().enhancer.enhance(input(), reader.show, reader.restart);
    expect(reader.restarts).toBe(1);
    expect(reader.shown).toBe(result.text);
    expect(reader.longest).toBe(SAMPLE_ENHANCED_TEXT.text);
    expect(server.requests).toHaveLength(2);
  });

  it('asks again after an in-stream error event once text was shown (2 calls)', async () => {
    server.on('POST', '/v1/chat/completions', sseAnswer([...pieces(json.slice(0, 40), 9).map((piece) => chatChunk({ content: piece })), openAiError('The server had an error while processing your request.', 'server_error')]), 1);
    server.on('POST', '/v1/chat/completions', sseAnswer(chatTextStream(json, 9)));
    const reader = textReader();
    const result = await provider().enhancer.enhance(input(), reader.show, reader.restart);
    expect(reader.restarts).toBe(1);
    expect(reader.shown).toBe(result.text);
    expect(server.requests).toHaveLength(2);
  });
});
