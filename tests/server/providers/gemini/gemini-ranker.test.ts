// The Gemini adapter's candidate ranking against a local server speaking :generateContent: the
// candidates go inline as small JPEGs named by their image ids, the answer is JSON by
// responseSchema, and an answer that names an unknown id or leaves one out is a bad response.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RankCandidatesInput } from '../../../../server/providers/capabilities.js';
import { createGeminiProvider } from '../../../../server/providers/gemini/gemini-provider.js';
import { pngImage, type RecordedRequest, sendJson, useProviderTestServer } from '../provider-test-server.js';
import { expectProviderError, geminiChunk, rpcError, TEST_RETRY } from './gemini-fixtures.js';

const TEXT_PATH = '/v1beta/models/gemini-text-test:generateContent';

const server = useProviderTestServer();
let input: RankCandidatesInput;

beforeAll(async () => {
  input = {
    fabric: { fabric_name: 'Silk crepe', composition: '100% silk', drape: 'fluid' },
    analysisText: 'A fluid silk crepe with a small green geometric print.',
    patternImages: [{ data: await pngImage(1600, 1200, '#2ecc71'), mimeType: 'image/png', role: 'pattern' }],
    candidates: [
      { imageId: 41, image: { data: await pngImage(1024, 1536, '#8e44ad'), mimeType: 'image/png', role: 'source' } },
      { imageId: 42, image: { data: await pngImage(1024, 1536, '#27ae60'), mimeType: 'image/png', role: 'source' } },
      { imageId: 43, image: { data: await pngImage(300, 400, '#c0392b'), mimeType: 'image/png', role: 'source' } },
    ],
    language: 'vi-VN',
  };
});

const ranker = () =>
  createGeminiProvider({ apiKey: 'test-gemini-key', baseUrl: server.url, textModel: 'gemini-text-test', imageModel: 'gemini-image-test', retry: TEST_RETRY })
    .candidateRanker;

const rankingAnswer = (ranking: { image_id: number; reason: string }[]) => geminiChunk(JSON.stringify({ ranking }), 'STOP');

interface GenerateBody {
  systemInstruction: { parts: { text: string }[] };
  contents: { parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
  generationConfig: { responseMimeType?: string; responseSchema?: { properties: { ranking: { minItems?: string | number; maxItems?: string | number } } } };
}
const bodyOf = (request: RecordedRequest) => request.json as GenerateBody;

describe('Gemini candidate ranking', () => {
  it('sends the fabric, the pattern and each candidate under its id as small JPEGs, and reads the ranking', async () => {
    server.on('POST', TEXT_PATH, (_req, res) =>
      sendJson(
        res,
        200,
        rankingAnswer([
          { image_id: 42, reason: 'Màu xanh giống vải nhất' },
          { image_id: 41, reason: 'Độ rủ tốt' },
          { image_id: 43, reason: 'Ảnh nhỏ, thiếu chi tiết' },
        ]),
      ),
    );
    const result = await ranker().rankCandidates(input, new AbortController().signal);

    expect(result).toEqual({
      model: 'gemini-text-test-001',
      ranking: [
        { imageId: 42, reason: 'Màu xanh giống vải nhất' },
        { imageId: 41, reason: 'Độ rủ tốt' },
        { imageId: 43, reason: 'Ảnh nhỏ, thiếu chi tiết' },
      ],
    });
    expect(server.requests).toHaveLength(1);
    const body = bodyOf(server.requests[0]!);
    expect(body.systemInstruction.parts[0]!.text).toMatch(/Vietnamese/);
    expect(body.generationConfig.responseMimeType).toBe('application/json');
    expect(Number(body.generationConfig.responseSchema!.properties.ranking.minItems)).toBe(3);
    expect(Number(body.generationConfig.responseSchema!.properties.ranking.maxItems)).toBe(3);
    const parts = body.contents[0]!.parts;
    expect(parts[0]!.text).toMatch(/Silk crepe/);
    expect(parts[0]!.text).toMatch(/green geometric print/);
    const texts = parts.filter((p) => p.text).map((p) => p.text);
    expect(texts).toEqual(expect.arrayContaining(['Pattern images:', 'Candidate image_id 41:', 'Candidate image_id 42:', 'Candidate image_id 43:']));
    // Each candidate's image follows the text naming it; all are JPEGs at most 512 px on their long side.
    const images = parts.filter((p) => p.inlineData);
    expect(images).toHaveLength(4);
    for (const part of images) {
      expect(part.inlineData!.mimeType).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(part.inlineData!.data, 'base64')).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(512);
    }
    const named42 = parts.findIndex((p) => p.text === 'Candidate image_id 42:');
    const candidate42 = await sharp(Buffer.from(parts[named42 + 1]!.inlineData!.data, 'base64')).metadata();
    expect([candidate42.width, candidate42.height]).toEqual([341, 512]);
  });

  it('refuses an answer naming an id that was not asked about', async () => {
    server.on('POST', TEXT_PATH, (_req, res) =>
      sendJson(res, 200, rankingAnswer([{ image_id: 42, reason: 'a' }, { image_id: 41, reason: 'b' }, { image_id: 99, reason: 'c' }])),
    );
    await expectProviderError(ranker().rankCandidates(input, new AbortController().signal), 'bad_response', /unknown ids 99 and missing ids 43/);
  });

  it('refuses an answer that leaves a candidate out', async () => {
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 200, rankingAnswer([{ image_id: 42, reason: 'a' }, { image_id: 41, reason: 'b' }])));
    await expectProviderError(ranker().rankCandidates(input, new AbortController().signal), 'bad_response', /wrong shape/);
  });

  it('refuses an answer naming one candidate twice', async () => {
    server.on('POST', TEXT_PATH, (_req, res) =>
      sendJson(res, 200, rankingAnswer([{ image_id: 42, reason: 'a' }, { image_id: 42, reason: 'b' }, { image_id: 41, reason: 'c' }])),
    );
    await expectProviderError(ranker().rankCandidates(input, new AbortController().signal), 'bad_response', /missing ids 43/);
  });

  it('maps a 429 that outlasts the retries to rate_limited with its delay', async () => {
    server.on('POST', TEXT_PATH, (_req, res) =>
      sendJson(res, 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Too many requests', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.02s' }])),
    );
    const error = await expectProviderError(ranker().rankCandidates(input, new AbortController().signal), 'rate_limited');
    expect(error.retryAfterMs).toBe(20);
    expect(server.requests).toHaveLength(3);
  });

  it('maps a 500 to unavailable after the retries', async () => {
    server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 500, rpcError(500, 'INTERNAL', 'An internal error has occurred.')));
    await expectProviderError(ranker().rankCandidates(input, new AbortController().signal), 'unavailable');
    expect(server.requests).toHaveLength(3);
  });

  it('asks nothing for more candidates than a collection makes', async () => {
    const seven = Array.from({ length: 7 }, (_, i) => ({ imageId: i + 1, image: input.candidates[0]!.image }));
    await expectProviderError(ranker().rankCandidates({ ...input, candidates: seven }, new AbortController().signal), 'invalid_request');
    expect(server.requests).toHaveLength(0);
  });
});
