// The pick stage of a collection item: one of its candidates is chosen by the collection's rule
// (the built-in score, pick-score.ts; or the model's ranking, model-pick.ts, which falls back to
// the score and says why), then in one transaction the item either waits for the person (review)
// or goes on to its video prompts. Local work and at most one short request to a text model, on
// the local lane, batch class: a person's interactive job goes first.
import type { JobHandler } from '../../jobs/job-handler.js';
import { FALLBACK_LANGUAGE, isLanguage } from '../../../shared/i18n/languages.js';
import { sniffImageFormat } from '../../../shared/images/image-types.js';
import { ProviderError, type InputImage } from '../../providers/capabilities.js';
import { failureColumns } from '../generation/failure.js';
import { parseFabric } from '../generation/store/stored-json.js';
import { itemSettings } from './feeder.js';
import { rankByModel, RANKING_TIMEOUT_MS } from './model-pick.js';
import { pickJson, scoreCandidates } from './pick-score.js';
import { advance, leave } from './stage-chain.js';
import { COLLECTION_JOB_KINDS, inStep, type CollectionsContext } from './collections-context.js';

/** Room for the model's answer and the score after it. */
const PICK_TIMEOUT_MS = 2 * RANKING_TIMEOUT_MS;

const inputImage = (data: Buffer, role: InputImage['role']): InputImage => ({ data, mimeType: `image/${sniffImageFormat(data) ?? 'png'}`, role });

export function collectionPickJob(c: CollectionsContext): JobHandler {
  const { gen } = c;
  return {
    kind: COLLECTION_JOB_KINDS.pick,
    lane: () => 'local',
    jobClass: 'batch',
    timeoutMs: PICK_TIMEOUT_MS,
    async run({ job, signal }) {
      const item = await c.repo.item(job.ref_id);
      // Picked already (a re-run after a restart), or cancelled meanwhile: nothing to do.
      if (!item || item.status !== 'running' || item.stage !== 'pick' || item.request_id === null) return;
      const collection = (await c.repo.collection(item.collection_id))!;
      const settings = itemSettings(collection, item);
      const images = (await gen.repo.imagesOfRequests([item.request_id])).filter(
        (i) => i.status === 'completed' && i.file_id !== null && i.parent_image_id === null,
      );
      if (images.length === 0) throw new ProviderError('invalid_request', 'no candidate was made to pick from');
      const candidates = [];
      for (const image of images) {
        const data = await gen.files.read(image.file_id!);
        if (data) candidates.push({ image_id: image.id, position: image.position, data });
      }
      if (candidates.length === 0) throw new ProviderError('invalid_request', "the candidates' files are missing");
      const patterns: Buffer[] = [];
      for (const upload of await gen.repo.uploads([item.request_id])) {
        if (upload.role !== 'pattern') continue;
        const data = await gen.files.read(upload.file_id);
        if (data) patterns.push(data);
      }
      signal.throwIfAborted();
      const scored = await scoreCandidates(candidates, patterns);
      signal.throwIfAborted();
      let values: { picked_image_id: number; pick_by: 'score' | 'model'; pick_json: string };
      if (settings.pick_rule === 'model') {
        const request = await gen.repo.request(item.request_id);
        const outcome = await rankByModel(
          gen.providers.candidateRanker,
          {
            fabric: parseFabric(item.fabric_json),
            ...(request?.analysis_text ? { analysisText: request.analysis_text } : {}),
            patternImages: patterns.map((data) => inputImage(data, 'pattern')),
            candidates: candidates.map((cand) => ({ imageId: cand.image_id, image: inputImage(cand.data, 'source') })),
            language: isLanguage(collection.language) ? collection.language : FALLBACK_LANGUAGE,
          },
          scored,
          signal,
        );
        if (!outcome.ranked) c.gen.log.warn({ itemId: item.id, cause: outcome.cause }, outcome.reason);
        values = outcome.ranked
          ? { picked_image_id: outcome.pick.ranking[0]!.image_id, pick_by: 'model', pick_json: JSON.stringify(outcome.pick) }
          : {
              picked_image_id: scored[0]!.image_id,
              pick_by: 'score',
              pick_json: JSON.stringify(pickJson(scored, { from: 'model', cause: outcome.cause, reason: outcome.reason })),
            };
      } else {
        values = { picked_image_id: scored[0]!.image_id, pick_by: 'score', pick_json: JSON.stringify(pickJson(scored)) };
      }
      signal.throwIfAborted();
      await inStep(c, async (step) => {
        if (settings.stop_for_review) await leave(c, step, item, 'pick', 'review', values);
        else await advance(c, step, item, 'pick', 'video_prompts', values);
      });
    },
    async fail(job, error) {
      const failure = failureColumns(error, 'collection_pick_failed');
      await inStep(c, async (step) => {
        const item = await step.repo.item(job.ref_id);
        if (item) await leave(c, step, item, 'pick', 'failed', failure);
      });
    },
  };
}

