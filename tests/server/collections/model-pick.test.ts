// The pick rule 'model' through a collection's chain: the Gemini adapter's ranker, reached over
// a local server speaking :generateContent, ranks each fabric's candidates; its first choice is
// picked and its answer kept with the row, and a person can still pick another. When the
// provider fails, the built-in score picks and the row names the failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionView } from '../../../shared/collections/collection-types.js';
import { createGeminiProvider } from '../../../server/providers/gemini/gemini-provider.js';
import { databaseKinds } from '../helpers/databases.js';
import { createFakeProvider } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { type RecordedRequest, sendJson, useProviderTestServer } from '../providers/provider-test-server.js';
import { geminiChunk, rpcError, TEST_RETRY } from '../providers/gemini/gemini-fixtures.js';
import { CHAIN_RUNNER, collectionBody, items, untilItems, type Ref } from './helpers/collection-app.js';

const TEXT_PATH = '/v1beta/models/gemini-text-test:generateContent';

interface GenerateBody {
  contents: { parts: { text?: string; inlineData?: { mimeType: string } }[] }[];
}

/** The image ids the request names, in its order ("Candidate image_id 12:"). */
function candidateIds(request: RecordedRequest): number[] {
  const parts = (request.json as GenerateBody).contents[0]!.parts;
  return parts.flatMap((p) => {
    const match = /^Candidate image_id (\d+):$/.exec(p.text ?? '');
    return match ? [Number(match[1])] : [];
  });
}

const server = useProviderTestServer();

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`the model's pick on ${db.kind}`, () => {
    let t: GenerationTestApp;
    let user: { id: number; token: string };
    const start = async () => {
      const body = await collectionBody(t, user.token, 1, { settings: { stop_for_review: true, candidates: 3, pick_rule: 'model' } });
      const r = await t.call<Ref>('POST', '/api/collections', { token: user.token, body });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.id;
    };

    beforeAll(async () => {
      const ranker = createGeminiProvider({ apiKey: 'test-gemini-key', baseUrl: server.url, textModel: 'gemini-text-test', imageModel: 'gemini-image-test', retry: TEST_RETRY })
        .candidateRanker;
      const providers = { ...createFakeProvider().providers(), candidateRanker: { impl: ranker, provider: 'gemini', localPreview: false } };
      t = await createGenerationApp(db.kind, providers, CHAIN_RUNNER);
      user = await t.user('GENERAL');
    });
    afterAll(() => t?.close());

    it("picks the model's first choice and keeps its answer; a person may still pick another", async () => {
      // The model ranks the candidates in the reverse of the order it was shown them.
      server.on('POST', TEXT_PATH, (request, res) => {
        const ranking = candidateIds(request)
          .reverse()
          .map((id, i) => ({ image_id: id, reason: i === 0 ? 'The stripes and colours match the swatch best' : `Place ${i + 1}` }));
        sendJson(res, 200, geminiChunk(JSON.stringify({ ranking }), 'STOP'));
      });
      const id = await start();
      const [item] = await untilItems(t, id, (r) => r.every((i) => i.status === 'review' || i.status === 'failed'));
      expect(item).toMatchObject({ status: 'review', stage: 'pick', pick_by: 'model' });

      // One request, with the fabric, its analysis, the pattern and each candidate under its id.
      expect(server.requests).toHaveLength(1);
      const asked = candidateIds(server.requests[0]!);
      expect(asked).toHaveLength(3);
      const parts = (server.requests[0]!.json as GenerateBody).contents[0]!.parts;
      expect(parts[0]!.text).toMatch(/Poplin 1/);
      expect(parts[0]!.text).toMatch(/Fabric analysis:/);
      expect(parts.filter((p) => p.inlineData).map((p) => p.inlineData!.mimeType)).toEqual(['image/jpeg', 'image/jpeg', 'image/jpeg', 'image/jpeg']);

      const expected = [...asked].reverse();
      expect(item!.picked_image_id).toBe(expected[0]);
      const pick = JSON.parse(item!.pick_json!) as Record<string, unknown>;
      expect(pick).toMatchObject({
        rule: 'model',
        provider: 'gemini',
        model: 'gemini-text-test-001',
        ranking: expected.map((imageId, i) => ({ image_id: imageId, reason: i === 0 ? 'The stripes and colours match the swatch best' : `Place ${i + 1}` })),
      });
      expect(pick).not.toHaveProperty('fallback');

      // The grid reads who picked, why, and each candidate's place in the ranking.
      const view = (await t.call<CollectionView>('GET', `/api/collections/${id}`, { token: user.token })).body.data.items[0]!;
      expect(view.pick_by).toBe('model');
      expect(view.pick_reason).toBe('Ranked first by the vision model (gemini-text-test-001): The stripes and colours match the swatch best');
      expect(expected.map((imageId) => view.candidates.find((c) => c.image_id === imageId)!.model_rank)).toEqual([1, 2, 3]);

      const other = expected[2]!;
      const picked = await t.call<Ref>('POST', `/api/collections/${id}/items/${item!.id}/pick`, { token: user.token, body: { image_id: other } });
      expect(picked.status).toBe(200);
      expect((await items(t, id))[0]).toMatchObject({ picked_image_id: other, pick_by: 'person' });
    });

    it('lets the score pick when the provider fails, naming the failure', async () => {
      server.on('POST', TEXT_PATH, (_req, res) => sendJson(res, 500, rpcError(500, 'INTERNAL', 'An internal error has occurred.')));
      const id = await start();
      const [item] = await untilItems(t, id, (r) => r.every((i) => i.status === 'review' || i.status === 'failed'));
      expect(item).toMatchObject({ status: 'review', stage: 'pick', pick_by: 'score', error_code: null });
      // Asked again inside the adapter, then given up on.
      expect(server.requests).toHaveLength(3);
      const pick = JSON.parse(item!.pick_json!) as { rule: string; fallback: { from: string; cause: string; reason: string }; scores: { image_id: number }[] };
      expect(pick).toMatchObject({ rule: 'score', fallback: { from: 'model', cause: 'unavailable' } });
      expect(pick.fallback.reason).toMatch(/^gemini could not rank the candidates \(unavailable: /);
      expect(item!.picked_image_id).toBe(pick.scores[0]!.image_id);

      const view = (await t.call<CollectionView>('GET', `/api/collections/${id}`, { token: user.token })).body.data.items[0]!;
      expect(view.pick_reason).toMatch(/^The vision model's ranking failed \(the AI service is temporarily unavailable; please try again later\), so the built-in score picked instead\. Picked by the built-in score/);
      expect(view.candidates.every((c) => c.model_rank === null)).toBe(true);
    });

    it("lets the score pick when the model's answer names a candidate that is not there", async () => {
      server.on('POST', TEXT_PATH, (request, res) => {
        const ranking = candidateIds(request).map((imageId, i) => ({ image_id: i === 0 ? imageId + 1000 : imageId, reason: 'x' }));
        sendJson(res, 200, geminiChunk(JSON.stringify({ ranking }), 'STOP'));
      });
      const id = await start();
      const [item] = await untilItems(t, id, (r) => r.every((i) => i.status === 'review' || i.status === 'failed'));
      expect(item).toMatchObject({ status: 'review', pick_by: 'score' });
      expect(JSON.parse(item!.pick_json!)).toMatchObject({ rule: 'score', fallback: { from: 'model', cause: 'bad_response' } });
    });
  });
}
