// The workshop calls of the third group (ADMIN only): create an item (queued as a job), list, detail,
// its event stream (the text as it is written), cancel, retry, and the models on offer. Creating writes the item and its job in one transaction,
// replayed by Idempotency-Key.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/app-error.js';
import { currentUser } from '../../http/current-user.js';
import { fingerprintOf, idempotencyKeyOf } from '../../http/idempotency-store.js';
import { ok } from '../../http/envelope.js';
import { localeFrom } from '../../http/messages.js';
import { idField, idParams, integerField } from '../../http/strict-numbers.js';
import { admitForm } from '../../http/multipart-form.js';
import { validate } from '../../http/validate.js';
import { contentHash } from '../../storage/content-hash.js';
import { checkUploadedImage } from '../../storage/upload-check.js';
import type { GenerationContext } from '../generation/generation-context.js';
import { NO_FAILURE } from '../generation/failure.js';
import { generationDb } from '../generation/store/generation-tables.js';
import { MAX_PAGE_SIZE, pageOf } from '../generation/history/page-query.js';
import { openEventStream } from '../generation/event-stream.js';
import { parseConfig } from './workshop-config.js';
import { readWorkshopInput, workshopFormBytes, workshopFormDoc } from './workshop-form.js';
import { WORKSHOP_JOB } from './workshop-job.js';
import { enhancerFor, workshopModelSchema, workshopModels } from './workshop-models.js';
import { createWorkshopRepository, type WorkshopRepository } from './workshop-repository.js';
import { WORKSHOP_STATUSES } from './workshop-table.js';
import { createWorkshopViews, workshopItemPageSchema, workshopItemSchema } from './workshop-views.js';
import { streamWorkshopItem } from './workshop-stream.js';
import { workshopStreamEventSchema, type WorkshopStreamEvent } from './workshop-stream-events.js';

const listQuery = z.object({
  cursor: idField().optional(),
  limit: integerField(1, MAX_PAGE_SIZE).default(20),
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
  const jobOf = (id: number, userId: number, model: string | undefined) => ({ kind: WORKSHOP_JOB, refId: id, userId, params: model ? { model } : {} });

  app.get(
    '/workshop/models',
    {
      config: {
        openapi: {
          summary: 'The enhancers the workshop offers (the built-in engine named as a local preview)',
          tags: ['workshop'],
          response: { data: z.array(workshopModelSchema) },
        },
      },
    },
    async (request) => ok(request, workshopModels(enhancers(), locale(request))),
  );

  app.post(
    '/workshop/items',
    {
      config: {
        openapi: {
          summary: 'A text, image or mixed enhancement, queued (multipart or JSON; replayed by Idempotency-Key)',
          tags: ['workshop'],
          body: workshopFormDoc,
          bodyContentType: 'multipart/form-data',
          response: { status: 201, data: workshopItemSchema },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // Refused with a 503 before a form's body is read when other uploads fill the budget; the
      // images count against it until they are on disk and the item is queued.
      const hold = admitForm(request, ctx.uploads, workshopFormBytes(ctx.uploadLimits.maxBytes));
      try {
        const key = idempotencyKeyOf(request);
        const input = await readWorkshopInput(request, ctx.uploadLimits.maxBytes, hold);
        const slot = enhancerFor(enhancers(), input.config.model);
        if (!slot) {
          if (input.config.model) throw new AppError(400, 'unknown_generation_model', { vars: { model: input.config.model } });
          throw new AppError(503, 'generation_unavailable');
        }
        const checked = await Promise.all(input.images.map((i) => checkUploadedImage(i.data, i.name, ctx.uploadLimits)));
        // Files are stored by content, so storing them again for a replay changes nothing.
        const stored = await Promise.all(input.images.map((i, n) => ctx.files.put(i.data, checked[n]!.mimeType, checked[n])));
        const fingerprint = fingerprintOf('POST', '/workshop/items', {
          type: input.type,
          text: input.text ?? null,
          config: input.config,
          language: input.language,
          images: input.images.map((i) => contentHash(i.data)),
        });
        const admit = () => ctx.jobs.admit(user.id, WORKSHOP_JOB);
        const result = await ctx.idempotency.run(user.id, key, fingerprint, async (trx) => {
          const inTrx = createWorkshopRepository(generationDb(trx), ctx.now);
          const created = await inTrx.insert({
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
          await ctx.jobs.enqueue(jobOf(created.id, user.id, slot.provider), { trx });
          return { status: 201, messageKey: 'generation_started', data: { id: created.id } };
        }, admit);
        // A replay shows the item the first call made, as it is now.
        const row = await repo.itemOfUser(user.id, (result.data as { id: number }).id);
        if (!row) throw new AppError(404, 'not_found');
        reply.code(result.status);
        if (result.replayed) void reply.header('idempotent-replayed', 'true');
        const [view] = await views.items([row], locale(request));
        return { ...ok(request, view, result.messageKey), code: result.status };
      } finally {
        hold.close();
      }
    },
  );

  app.get(
    '/workshop/items',
    {
      config: {
        openapi: {
          summary: "The user's workshop items, newest first",
          tags: ['workshop'],
          query: listQuery,
          response: { data: workshopItemPageSchema },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = validate(listQuery, request.query);
      const rows = await repo.page(user.id, page);
      return ok(request, pageOf(rows, page, await views.items(rows.slice(0, page.limit), locale(request))));
    },
  );

  app.get(
    '/workshop/items/:id',
    { config: { openapi: { summary: 'One workshop item with its result', tags: ['workshop'], response: { data: workshopItemSchema } } } },
    async (request) => {
      const [view] = await views.items([await one(request)], locale(request));
      return ok(request, view);
    },
  );

  app.get(
    '/workshop/items/:id/events',
    {
      config: {
        openapi: {
          summary: 'One workshop item followed to its end, its text as it is written (event stream; replays the item on connect)',
          tags: ['workshop'],
          response: {
            description: 'One WorkshopStreamEvent per `data:` line; complete or error ends it',
            contentType: 'text/event-stream',
            schema: workshopStreamEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      // Refused as the other calls are (404 for another person's item) before the stream opens.
      const row = await one(request);
      await streamWorkshopItem(ctx, repo, views, row.id, openEventStream<WorkshopStreamEvent>(request, reply), locale(request));
    },
  );

  app.post(
    '/workshop/items/:id/cancel',
    { config: { openapi: { summary: 'Cancel a pending or processing item', tags: ['workshop'], response: { data: workshopItemSchema } } } },
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
    {
      config: {
        openapi: {
          summary: 'Run an item again from its stored input and config (replayed by Idempotency-Key)',
          tags: ['workshop'],
          response: { data: workshopItemSchema },
        },
      },
    },
    async (request, reply) => {
      const row = await one(request);
      const key = idempotencyKeyOf(request);
      const model = parseConfig(row.config_json).model;
      if (!enhancerFor(enhancers(), model)) throw new AppError(503, 'generation_unavailable');
      const fingerprint = fingerprintOf('POST', `/workshop/items/${row.id}/retry`, null);
      // A resend of a retry whose answer was lost is answered from its key, even once the run it
      // started has ended, and even once the user's queue is full: the item runs once per retry.
      const admit = () => ctx.jobs.admit(row.user_id, WORKSHOP_JOB);
      const result = await ctx.idempotency.run(row.user_id, key, fingerprint, async (trx) => {
        if (row.status === 'pending' || row.status === 'processing') throw new AppError(409, 'still_running');
        const reopened = await createWorkshopRepository(generationDb(trx), ctx.now).move(row.id, 'pending', {
          result_text: null,
          result_changes_json: null,
          result_file_ids: null,
          confidence: null,
          model: null,
          started_at: null,
          completed_at: null,
          processing_ms: null,
          ...NO_FAILURE,
        });
        // Another retry got there first: it queued the run.
        if (!reopened) throw new AppError(409, 'still_running');
        await ctx.jobs.enqueue(jobOf(row.id, row.user_id, model), { trx });
        return { status: 200, messageKey: 'generation_started', data: { id: row.id } };
      }, admit);
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      const [view] = await views.items([(await repo.item(row.id))!], locale(request));
      return ok(request, view, result.messageKey);
    },
  );
}
