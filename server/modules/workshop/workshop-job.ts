// One workshop item: its text and images through the chosen enhancer, the result saved with its
// confidence, model and processing time. The text is streamed as it is written (workshop-text.ts):
// kept in the row while the item runs and published as the analysis's text events, with a reset
// when a new attempt starts.
import type { JobHandler } from '../../jobs/job-handler.js';
import { ProviderError, type Language } from '../../providers/capabilities.js';
import { failureColumns, NO_FAILURE } from '../generation/failure.js';
import type { GenerationContext } from '../generation/generation-context.js';
import { mustMove, stopsWhenRowMovesOn } from '../generation/store/row-states.js';
import { inputImage, saveGeneratedImage } from '../generation/store/stored-images.js';
import { parseObject } from '../generation/store/stored-json.js';
import { parseConfig, parseFileIds } from './workshop-config.js';
import { enhancerFor } from './workshop-models.js';
import type { WorkshopRepository } from './workshop-repository.js';
import { createTextRelay, type TextEvent } from './workshop-text.js';
import { failureKind } from '../../jobs/retryable-error.js';

export const WORKSHOP_JOB = 'workshop';
export const workshopTopic = (id: number) => `workshop:${id}`;
/** Spec §9's third-party call timeout. */
const WORKSHOP_TIMEOUT_MS = 150_000;

export type WorkshopEvent =
  | { type: 'started' }
  | TextEvent
  | { type: 'retrying'; delay_ms: number; code: string }
  | { type: 'completed' }
  | { type: 'failed' };

export function workshopJob(ctx: GenerationContext, repo: WorkshopRepository): JobHandler {
  const enhancers = () => ctx.providers.enhancers ?? [];
  return {
    kind: WORKSHOP_JOB,
    lane: (job) => {
      // The item's chosen provider, which the job is queued with (the row is not read here).
      const model = parseObject(job.params_json)?.model;
      return enhancerFor(enhancers(), typeof model === 'string' ? model : undefined)?.provider ?? 'none';
    },
    // Queued to be looked at later: an analysis someone watches goes first.
    jobClass: 'batch',
    timeoutMs: WORKSHOP_TIMEOUT_MS,
    // Every write is a guarded move: once a cancel failed the item, the run stops at its next write.
    run: stopsWhenRowMovesOn(async ({ job, signal, publish }) => {
      const item = await repo.item(job.ref_id);
      if (!item || item.status === 'completed') return;
      const config = parseConfig(item.config_json);
      const slot = enhancerFor(enhancers(), config.model);
      if (!slot) throw new ProviderError('unavailable', 'no enhancer is configured');
      const startedAt = repo.now();
      signal.throwIfAborted();
      const what = `workshop item ${item.id}`;
      const send = (event: WorkshopEvent) => publish(workshopTopic(item.id), event);
      // This run's text starts from nothing: a reader still showing an earlier run's cut text drops it.
      mustMove(await repo.move(item.id, 'processing', { started_at: startedAt, provider: slot.provider, result_text: null, ...NO_FAILURE }), what);
      send({ type: 'started' });
      send({ type: 'text_reset' });
      const images = await Promise.all(parseFileIds(item.input_file_ids).map((id) => inputImage(ctx.files, id, 'source')));
      const text = createTextRelay(async (sofar) => mustMove(await repo.move(item.id, 'processing', { result_text: sofar }), what), send);
      let result;
      try {
        result = await slot.impl.enhance(
          {
            type: item.type,
            ...(item.input_text ? { text: item.input_text } : {}),
            images,
            creativity: config.creativity,
            precision: config.precision,
            style: config.style,
            language: item.language as Language,
            signal,
          },
          (chunk) => {
            if (!signal.aborted) text.push(chunk);
          },
          // The adapter asks again after a cut stream: what was shown is dropped, never shown twice.
          () => text.reset(),
        );
      } catch (error) {
        // No write of this run may land after the runner has settled the item.
        await text.settle().catch(() => undefined);
        throw error;
      }
      await text.settle();
      signal.throwIfAborted();
      if (!result || typeof result.confidence !== 'number' || !Array.isArray(result.images)) {
        throw new ProviderError('bad_response', 'the enhancer answered without a result');
      }
      if (item.type !== 'text' && images.length > 0 && result.images.length === 0 && !result.text) {
        throw new ProviderError('bad_response', 'the enhancer returned nothing');
      }
      const saved = [];
      for (const image of result.images) saved.push(await saveGeneratedImage(ctx.files, image));
      signal.throwIfAborted();
      const completedAt = repo.now();
      const moved = await repo.move(item.id, 'completed', {
        result_text: result.text ?? null,
        result_changes_json: result.textChanges ? JSON.stringify(result.textChanges) : null,
        result_file_ids: JSON.stringify(saved.map((s) => s.fileId)),
        confidence: Math.max(0, Math.min(1, result.confidence)),
        model: result.model,
        completed_at: completedAt,
        processing_ms: Date.parse(completedAt) - Date.parse(startedAt),
      });
      mustMove(moved, what);
      send({ type: 'completed' });
    }),
    async fail(job, error, _reason, publish) {
      // A finished item stays finished: a cancel that lands as it completes changes nothing.
      // The text of a run that did not finish is not a result.
      if (!(await repo.move(job.ref_id, 'error', { ...failureColumns(error, 'workshop_failed'), result_text: null }))) return;
      publish(workshopTopic(job.ref_id), { type: 'failed' } satisfies WorkshopEvent);
    },
    async retrying(job, error, delayMs, publish) {
      const code = failureKind(error);
      publish(workshopTopic(job.ref_id), { type: 'retrying', delay_ms: delayMs, code } satisfies WorkshopEvent);
    },
  };
}
