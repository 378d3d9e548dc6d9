// The OpenAI-compatible adapter's candidate ranking against a local server speaking chat
// completions: the candidates go as small JPEG data URLs named by their image ids, the answer is
// JSON by json_schema, and an answer that names an unknown id or leaves one out is a bad response.
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RankCandidatesInput } from '../../../../server/providers/capabilities.js';
import { createOpenAiProvider } from '../../../../server/providers/openai-compatible/openai-provider.js';
import { pngImage, type RecordedRequest, sendJson, useProviderTestServer } from '../provider-test-server.js';
import { chatCompletion, expectProviderError, openAiError } from './openai-fixtures.js';

const CHAT_PATH = '/v1/chat/completions';
const TEST_RETRY = { retries: 2, maxWaitMs: 1_000, fallbackWaitMs: 10 };

const server = useProviderTestServer();
let input: RankCandidatesInput;

beforeAll(async () => {
  input = {
    fabric: { fabric_name: 'Linen twill', weight: '180' },
    patternImages: [{ data: await pngImage(900, 900, '#f1c40f'), mimeType: 'image/png', role: 'pattern' }],
    candidates: [
      { imageId: 7, image: { data: await pngImage(1200, 800, '#8e44ad'), mimeType: 'image/png', role: 'source' } },
      { imageId: 8, image: { data: await pngImage(800, 1200, '#f39c12'), mimeType: 'image/png', role: 'source' } },
    ],
    language: 'th-TH',
  };
});

const ranker = () =>
  createOpenAiProvider({ apiKey: 'sk-test', baseUrl: `${server.url}/v1`, textModel: 'test-chat-model', retry: TEST_RETRY }).candidateRanker;
const rank = () => ranker().rankCandidates(input, new AbortController().signal);

const answer = (ranking: { image_id: number; reason: string }[]) => chatCompletion(JSON.stringify({ ranking }));

interface ChatBody {
  model: string;
  messages: { role: string; content: string | ({ type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } })[] }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: unknown } };
}
const bodyOf = (request: RecordedRequest) => request.json as ChatBody;

describe('OpenAI-compatible candidate ranking', () => {
  it('sends the fabric, the pattern and each candidate under its id as small JPEG data URLs, and reads the ranking', async () => {
    server.on('POST', CHAT_PATH, (_req, res) =>
      sendJson(res, 200, answer([{ image_id: 8, reason: 'สีตรงกับผ้า' }, { image_id: 7, reason: 'ภาพมืดเกินไป' }])),
    );
    const result = await rank();

    expect(result).toEqual({
      model: 'test-chat-model-2025',
      ranking: [
        { imageId: 8, reason: 'สีตรงกับผ้า' },
        { imageId: 7, reason: 'ภาพมืดเกินไป' },
      ],
    });
    expect(server.requests).toHaveLength(1);
    const body = bodyOf(server.requests[0]!);
    expect(body.model).toBe('test-chat-model');
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'candidate_ranking', strict: true } });
    expect(body.messages[0]).toMatchObject({ role: 'system' });
    expect(body.messages[0]!.content).toMatch(/Thai/);
    const content = body.messages[1]!.content as Exclude<ChatBody['messages'][number]['content'], string>;
    const texts = content.flatMap((p) => (p.type === 'text' ? [p.text] : []));
    expect(texts[0]).toMatch(/Linen twill/);
    expect(texts.slice(1)).toEqual(['Pattern images:', 'Candidate image_id 7:', 'Candidate image_id 8:']);
    const urls = content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));
    expect(urls).toHaveLength(3);
    for (const url of urls) {
      expect(url).toMatch(/^data:image\/jpeg;base64,/);
      const meta = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(512);
    }
  });

  it('refuses an answer naming an id that was not asked about', async () => {
    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 200, answer([{ image_id: 8, reason: 'a' }, { image_id: 3, reason: 'b' }])));
    await expectProviderError(rank(), 'bad_response', /unknown ids 3 and missing ids 7/);
  });

  it('refuses an answer that leaves a candidate out, or is not JSON', async () => {
    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 200, answer([{ image_id: 8, reason: 'a' }])), 1);
    await expectProviderError(rank(), 'bad_response', /wrong shape/);
    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 200, chatCompletion('8 is the best, then 7')), 1);
    await expectProviderError(rank(), 'bad_response', /not JSON/);
  });

  it('maps a 429 with a long Retry-After to rate_limited, and a 500 to unavailable after the retries', async () => {
    server.on('POST', CHAT_PATH, (_req, res) =>
      sendJson(res, 429, openAiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), { 'retry-after': '7' }), 1);
    const limited = await expectProviderError(rank(), 'rate_limited', /Rate limit reached/);
    expect(limited.retryAfterMs).toBe(7000);
    expect(server.requests).toHaveLength(1);

    server.on('POST', CHAT_PATH, (_req, res) => sendJson(res, 500, openAiError('The server had an error', 'server_error')), 3);
    await expectProviderError(rank(), 'unavailable');
    expect(server.requests).toHaveLength(4);
  });
});
