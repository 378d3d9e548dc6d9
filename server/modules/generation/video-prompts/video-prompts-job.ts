// Three video prompts for one generated image, from the image, the request's fabric form and
// analysis and the designer's context; they replace the image's earlier ones.
import type { JobHandler } from '../../../jobs/job-handler.js';
import { CAMERA_MOVES, ProviderError, type Language, type VideoPromptDraft } from '../../../providers/capabilities.js';
import { failureColumns } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { laneOf } from '../engines/generation-providers.js';
import { JOB_KINDS, topics, VIDEO_PROMPTS_PER_IMAGE, type GenerationEvent } from '../job-topics.js';
import { inputImage } from '../store/stored-images.js';
import { createGenerationRepository } from '../store/generation-repository.js';
import { generationDb } from '../store/generation-tables.js';
import { parseAnalysis, parseFabric, parseObject } from '../store/stored-json.js';
import { failureKind } from '../../../jobs/retryable-error.js';

const PROMPTS_TIMEOUT_MS = 150_000;

export interface VideoPromptContext {
  prompt?: string;
  language?: Language;
  fabric?: Record<string, string>;
}

function videoPromptContext(json: string | null): VideoPromptContext {
  const o = parseObject(json) ?? {};
  const fabric = parseObject(JSON.stringify(o.fabric ?? null));
  return {
    ...(typeof o.prompt === 'string' ? { prompt: o.prompt } : {}),
    ...(typeof o.language === 'string' ? { language: o.language as Language } : {}),
    ...(fabric ? { fabric: Object.fromEntries(Object.entries(fabric).filter(([, v]) => typeof v === 'string')) as Record<string, string> } : {}),
  };
}

/** True when a batch (a collection's item) queued this run: its params name the batch's item. */
function batchRun(json: string | null): boolean {
  return typeof parseObject(json)?.collection_item_id === 'number';
}

/** A provider's drafts, checked: prompts must be text, camera moves from the known list. */
function checkedDrafts(drafts: unknown): VideoPromptDraft[] {
  if (!Array.isArray(drafts)) throw new ProviderError('bad_response', 'video prompts are not a list');
  const good = drafts.filter(
    (d): d is VideoPromptDraft => !!d && typeof (d as VideoPromptDraft).prompt === 'string' && (d as VideoPromptDraft).prompt.trim() !== '',
  );
  if (good.length === 0) throw new ProviderError('bad_response', 'no usable video prompt');
  return good.slice(0, VIDEO_PROMPTS_PER_IMAGE).map((d) => ({
    prompt: d.prompt.trim(),
    camera: (Array.isArray(d.camera) ? d.camera : []).filter((m) => (CAMERA_MOVES as readonly string[]).includes(m)).slice(0, 3),
    scene: typeof d.scene === 'string' ? d.scene : '',
    mood: typeof d.mood === 'string' ? d.mood : '',
  }));
}

export function videoPromptsJob(ctx: GenerationContext): JobHandler {
  const { repo } = ctx;
  return {
    kind: JOB_KINDS.videoPrompts,
    lane: () => laneOf(ctx.providers.promptWriter),
    timeoutMs: PROMPTS_TIMEOUT_MS,
    async run({ job, signal, publish }) {
      const image = await repo.image(job.ref_id);
      if (!image?.file_id) throw new ProviderError('invalid_request', 'the image has no file');
      // A batch's run whose prompts were written and handed on already (a re-run after a restart
      // that came between its commit and the job's end) writes nothing twice.
      if (batchRun(job.params_json) && ctx.stageEnds && !(await ctx.stageEnds.promptsAwaited(image.id))) return;
      const slot = ctx.providers.promptWriter;
      if (!slot) throw new ProviderError('unavailable', 'no prompt writer is configured');
      const topic = topics.videoPrompts(image.id);
      publish(topic, { type: 'started' } satisfies GenerationEvent);
      const request = image.request_id !== null ? await repo.request(image.request_id) : undefined;
      const analysis = request ? parseAnalysis(request.analysis_json) : undefined;
      // The designer's context for this run, kept with the job by the stream call.
      const context = videoPromptContext(job.params_json);
      // This run's text starts from nothing: a page still showing an earlier run's cut text drops it.
      publish(topic, { type: 'text_reset' } satisfies GenerationEvent);
      const result = await slot.impl.writeVideoPrompts(
        {
          image: await inputImage(ctx.files, image.file_id, 'source'),
          fabric: { ...(request ? parseFabric(request.fabric_json) : {}), ...context.fabric },
          userPrompt: context.prompt ?? request?.prompt ?? image.prompt,
          ...(analysis ? { analysis } : {}),
          count: VIDEO_PROMPTS_PER_IMAGE,
          language: (context.language ?? image.language) as Language,
          signal,
        },
        // Each option's text as it is written; a retried stream first drops what it showed.
        (piece) => {
          if (!signal.aborted && piece.content) publish(topic, { type: 'prompt_text', ...piece } satisfies GenerationEvent);
        },
        () => publish(topic, { type: 'text_reset' } satisfies GenerationEvent),
      );
      signal.throwIfAborted();
      const drafts = checkedDrafts(result?.prompts);
      const told = await ctx.baseDb.transaction().execute(async (trx) => {
        await createGenerationRepository(generationDb(trx), ctx.now).replaceVideoPrompts(
          image.user_id,
          image.id,
          drafts.map((d) => ({ ...d, model: result.model })),
        );
        return ctx.stageEnds?.videoPromptsReady(trx, image.id);
      });
      told?.();
      publish(topic, { type: 'prompts_ready', image_id: image.id } satisfies GenerationEvent);
    },
    async fail(job, error, _reason, publish) {
      const failure = failureColumns(error, 'video_prompt_failed');
      const hook = ctx.stageEnds;
      if (hook) (await ctx.baseDb.transaction().execute((trx) => hook.videoPromptsFailed(trx, job.ref_id, failure)))();
      publish(topics.videoPrompts(job.ref_id), { type: 'failed', error_code: failure.error_code, error_key: failure.error_key } satisfies GenerationEvent);
    },
    async retrying(job, error, delayMs, publish) {
      const code = failureKind(error);
      publish(topics.videoPrompts(job.ref_id), { type: 'retrying', delay_ms: delayMs, code } satisfies GenerationEvent);
    },
  };
}
