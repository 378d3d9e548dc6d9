// A regenerate run: new images from one generated image and the designer's prompt, saved into
// the rows the call made (one generation id for the run, parent_image_id for their source).
import type { JobHandler } from '../../../jobs/job-handler.js';
import { runOwner } from '../../../jobs/run-owner.js';
import { ProviderError, type Aspect, type Language } from '../../../providers/capabilities.js';
import { fillImageRows } from './candidate-images.js';
import { failureColumns } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { laneOf } from '../engines/generation-providers.js';
import { JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { stopsWhenRowMovesOn } from '../store/row-states.js';
import { inputImage } from '../store/stored-images.js';
import { parseAnalysis } from '../store/stored-json.js';
import { failureKind } from '../../../jobs/retryable-error.js';

const REGENERATE_TIMEOUT_MS = 600_000;

export function regenerateJob(ctx: GenerationContext): JobHandler {
  const generationOf = async (leadId: number) => (await ctx.repo.image(leadId))?.generation_id;
  return {
    kind: JOB_KINDS.regenerate,
    lane: () => laneOf(ctx.providers.imageGenerator),
    timeoutMs: REGENERATE_TIMEOUT_MS,
    // fillImageRows' guarded writes stop the run once a cancel failed the run's images.
    run: stopsWhenRowMovesOn(async ({ job, signal, publish }) => {
      const repo = ctx.repo.ownedBy(runOwner(job));
      const lead = await repo.image(job.ref_id);
      if (!lead) return;
      // The run's images are this run's from here: a run that lost the job no longer writes them.
      await repo.takeGeneration(lead.generation_id);
      const slot = ctx.providers.imageGenerator;
      if (!slot) throw new ProviderError('unavailable', 'no image generator is configured');
      const topic = topics.regenerate(lead.generation_id);
      const source = lead.parent_image_id !== null ? await repo.image(lead.parent_image_id) : undefined;
      if (!source?.file_id) throw new ProviderError('invalid_request', 'the source image is gone');
      const request = source.request_id !== null ? await repo.request(source.request_id) : undefined;
      const analysis = request ? parseAnalysis(request.analysis_json) : undefined;
      const rows = await repo.imagesOfGeneration(lead.generation_id);
      publish(topic, { type: 'started' } satisfies GenerationEvent);
      await fillImageRows({ ...ctx, repo }, {
        slot,
        rows,
        failureKey: 'regeneration_failed',
        input: {
          prompt: lead.prompt,
          sources: [await inputImage(ctx.files, source.file_id, 'source')],
          aspect: source.aspect as Aspect,
          language: lead.language as Language,
          ...(analysis ? { analysis } : {}),
          signal,
          // A self-hosted engine tells each candidate's queue position and steps.
          onProgress: (index, detail) => publish(topic, { type: 'progress', progress: 0, detail, index } satisfies GenerationEvent),
        },
        onSaved: (row, done, total) =>
          publish(topic, { type: 'image_ready', image_id: row.id, index: done, total } satisfies GenerationEvent),
      });
      publish(topic, { type: 'completed' } satisfies GenerationEvent);
    }),
    async fail(job, error, _reason, publish) {
      const generationId = await generationOf(job.ref_id);
      if (!generationId) return;
      const failure = failureColumns(error, 'regeneration_failed');
      await ctx.repo.failOpenImages({ generationId }, failure);
      publish(topics.regenerate(generationId), { type: 'failed', error_code: failure.error_code, error_key: failure.error_key } satisfies GenerationEvent);
    },
    async retrying(job, error, delayMs, publish) {
      const generationId = await generationOf(job.ref_id);
      if (!generationId) return;
      const code = failureKind(error);
      publish(topics.regenerate(generationId), { type: 'retrying', delay_ms: delayMs, code } satisfies GenerationEvent);
    },
  };
}
