// POST /regenerate-stream: new images from one of the user's generated images and a prompt. The
// rows are made at once (one generation id for the run, the source as their parent) and a job
// fills them; the reply streams connected, start, progress, image_ready {source, image} (the
// source image first, then each new one as it is saved), complete {images, count, gemini_count,
// original_generation_id, new_gemini_generation_id} or error. A cut stream loses nothing.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../http/app-error.js';
import { currentUser } from '../../../http/current-user.js';
import { ok } from '../../../http/envelope.js';
import { message } from '../../../http/messages.js';
import { idField, integerField } from '../../../http/strict-numbers.js';
import { validate } from '../../../http/validate.js';
import { ASPECTS, languageOf, MAX_PROMPT_LENGTH } from '../form-fields.js';
import { openEventStream } from '../event-stream.js';
import { regenerateEventSchema, type RegenerateEvent } from './regenerate-events.js';
import { failureMessage, NO_FAILURE } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { requireSlot } from '../engines/generation-providers.js';
import { engineProgressMessage } from '../engines/engine-progress.js';
import { JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { readFields } from '../request-fields.js';

export const MAX_REGENERATE_COUNT = 6;

const body = z.object({
  user_generated_image_id: idField(),
  prompt: z
    .string()
    .trim()
    .min(1, 'prompt is required')
    .max(MAX_PROMPT_LENGTH, `prompt must be at most ${MAX_PROMPT_LENGTH} characters`),
  count: integerField(1, MAX_REGENERATE_COUNT).default(1),
  aspect: z.enum(ASPECTS as ['square', 'vertical', 'horizontal', 'auto']).optional(),
  language: z.string().optional(),
});

export function registerRegenerateRoutes(app: FastifyInstance, ctx: GenerationContext): void {
  app.post(
    '/regenerate-stream',
    {
      config: {
        openapi: {
          summary: 'New images from a generated image and a prompt (event stream)',
          tags: ['image'],
          body,
          response: {
            description: 'One RegenerateEvent per `data:` line; complete or error ends it',
            contentType: 'text/event-stream',
            schema: regenerateEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      requireSlot(ctx.providers, 'imageGenerator');
      const fields = await readFields(request, ctx.uploads);
      const input = validate(body, fields);
      if (input.prompt.length > MAX_PROMPT_LENGTH) {
        throw new AppError(400, 'text_too_long', { vars: { field: 'prompt', max: MAX_PROMPT_LENGTH } });
      }
      const language = languageOf(input.language, request);
      const [source] = await ctx.repo.imagesOfUser(user.id, [input.user_generated_image_id]);
      if (!source) throw new AppError(404, 'not_found');
      if (source.status !== 'completed' || !source.file_id) {
        throw new AppError(409, 'image_not_ready', { vars: { id: source.id } });
      }
      await ctx.jobs.admit(user.id, JOB_KINDS.regenerate);
      const generationId = randomUUID();
      const rows = await ctx.repo.insertImages(
        Array.from({ length: input.count }, (_, position) => ({
          user_id: user.id,
          request_id: source.request_id,
          parent_image_id: source.id,
          generation_id: generationId,
          position,
          prompt: input.prompt,
          status: 'pending' as const,
          file_id: null,
          thumbnail_file_id: null,
          width: null,
          height: null,
          aspect: input.aspect ?? source.aspect,
          style: source.style,
          model: null,
          provider: null,
          moments_text: source.moments_text,
          label: null,
          language,
          completed_at: null,
          ...NO_FAILURE,
        })),
      );

      const stream = openEventStream<RegenerateEvent>(request, reply);
      const say = (key: Parameters<typeof message>[0], vars?: Record<string, string | number>) => message(key, language, vars);
      const ids = {
        original_generation_id: source.generation_id,
        new_gemini_generation_id: generationId,
      };
      const sourceView = (await ctx.views.images([source], language))[0]!;
      const unsubscribe = ctx.jobs.onProgress(topics.regenerate(generationId), (raw) => {
        const event = raw as GenerationEvent;
        stream.inTurn(
          async () => {
            if (event.type === 'started') {
              stream.send({ type: 'progress', progress: 10, message: say('progress_engine_ready') });
            } else if (event.type === 'image_ready') {
              const image = await ctx.repo.image(event.image_id);
              const [view] = image ? await ctx.views.images([image], language) : [];
              stream.send({
                type: 'progress',
                progress: 10 + Math.round((85 * event.index) / event.total),
                message: say('progress_image_ready', { index: event.index, total: event.total }),
              });
              // An image gone before it was read (deleted meanwhile) is only counted.
              if (view) stream.send({ type: 'image_ready', source: 'gemini', image: view });
            } else if (event.type === 'progress') {
              const told = engineProgressMessage(event.detail, language);
              if (told) stream.send({ type: 'progress', progress: 10, message: told });
            } else if (event.type === 'retrying') {
              stream.send({ type: 'progress', progress: 10, message: say('progress_generating'), retry_in_ms: event.delay_ms, reason: event.code });
            } else if (event.type === 'completed') {
              const done = (await ctx.repo.imagesOfGeneration(generationId)).filter((r) => r.status === 'completed');
              const views = await ctx.views.images(done, language);
              stream.send({ type: 'progress', progress: 100, message: say('progress_completed') });
              stream.send({
                type: 'complete',
                images: [{ ...sourceView, source: 'original' }, ...views.map((v) => ({ ...v, source: 'gemini' as const }))],
                count: views.length + 1,
                gemini_count: views.length,
                ...ids,
              });
              stream.end();
            } else if (event.type === 'failed') {
              stream.send({
                type: 'error',
                code: event.error_code ?? 'internal',
                message: failureMessage({ ...event, error_detail: null }, language) ?? say('regeneration_failed'),
              });
              stream.end();
            }
          },
          (error: unknown) => {
            ctx.log.error({ err: error }, 'regenerate stream could not send an event');
            stream.send({ type: 'error', code: 'internal', message: say('regeneration_failed') });
            stream.end();
          },
        );
      });
      try {
        stream.send({ type: 'connected', ...ids });
        stream.send({ type: 'start', ...ids, count: input.count, image_ids: rows.map((r) => r.id) });
        stream.send({ type: 'progress', progress: 2, message: say('progress_connecting') });
        stream.send({ type: 'image_ready', source: 'original', image: sourceView });
        await ctx.jobs.enqueue({ kind: JOB_KINDS.regenerate, refId: rows[0]!.id, userId: user.id });
        await stream.finished;
      } catch (error) {
        ctx.log.error({ err: error }, 'regenerate stream failed');
        stream.send({ type: 'error', code: 'internal', message: say('regeneration_failed') });
        stream.end();
      } finally {
        unsubscribe();
        await stream.stepsDone();
      }
    },
  );

  app.post<{ Params: { generation_id: string } }>(
    '/regenerations/:generation_id/cancel',
    { config: { openapi: { summary: 'Cancel a regenerate run', tags: ['image'] } } },
    async (request) => {
      const user = currentUser(request);
      const rows = await ctx.repo.imagesOfGeneration(request.params.generation_id);
      const lead = rows[0];
      if (!lead || lead.user_id !== user.id || lead.parent_image_id === null) throw new AppError(404, 'not_found');
      const outcome = await ctx.jobs.cancel(JOB_KINDS.regenerate, lead.id);
      if (outcome === 'not_running') throw new AppError(409, 'already_finished');
      return ok(request, { generation_id: lead.generation_id, outcome }, 'generation_cancelled');
    },
  );
}
