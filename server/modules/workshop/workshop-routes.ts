// The workshop calls of the third group (ADMIN only): create an item (queued as a job), list, detail,
// cancel, retry, and the models on offer.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/current-user.js';
import { ok } from '../../http/envelope.js';
import { localeFrom } from '../../http/messages.js';
import { validate } from '../../http/validate.js';
import { checkUploadedImage } from '../../storage/upload-check.js';
import type { GenerationContext } from '../generation/generation-context.js';
import { NO_FAILURE } from '../generation/failure.js';
import { MAX_PAGE_SIZE, pageOf } from '../generation/page-query.js';
import { parseConfig } from './workshop-config.js';
import { readWorkshopInput, workshopFormDoc } from './workshop-form.js';
import { WORKSHOP_JOB } from './workshop-job.js';
import { enhancerFor, workshopModels } from './workshop-models.js';
import type { WorkshopRepository } from './workshop-repository.js';
import { WORKSHOP_STATUSES } from './workshop-table.js';
import { createWorkshopViews } from './workshop-views.js';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const listQuery = z.object({
  cursor: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
  status: z.enum(WORKSHOP_STATUSES).optional(),
});

export function registerWorkshopRoutes(app: FastifyInstance, ctx: GenerationContext, repo: WorkshopRepository): void {
  const views = createWorkshopViews(ctx);
  const locale = (request: FastifyRequest) => localeFrom(request.headers['accept-language']);
  const enhancers = () => ctx.providers.enhancers ?? [];
  const one = async (request: FastifyRequest) => {
    const { id } = validate(idParams, request.params);
    const row = await repo.itemOfUser(currentUser(request).id, id);
    if (!row) throw new AppError(404, 'not_found');
    return row;
  };
  const enqueue = (id: number, userId: number, model: string | undefined) =>
    ctx.jobs.enqueue({ kind: WORKSHOP_JOB, refId: id, userId, params: model ? { model } : {} });

  app.get(
    '/workshop/models',
    { config: { openapi: { summary: 'The enhancers the workshop offers (the built-in engine named as a local preview)', tags: ['workshop'] } } },
    async (request) => ok(request, workshopModels(enhancers(), locale(request))),
  );

  app.post(
    '/workshop/items',
    {
      config: {
        openapi: {
          summary: 'A text, image or mixed enhancement, queued (multipart or JSON)',
          tags: ['workshop'],
          body: workshopFormDoc,
          bodyContentType: 'multipart/form-data',
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const input = await readWorkshopInput(request, ctx.uploadLimits.maxBytes);
      const slot = enhancerFor(enhancers(), input.config.model);
      if (!slot) {
        if (input.config.model) throw new AppError(400, 'unknown_generation_model', { vars: { model: input.config.model } });
        throw new AppError(503, 'generation_unavailable');
      }
      const checked = await Promise.all(input.images.map((i) => checkUploadedImage(i.data, i.name, ctx.uploadLimits)));
      await ctx.jobs.admit(user.id, WORKSHOP_JOB);
      const stored = await Promise.all(input.images.map((i, n) => ctx.files.put(i.data, checked[n]!.mimeType, checked[n])));
      const row = await repo.insert({
        user_id: user.id,
        type: input.type,
        status: 'pending',
        input_text: input.text ?? null,
        input_file_ids: JSON.stringify(stored.map((s) => s.id)),
        config_json: JSON.stringify({ ...input.config, model: slot.provider }),
        language: input.language,
        result_text: null,
        result_file_ids: null,
        confidence: null,
        model: null,
        provider: slot.provider,
        started_at: null,
        completed_at: null,
        processing_ms: null,
        ...NO_FAILURE,
      });
      await enqueue(row.id, user.id, slot.provider);
      reply.code(201);
      const [view] = await views.items([row], locale(request));
      return { ...ok(request, view, 'generation_started'), code: 201 };
    },
  );

  app.get(
    '/workshop/items',
    { config: { openapi: { summary: "The user's workshop items, newest first", tags: ['workshop'], query: listQuery } } },
    async (request) => {
      const user = currentUser(request);
      const page = validate(listQuery, request.query);
      const rows = await repo.page(user.id, page);
      return ok(request, pageOf(rows, page, await views.items(rows.slice(0, page.limit), locale(request))));
    },
  );

  app.get(
    '/workshop/items/:id',
    { config: { openapi: { summary: 'One workshop item with its result', tags: ['workshop'] } } },
    async (request) => {
      const [view] = await views.items([await one(request)], locale(request));
      return ok(request, view);
    },
  );

  app.post(
    '/workshop/items/:id/cancel',
    { config: { openapi: { summary: 'Cancel a pending or processing item', tags: ['workshop'] } } },
    async (request) => {
      const row = await one(request);
      const outcome = await ctx.jobs.cancel(WORKSHOP_JOB, row.id);
      if (outcome === 'not_running') throw new AppError(409, 'already_finished');
      const [view] = await views.items([(await repo.item(row.id))!], locale(request));
      return ok(request, view, 'generation_cancelled');
    },
  );

  app.post(
    '/workshop/items/:id/retry',
    { config: { openapi: { summary: 'Run an item again from its stored input and config', tags: ['workshop'] } } },
    async (request) => {
      const row = await one(request);
      if (row.status === 'pending' || row.status === 'processing') throw new AppError(409, 'still_running');
      const model = parseConfig(row.config_json).model;
      if (!enhancerFor(enhancers(), model)) throw new AppError(503, 'generation_unavailable');
      await ctx.jobs.admit(row.user_id, WORKSHOP_JOB);
      await repo.update(row.id, {
        status: 'pending',
        result_text: null,
        result_file_ids: null,
        confidence: null,
        model: null,
        started_at: null,
        completed_at: null,
        processing_ms: null,
        ...NO_FAILURE,
      });
      await enqueue(row.id, row.user_id, model);
      const [view] = await views.items([(await repo.item(row.id))!], locale(request));
      return ok(request, view, 'generation_started');
    },
  );
}
