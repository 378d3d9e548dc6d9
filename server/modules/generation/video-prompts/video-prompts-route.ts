// POST /video-prompts-stream: three video prompts for each selected generated image, one job per
// image, streamed per image as each is saved: connected, progress {image_id, progress, message},
// prompts {image_id, prompts}, image_error {image_id, code, message}, then complete {images}.
// The prompts are saved with the image, so a cut stream finds them in the image's detail.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../http/app-error.js';
import { currentUser } from '../../../http/current-user.js';
import { message } from '../../../http/messages.js';
import { idListField } from '../../../http/strict-numbers.js';
import { validate } from '../../../http/validate.js';
import { fabricFrom, languageOf, MAX_PROMPT_LENGTH, refuse } from '../form-fields.js';
import { openEventStream } from '../event-stream.js';
import { videoPromptsEventSchema, type VideoPromptsEvent, type VideoPromptsOutcome } from './video-prompts-events.js';
import { failureMessage } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { requireSlot } from '../engines/generation-providers.js';
import { JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { readFields } from '../request-fields.js';

export const MAX_PROMPT_IMAGES = 10;

const body = z.object({
  image_ids: idListField(1, MAX_PROMPT_IMAGES),
  prompt: z.string().optional(),
  language: z.string().optional(),
  fabric_info: z.unknown().optional(),
});

export function registerVideoPromptsRoute(app: FastifyInstance, ctx: GenerationContext): void {
  app.post(
    '/video-prompts-stream',
    {
      config: {
        openapi: {
          summary: 'Three video prompts per selected image (event stream)',
          tags: ['image'],
          body,
          response: {
            description: 'One VideoPromptsEvent per `data:` line; complete or error ends it',
            contentType: 'text/event-stream',
            schema: videoPromptsEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      requireSlot(ctx.providers, 'promptWriter');
      const fields = await readFields(request, ctx.uploads);
      const input = validate(body, fields);
      const errors: Parameters<typeof refuse>[0] = [];
      const text = input.prompt?.trim();
      if (text && text.length > MAX_PROMPT_LENGTH) {
        errors.push({ field: 'prompt', key: 'text_too_long', max: MAX_PROMPT_LENGTH, message: `prompt must be at most ${MAX_PROMPT_LENGTH} characters` });
      }
      const fabricJson =
        typeof input.fabric_info === 'string' ? input.fabric_info : input.fabric_info ? JSON.stringify(input.fabric_info) : undefined;
      const fabric = fabricFrom(fabricJson ? { fabric_info: fabricJson } : {}, errors);
      if (errors.length > 0) refuse(errors);
      const language = languageOf(input.language, request);
      const ids = [...new Set(input.image_ids)];
      const images = await ctx.repo.imagesOfUser(user.id, ids);
      const missing = ids.find((id) => !images.some((i) => i.id === id));
      if (missing !== undefined) throw new AppError(404, 'not_found');
      const notReady = images.find((i) => i.status !== 'completed' || !i.file_id);
      if (notReady) throw new AppError(409, 'image_not_ready', { vars: { id: notReady.id } });
      await ctx.jobs.admit(user.id, JOB_KINDS.videoPrompts, ids.length);

      const stream = openEventStream<VideoPromptsEvent>(request, reply);
      const say = (key: Parameters<typeof message>[0], vars?: Record<string, string | number>) => message(key, language, vars);
      const outcome = new Map<number, Omit<VideoPromptsOutcome, 'image_id'>>();
      const overall = () => Math.round((100 * outcome.size) / ids.length);
      /** Images whose prompt text this stream has shown. */
      const streamedText = new Set<number>();
      const finishIfDone = () => {
        if (outcome.size < ids.length) return;
        stream.send({ type: 'progress', progress: 100, message: say('progress_completed') });
        stream.send({
          type: 'complete',
          count: ids.length,
          images: ids.map((id) => ({ image_id: id, ...outcome.get(id)! })),
        });
        stream.end();
      };
      const unsubscribes = ids.map((imageId) =>
        ctx.jobs.onProgress(topics.videoPrompts(imageId), (raw) => {
          const event = raw as GenerationEvent;
          stream.inTurn(
            async () => {
              // Nothing more of an image after its outcome.
              if (outcome.has(imageId)) return;
              if (event.type === 'started') {
                stream.send({ type: 'progress', image_id: imageId, progress: overall(), message: say('progress_generating') });
              } else if (event.type === 'prompt_text') {
                streamedText.add(imageId);
                stream.send({ type: 'prompt_streaming', image_id: imageId, index: event.index, content: event.content, offset: event.offset });
              } else if (event.type === 'text_reset') {
                // A new attempt after this stream showed its text: the page drops it.
                if (streamedText.delete(imageId)) stream.send({ type: 'prompt_streaming_reset', image_id: imageId });
              } else if (event.type === 'retrying') {
                stream.send({ type: 'progress', image_id: imageId, progress: overall(), message: say('progress_generating'), retry_in_ms: event.delay_ms, reason: event.code });
              } else if (event.type === 'prompts_ready') {
                const prompts = (await ctx.repo.videoPrompts([imageId])).map(ctx.views.videoPrompt);
                outcome.set(imageId, { status: 'completed', prompts });
                stream.send({ type: 'prompts', image_id: imageId, prompts });
                stream.send({ type: 'progress', image_id: imageId, progress: overall(), message: say('progress_completed') });
                finishIfDone();
              } else if (event.type === 'failed') {
                const error = {
                  code: event.error_code ?? 'internal',
                  message: failureMessage({ ...event, error_detail: null }, language) ?? say('video_prompt_failed'),
                };
                outcome.set(imageId, { status: 'failed', prompts: [], error });
                stream.send({ type: 'image_error', image_id: imageId, ...error });
                finishIfDone();
              }
            },
            (error: unknown) => {
              ctx.log.error({ err: error }, 'video prompt stream could not send an event');
              stream.send({ type: 'error', code: 'internal', message: say('video_prompt_failed') });
              stream.end();
            },
          );
        }),
      );
      try {
        stream.send({ type: 'connected', image_ids: ids });
        stream.send({ type: 'progress', progress: 0, message: say('progress_connecting') });
        for (const imageId of ids) {
          await ctx.jobs.enqueue({
            kind: JOB_KINDS.videoPrompts,
            refId: imageId,
            userId: user.id,
            params: { ...(text ? { prompt: text } : {}), language, fabric },
          });
        }
        await stream.finished;
      } catch (error) {
        ctx.log.error({ err: error }, 'video prompt stream failed');
        stream.send({ type: 'error', code: 'internal', message: say('video_prompt_failed') });
        stream.end();
      } finally {
        for (const unsubscribe of unsubscribes) unsubscribe();
        await stream.stepsDone();
      }
    },
  );
}
