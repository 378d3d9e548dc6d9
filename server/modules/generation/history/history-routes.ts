// The main group's image history calls: a user's analyse requests for recovery, the generated
// images list and detail, and editing a video prompt. Every read is the signed-in user's own rows.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../http/app-error.js';
import { currentUser } from '../../../http/current-user.js';
import { ok } from '../../../http/envelope.js';
import { localeFrom } from '../../../http/messages.js';
import { idParams, integerField } from '../../../http/strict-numbers.js';
import { validate } from '../../../http/validate.js';
import { CAMERA_MOVES } from '../../../providers/capabilities.js';
import { REQUEST_ID } from '../form-fields.js';
import type { GenerationContext } from '../generation-context.js';
import { generatedImagePageSchema, imageDetailSchema, imageRequestSchema, videoPromptSchema } from '../generation-views.js';
import { pageOf, pageQuerySchema } from './page-query.js';

export const MAX_RECOVERED_REQUESTS = 50;
/** A video prompt is sent to MiniMax, which takes at most 2000 characters. */
export const MAX_VIDEO_PROMPT_LENGTH = 2000;

const imageRequestsBody = z
  .object({
    request_ids: z.array(z.string().regex(REQUEST_ID)).max(MAX_RECOVERED_REQUESTS).optional(),
    limit: integerField(1, MAX_RECOVERED_REQUESTS).default(10),
  })
  .default({ limit: 10 });

const promptEdit = z
  .object({
    prompt: z.string().trim().min(1, 'prompt is required').max(MAX_VIDEO_PROMPT_LENGTH).optional(),
    camera: z.array(z.enum(CAMERA_MOVES)).max(3).optional(),
  })
  .refine((b) => b.prompt !== undefined || b.camera !== undefined, 'prompt or camera is required');

/** The moments text goes out as a social post: a long post, not a document. */
export const MAX_MOMENTS_LENGTH = 2000;

const momentsEdit = z.object({
  moments_text: z.string().max(MAX_MOMENTS_LENGTH, `moments_text must be at most ${MAX_MOMENTS_LENGTH} characters`),
});

export function registerHistoryRoutes(app: FastifyInstance, ctx: GenerationContext): void {
  const locale = (request: { headers: { 'accept-language'?: string } }) => localeFrom(request.headers['accept-language']);

  app.post(
    '/user/image-requests',
    {
      config: {
        openapi: {
          summary: "The user's analyse requests with uploads, analysis and candidate images (by request_ids, or the latest)",
          tags: ['history'],
          body: imageRequestsBody,
          response: { data: z.array(imageRequestSchema) },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const body = validate(imageRequestsBody, request.body ?? {});
      const rows = await ctx.repo.requestsOfUser(user.id, body.request_ids, body.request_ids ? MAX_RECOVERED_REQUESTS : body.limit);
      return ok(request, await ctx.views.requests(rows, locale(request)));
    },
  );

  app.get(
    '/user/generated-images',
    {
      config: {
        openapi: {
          summary: 'Generated images, newest first (load more with ?cursor=next_cursor)',
          tags: ['history'],
          query: pageQuerySchema,
          response: { data: generatedImagePageSchema },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = validate(pageQuerySchema, request.query);
      const rows = await ctx.repo.pageOfImages(user.id, page);
      return ok(request, pageOf(rows, page, await ctx.views.images(rows.slice(0, page.limit), locale(request))));
    },
  );

  app.get(
    '/user/generated-images/:id',
    {
      config: {
        openapi: { summary: 'One generated image with every detail of spec §3', tags: ['history'], response: { data: imageDetailSchema } },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      const [row] = await ctx.repo.imagesOfUser(user.id, [id]);
      if (!row) throw new AppError(404, 'not_found');
      return ok(request, await ctx.views.imageDetail(row, locale(request)));
    },
  );

  // Idempotent by nature (it sets the text), so an outbox replay that arrives twice changes nothing more.
  app.put(
    '/user/generated-images/:id/moments',
    {
      config: {
        openapi: {
          summary: 'Save the moments text of one generated image',
          tags: ['history'],
          body: momentsEdit,
          response: { data: imageDetailSchema },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      const body = validate(momentsEdit, request.body);
      const text = body.moments_text.trim();
      const saved = await ctx.repo.saveMomentsText(user.id, id, text === '' ? null : text);
      if (!saved) {
        const [row] = await ctx.repo.imagesOfUser(user.id, [id]);
        if (!row) throw new AppError(404, 'not_found');
        throw new AppError(409, 'image_not_finished');
      }
      return ok(request, await ctx.views.imageDetail(saved, locale(request)), 'moments_saved');
    },
  );

  app.put(
    '/user/video-prompts/:id',
    {
      config: {
        openapi: {
          summary: 'Edit one of the three video prompts of an image',
          tags: ['video'],
          body: promptEdit,
          response: { data: videoPromptSchema },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      const body = validate(promptEdit, request.body);
      const row = await ctx.repo.videoPrompt(id);
      if (!row || row.user_id !== user.id) throw new AppError(404, 'not_found');
      const updated = await ctx.repo.editVideoPrompt(id, body);
      if (!updated) throw new AppError(404, 'not_found');
      return ok(request, ctx.views.videoPrompt(updated));
    },
  );
}
