// The Gemini adapter's image model ("Gemini-Banana"), video prompts and workshop against a local
// server speaking :generateContent: inline image parts in and out, imageConfig.aspectRatio,
// responseSchema JSON, IMAGE_SAFETY / NO_IMAGE refusals, garbage image data.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedImage, InputImage } from '../../../../server/providers/capabilities.js';
import { createGeminiProvider } from '../../../../server/providers/gemini/gemini-provider.js';
import { draftsReader, openSse, pieces, pngImage, type RecordedRequest, sendJson, sseAnswer, textReader, useProviderTestServer, writeSse } from '../provider-test-server.js';
import { expectProviderError, GEMINI_REQUEST_LIMIT, geminiChunk, geminiParts, geminiTextStream, largeScanPng, rpcError, SAMPLE_ENHANCED_TEXT, SAMPLE_VIDEO_PROMPTS, TEST_RETRY, withRequestLimit } from './gemini-fixtures.js';

const IMAGE_PATH = '/v1beta/models/gemini-image-test:generateContent';
const TEXT_PATH = '/v1beta/models/gemini-text-test:generateContent';

const server = useProviderTestServer();
let modelImage: InputImage;
let patternImage: InputImage;
let generatedPng: Buffer;

beforeAll(async () => {
  modelImage = { data: await pngImage(400, 600), mimeType: 'image/png', role: 'model', width: 400, height: 600 };
  patternImage = { data: await pngImage(256, 256, '#2ecc71'), mimeType: 'image/png', role: 'pattern', width: 256, height: 256 };
  generatedPng = await pngImage(288, 512, '#8e44ad');
});

const provider = () =>
  createGeminiProvider({ apiKey: 'test-gemini-key', baseUrl: server.url, textModel: 'gemini-text-test', imageModel: 'gemini-image-test', retry: TEST_RETRY });

interface GenerateBody {
  contents: { parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
  generationConfig: {
    responseModalities?: string[];
    imageConfig?: { aspectRatio?: string };
    responseMimeType?: string;
    responseSchema?: { properties: Record<string, { minItems?: string | number; maxItems?: string | number; items?: unknown }> };
    temperature?: number;
  };
}
const bodyOf = (request: RecordedRequest) => request.json as GenerateBody;

const imageAnswer = (png: Buffer) => geminiParts([{ text: 'Here is the picture.' }, { inlineData: { mimeType: 'image/png', data: png.toString('base64') } }]);

describe('Gemini image model', () => {
  it('makes one request per candidate with the sources inline and the aspect ratio, handing each image over as it is ready', async () => {
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)));
    const ready: { index: number; image: GeneratedImage }[] = [];
    const result = await provider().imageGenerator.generateImages(
      { prompt: 'A summer dress', sources: [modelImage, patternImage], count: 3, aspect: 'vertical', language: 'zh-CN', signal: new AbortController().signal },
      (image, index) => ready.push({ image, index }),
    );

    expect(result.model).toBe('gemini-image-test');
    expect(result.images).toHaveLength(3);
    expect(ready.map((r) => r.index).sort()).toEqual([0, 1, 2]);
    for (const image of result.images) {
      expect(image).toMatchObject({ mimeType: 'image/png', width: 288, height: 512 });
      expect(image.data.equals(generatedPng)).toBe(true);
    }
    expect(result.images.map((i) => i.label)).toEqual(['全身正面', '行走侧身', '半身细节']);

    expect(server.requests).toHaveLength(3);
    const prompts = new Set<string>();
    for (const request of server.requests) {
      expect(request.headers['x-goog-api-key']).toBe('test-gemini-key');
      const body = bodyOf(request);
      expect(body.generationConfig.responseModalities).toEqual(['TEXT', 'IMAGE']);
      expect(body.generationConfig.imageConfig).toEqual({ aspectRatio: '9:16' });
      const parts = body.contents[0]!.parts;
      expect(parts[0]!.text).toMatch(/A summer dress/);
      prompts.add(parts[0]!.text!);
      expect(parts.filter((p) => p.inlineData).map((p) => p.inlineData!.mimeType)).toEqual(['image/png', 'image/png']);
      expect(Buffer.from(parts[1]!.inlineData!.data, 'base64').equals(modelImage.data)).toBe(true);
    }
    // Each candidate asks for its own composition.
    expect(prompts.size).toBe(3);
  });

  it('leaves the shape to the model for aspect auto', async () => {
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)));
    await provider().imageGenerator.generateImages(
      { prompt: 'p', sources: [modelImage], count: 1, aspect: 'auto', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    expect(bodyOf(server.requests[0]!).generationConfig.imageConfig).toBeUndefined();
  });

  it('keeps the other five when one candidate is blocked (IMAGE_SAFETY), naming the blocked one', async () => {
    let calls = 0;
    server.on('POST', IMAGE_PATH, (_req, res) => {
      calls += 1;
      if (calls === 3) sendJson(res, 200, geminiParts([], 'IMAGE_SAFETY'));
      else sendJson(res, 200, imageAnswer(generatedPng));
    });
    const ready: number[] = [];
    const result = await provider().imageGenerator.generateImages(
      { prompt: 'p', sources: [modelImage], count: 6, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      (_image, index) => ready.push(index),
    );
    expect(ready).toHaveLength(5);
    expect(result.failures).toHaveLength(1);
    expect(result.failures![0]!.error).toMatchObject({ kind: 'safety' });
    expect(result.failures![0]!.error.message).toMatch(/IMAGE_SAFETY/);
    expect(result.images.filter(Boolean)).toHaveLength(5);
    expect(result.images[result.failures![0]!.index]).toBeUndefined();
    // Six calls for six candidates: the block cost nothing else.
    expect(server.requests).toHaveLength(6);
  });

  it('keeps the others when the prompt of one candidate is blocked (promptFeedback.blockReason)', async () => {
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, { promptFeedback: { blockReason: 'OTHER' }, modelVersion: 'x' }), 1);
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)));
    const result = await provider().imageGenerator.generateImages(
      { prompt: 'p', sources: [], count: 3, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    expect(result.images.filter(Boolean)).toHaveLength(2);
    expect(result.failures!.map((f) => f.error.kind)).toEqual(['safety']);
    expect(server.requests).toHaveLength(3);
  });

  it('stops every candidate on a bad key: one failure for all', async () => {
    server.on('POST', IMAGE_PATH, (_req, res) =>
      sendJson(res, 400, rpcError(400, 'INVALID_ARGUMENT', 'API key not valid.', [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }])),
    );
    await expectProviderError(
      provider().imageGenerator.generateImages(
        { prompt: 'p', sources: [], count: 6, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
        () => {},
      ),
      'auth',
    );
    // Two ran at once; after the first refusal no further candidate was started.
    expect(server.requests.length).toBeLessThanOrEqual(2);
  });

  it('maps NO_IMAGE, a text-only answer and undecodable image data to bad_response for that candidate', async () => {
    const run = async () => {
      const result = await provider().imageGenerator.generateImages(
        { prompt: 'p', sources: [], count: 1, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
        () => {},
      );
      expect(result.failures).toHaveLength(1);
      return Promise.reject(result.failures![0]!.error);
    };
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, geminiParts([{ text: 'I cannot draw that.' }], 'NO_IMAGE')), 1);
    await expectProviderError(run(), 'bad_response', /NO_IMAGE/);
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, geminiParts([{ text: 'Here is a description instead.' }], 'STOP')), 1);
    await expectProviderError(run(), 'bad_response', /without an image: Here is a description/);
    server.on('POST', IMAGE_PATH, (_req, res) =>
      sendJson(res, 200, geminiParts([{ inlineData: { mimeType: 'image/png', data: Buffer.from('not an image at all').toString('base64') } }])), 1);
    await expectProviderError(run(), 'bad_response', /cannot be read/);
    server.on('POST', IMAGE_PATH, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"candidates": [');
    }, 1);
    await expectProviderError(run(), 'bad_response');
  });

  it('sends at most three inputs, the first model image and the pattern first, and keeps each request under 20 MB', async () => {
    // Told apart by their widths.
    const widths = [2048, 2000, 1960, 1920];
    const scans = await Promise.all(widths.map((width) => largeScanPng('#7f7f7f', width)));
    const models = scans.slice(0, 2).map((data, i) => ({ data, mimeType: 'image/png', role: 'model' as const, width: widths[i]!, height: 1400 }));
    const patterns = scans.slice(2).map((data, i) => ({ data, mimeType: 'image/png', role: 'pattern' as const, width: widths[i + 2]!, height: 1400 }));
    server.on('POST', IMAGE_PATH, withRequestLimit((_req, res) => sendJson(res, 200, imageAnswer(generatedPng))));
    const result = await provider().imageGenerator.generateImages(
      { prompt: 'p', sources: [...models, ...patterns], count: 2, aspect: 'square', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    expect(result.images.filter(Boolean)).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect(request.body.length).toBeLessThan(GEMINI_REQUEST_LIMIT);
      const images = bodyOf(request).contents[0]!.parts.filter((p) => p.inlineData);
      expect(images).toHaveLength(3);
    }
    // Which three: the first model image, the first pattern, then the second pattern (not the second model image).
    const sent = bodyOf(server.requests[0]!).contents[0]!.parts.filter((p) => p.inlineData).map((p) => Buffer.from(p.inlineData!.data, 'base64'));
    const sentWidths = await Promise.all(sent.map(async (data) => (await sharp(data).metadata()).width));
    expect(sentWidths).toEqual([2048, 1960, 1920]);
  });

  it('retries one candidate after a 429 with its RetryInfo delay without redoing the others', async () => {
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)), 1);
    server.on('POST', IMAGE_PATH, (_req, res) =>
      sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Too many requests', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.05s' }])), 1);
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)));
    const result = await provider().imageGenerator.generateImages(
      { prompt: 'p', sources: [], count: 2, aspect: 'horizontal', language: 'en-US', signal: new AbortController().signal },
      () => {},
    );
    expect(result.images).toHaveLength(2);
    expect(server.requests).toHaveLength(3);
    expect(bodyOf(server.requests[0]!).generationConfig.imageConfig).toEqual({ aspectRatio: '16:9' });
  });
});

describe('Gemini video prompts', () => {
  it('asks for exactly `count` options by responseSchema with the image inline, and reads them', async () => {
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, geminiChunk(JSON.stringify(SAMPLE_VIDEO_PROMPTS), 'STOP')));
    const result = await provider().promptWriter.writeVideoPrompts({
      image: modelImage,
      fabric: { fabric_name: 'Rose voile' },
      userPrompt: 'graceful',
      count: 3,
      language: 'en-US',
      signal: new AbortController().signal,
    });
    expect(result.model).toBe('gemini-text-test-001');
    expect(result.prompts).toHaveLength(3);
    // Camera moves in any letter case are read onto the vocabulary.
    expect(result.prompts[0]!.camera).toEqual(['Push in']);
    expect(result.prompts[1]).toMatchObject({ camera: ['Tracking shot', 'Pan left'], scene: 'garden path', mood: 'joyful' });

    const body = bodyOf(server.requests[0]!);
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    const promptsSchema = body.generationConfig.responseSchema!.properties.prompts!;
    expect(Number(promptsSchema.minItems)).toBe(3);
    expect(Number(promptsSchema.maxItems)).toBe(3);
    expect(JSON.stringify(promptsSchema.items)).toMatch(/Tracking shot/);
    expect(body.contents[0]!.parts.some((p) => p.inlineData?.mimeType === 'image/png')).toBe(true);
    expect(body.contents[0]!.parts[0]!.text).toMatch(/Fabric name: Rose voile/);
  });

  it('refuses fewer options than asked, or moves outside the vocabulary, as bad_response', async () => {
    const run = () =>
      provider().promptWriter.writeVideoPrompts({
        image: modelImage,
        fabric: {},
        userPrompt: '',
        count: 3,
        language: 'en-US',
        signal: new AbortController().signal,
      });
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, geminiChunk(JSON.stringify({ prompts: SAMPLE_VIDEO_PROMPTS.prompts.slice(0, 2) }), 'STOP')), 1);
    await expectProviderError(run(), 'bad_response', /prompts/);
    const odd = { prompts: SAMPLE_VIDEO_PROMPTS.prompts.map((p) => ({ ...p, camera: ['Barrel roll'] })) };
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, geminiChunk(JSON.stringify(odd), 'STOP')), 1);
    await expectProviderError(run(), 'bad_response', /camera/);
  });
});

describe('Gemini workshop', () => {
  it('enhances text by the text model with its confidence', async () => {
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, geminiChunk(JSON.stringify(SAMPLE_ENHANCED_TEXT), 'STOP')));
    const result = await provider().enhancer.enhance({
      type: 'text',
      text: 'rose voile, cotton, light',
      images: [],
      creativity: 1,
      precision: 0.9,
      style: 'professional',
      language: 'en-US',
      signal: new AbortController().signal,
    });
    expect(result).toMatchObject({ text: SAMPLE_ENHANCED_TEXT.text, confidence: 0.82, images: [], model: 'gemini-text-test-001' });
    const body = bodyOf(server.requests[0]!);
    expect(body.generationConfig.temperature).toBeCloseTo(1.2);
    expect(body.contents[0]!.parts[0]!.text).toBe('rose voile, cotton, light');
  });

  it('enhances each image by the image model, keeping its shape, and both for mixed', async () => {
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)));
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, geminiChunk(JSON.stringify(SAMPLE_ENHANCED_TEXT), 'STOP')));
    const imageOnly = await provider().enhancer.enhance({
      type: 'image',
      images: [modelImage, patternImage],
      creativity: 0.2,
      precision: 1,
      style: 'natural',
      language: 'en-US',
      signal: new AbortController().signal,
    });
    expect(imageOnly.images).toHaveLength(2);
    expect(imageOnly.text).toBeUndefined();
    expect(imageOnly.confidence).toBeGreaterThan(0);
    expect(imageOnly.model).toBe('gemini-image-test');
    expect(server.requests.every((r) => r.path === IMAGE_PATH && bodyOf(r).generationConfig.imageConfig === undefined)).toBe(true);

    server.reset();
    server.on('POST', IMAGE_PATH, (_req, res) => sendJson(res, 200, imageAnswer(generatedPng)));
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, geminiChunk(JSON.stringify(SAMPLE_ENHANCED_TEXT), 'STOP')));
    const mixed = await provider().enhancer.enhance({
      type: 'mixed',
      text: 'make it sell',
      images: [modelImage],
      creativity: 0.5,
      precision: 0.5,
      style: 'creative',
      language: 'en-US',
      signal: new AbortController().signal,
    });
    expect(mixed).toMatchObject({ text: SAMPLE_ENHANCED_TEXT.text, confidence: 0.82 });
    expect(mixed.images).toHaveLength(1);
    expect((await sharp(mixed.images[0]!.data).metadata()).width).toBe(288);
    expect(server.requests.map((r) => r.path).sort()).toEqual([IMAGE_PATH, TEXT_PATH]);
  });

  it('refuses a text item without text before calling Gemini', async () => {
    await expectProviderError(
      provider().enhancer.enhance({ type: 'text', text: '  ', images: [], creativity: 0, precision: 0, style: 'natural', language: 'en-US', signal: new AbortController().signal }),
      'invalid_request',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('Gemini video prompts, streamed', () => {
  it('hands each option\'s prompt text over as it is written (streamGenerateContent), and the whole at the end', async () => {
    const STREAM = '/v1beta/models/gemini-text-test:streamGenerateContent';
    server.on('POST', STREAM, sseAnswer(geminiTextStream(JSON.stringify(SAMPLE_VIDEO_PROMPTS), 13), '\r\n\r\n'));
    const reader = draftsReader();
    let pieceCount = 0;
    const result = await provider().promptWriter.writeVideoPrompts(
      { image: modelImage, fabric: {}, userPrompt: 'graceful', count: 3, language: 'en-US', signal: new AbortController().signal },
      (piece) => {
        pieceCount += 1;
        reader.show(piece);
      },
    );
    expect(pieceCount).toBeGreaterThan(3);
    expect(reader.drafts).toEqual(result.prompts.map((p) => p.prompt));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.query.get('alt')).toBe('sse');
  });
});

describe('Gemini workshop text, streamed', () => {
  const STREAM = '/v1beta/models/gemini-text-test:streamGenerateContent';
  const CHINESE = { text: '玫瑰巴厘纱：轻盈棉质，绯红花卉，为夏日而生。🌸 Made for summer.', confidence: 0.82 };
  /** The answer with every non-ASCII character written as a \u escape, so pieces cut escapes (and a surrogate pair) in half. */
  const escaped = JSON.stringify(CHINESE).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const input = () => ({
    type: 'text' as const,
    text: 'rose voile, cotton, light',
    images: [],
    creativity: 0.5,
    precision: 0.5,
    style: 'natural' as const,
    language: 'zh-CN' as const,
    signal: new AbortController().signal,
  });

  it('hands the text over as it is written (streamGenerateContent?alt=sse), exactly the result\'s text (1 call)', async () => {
    let firstShown: () => void = () => {};
    const shownOnce = new Promise<void>((resolve) => (firstShown = resolve));
    server.on('POST', STREAM, async (_req, res) => {
      openSse(res);
      const all = pieces(escaped, 7);
      for (const piece of all.slice(0, 4)) writeSse(res, geminiChunk(piece), '\r\n\r\n');
      // The rest waits until the adapter has handed text over: proof that it streams.
      await shownOnce;
      for (const piece of all.slice(4)) writeSse(res, geminiChunk(piece), '\r\n\r\n');
      writeSse(res, geminiChunk('', 'STOP'), '\r\n\r\n');
      res.end();
    });
    const chunks: string[] = [];
    const result = await provider().enhancer.enhance(input(), (chunk) => {
      chunks.push(chunk);
      firstShown();
    });
    expect(result).toMatchObject({ text: CHINESE.text, confidence: 0.82 });
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(CHINESE.text);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.query.get('alt')).toBe('sse');
  });

  it('asks again after a stream cut mid-text, telling the reader to drop what it showed: never a sentence twice (2 calls)', async () => {
    // A 503 inside the stream, as Gemini sends one.
    server.on('POST', STREAM, sseAnswer([...pieces(escaped.slice(0, 60), 7).map((piece) => geminiChunk(piece)), rpcError(503, 'UNAVAILABLE', 'The model is overloaded.')], '\r\n\r\n'), 1);
    server.on('POST', STREAM, sseAnswer(geminiTextStream(escaped, 7), '\r\n\r\n'));
    const reader = textReader();
    const result = await provider().enhancer.enhance(input(), reader.show, reader.restart);
    expect(reader.restarts).toBe(1);
    expect(reader.shown).toBe(result.text);
    // What the reader held at its longest is the text once, never the cut start and then the whole.
    expect(reader.longest).toBe(CHINESE.text);
    expect(server.requests).toHaveLength(2);
  });

  it('does not ask again once text was shown to a reader that cannot drop it', async () => {
    server.on('POST', STREAM, sseAnswer([geminiChunk('{"text": "Rose voile: a feather')], '\r\n\r\n'));
    await expectProviderError(provider().enhancer.enhance(input(), () => {}), 'unavailable', /before it was complete/);
    expect(server.requests).toHaveLength(1);
  });
});
