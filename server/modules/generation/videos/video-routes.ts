// The main group's video calls: create (one or several), list with load-more, detail with every
// field of spec §3, retry from the original parameters, cancel, and an event stream of the
// progress of running videos.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../http/app-error.js';
import { currentUser } from '../../../http/current-user.js';
import { fingerprintOf, idempotencyKeyOf } from '../../../http/idempotency-store.js';
import { ok } from '../../../http/envelope.js';
import { localeFrom, message } from '../../../http/messages.js';
import { idListField, idParams } from '../../../http/strict-numbers.js';
import { validate } from '../../../http/validate.js';
import { openEventStream, STATE_CHECK_MS } from '../event-stream.js';
import { videoEventSchema, type VideoEvent } from './video-events.js';
import type { GenerationContext } from '../generation-context.js';
import { videoDetailSchema, videoGenerationPageSchema, videoGenerationSchema } from '../generation-views.js';
import type { VideoGenerationRow } from '../store/generation-tables.js';
import { engineProgressMessage } from '../engines/engine-progress.js';
import { topics, type GenerationEvent } from '../job-topics.js';
import { pageOf, pageQuerySchema } from '../history/page-query.js';
import { createVideosSchema, createVideoService, MAX_VIDEOS_PER_CALL } from './video-service.js';

const eventsQuery = z.object({
  ids: idListField(0, 100).optional(),
});
const finished = (row: VideoGenerationRow) => row.status === 'completed' || row.status === 'failed';

export function registerVideoRoutes(app: FastifyInstance, ctx: GenerationContext): void {
  const service = createVideoService(ctx);
  const locale = (request: FastifyRequest) => localeFrom(request.headers['accept-language']);

  app.post(
    '/user/video-generations',
    {
      config: {
        openapi: {
          summary: `Start video generations from generated images (one spec, or items: up to ${MAX_VIDEOS_PER_CALL}); all or none, replayed by Idempotency-Key`,
          tags: ['video'],
          body: createVideosSchema,
          response: { status: 201, data: z.array(videoGenerationSchema) },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const key = idempotencyKeyOf(request);
      const { items } = validate(createVideosSchema, request.body);
      const result = await service.create(user.id, items, locale(request), {
        key,
        fingerprint: fingerprintOf('POST', '/user/video-generations', items),
      });
      // A replay shows the rows the first call made, as they are now.
      const found = await ctx.repo.videosOfUser(user.id, result.data.ids);
      const rows = result.data.ids.map((id) => found.find((r) => r.id === id)).filter((r): r is VideoGenerationRow => !!r);
      reply.code(result.status);
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      return { ...ok(request, await ctx.views.videos(rows, locale(request)), result.messageKey), code: result.status };
    },
  );

  app.get(
    '/user/video-generations',
    {
      config: {
        openapi: {
          summary: 'Video generations, newest first (load more with ?cursor=next_cursor)',
          tags: ['history'],
          query: pageQuerySchema,
          response: { data: videoGenerationPageSchema },
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const page = validate(pageQuerySchema, request.query);
      const rows = await ctx.repo.pageOfVideos(user.id, page);
      return ok(request, pageOf(rows, page, await ctx.views.videos(rows.slice(0, page.limit), locale(request))));
    },
  );

  app.get(
    '/user/video-generations/events',
    {
      config: {
        openapi: {
          summary: 'Progress of running videos (event stream; ?ids=1,2 or every running one)',
          tags: ['video'],
          query: eventsQuery,
          response: {
            description: 'One VideoEvent per `data:` line: a video (a snapshot, and again when one ends), its progress; complete ends it',
            contentType: 'text/event-stream',
            schema: videoEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { ids } = validate(eventsQuery, request.query);
      const lang = locale(request);
      const rows = ids
        ? await ctx.repo.videosOfUser(user.id, ids)
        : (await ctx.repo.pageOfVideos(user.id, { limit: 100 })).filter((r) => !finished(r));
      // Every video of the call, until its final view (completed or failed) is sent on this stream;
      // `complete` waits for all of them, those already ended when the stream opened as well.
      const unsent = new Set(rows.map((r) => r.id));
      const stream = openEventStream<VideoEvent>(request, reply);
      // Everything this stream sends goes through its queue (stream.inTurn): the snapshot, each job
      // event, each state check, so `complete` never passes a final view still being read.
      const inTurn = (step: () => Promise<void>, failure: string) =>
        stream.inTurn(step, (error: unknown) => ctx.log.warn({ err: error }, failure));
      const sendVideo = async (id: number) => {
        // After its final view nothing more of a video is sent.
        if (!unsent.has(id)) return;
        const row = await ctx.repo.video(id);
        if (!row) return;
        const [view] = await ctx.views.videos([row], lang);
        stream.send({ type: 'video', video: view! });
        if (finished(row)) unsent.delete(id);
      };
      const endIfDone = () => {
        if (unsent.size > 0) return;
        stream.send({ type: 'complete', message: message('progress_completed', lang) });
        stream.end();
      };
      const unsubscribes = rows
        .filter((r) => !finished(r))
        .map(({ id }) =>
          ctx.jobs.onProgress(topics.video(id), (raw) => {
            const event = raw as GenerationEvent;
            inTurn(async () => {
              // A job's late word (progress written just before its cancel) after the video's final view is dropped.
              if (!unsent.has(id)) return;
              if (event.type === 'progress') {
                const told = engineProgressMessage(event.detail, lang);
                stream.send({ type: 'progress', id, status: 'generating', progress: event.progress, ...(told ? { message: told } : {}) });
              } else if (event.type === 'started') {
                stream.send({ type: 'progress', id, status: 'generating', progress: 1 });
              } else if (event.type === 'retrying') {
                stream.send({ type: 'progress', id, status: 'generating', retry_in_ms: event.delay_ms, reason: event.code });
              } else if (event.type === 'completed' || event.type === 'failed') {
                await sendVideo(id);
                endIfDone();
              }
            }, 'video event stream could not send an event');
          }),
        );
      // The snapshot is the queue's first step (queued with no await after subscribing), so it reads
      // the rows after the events are watched, and the events that arrive meanwhile come after it.
      inTurn(async () => {
        for (const id of [...unsent]) await sendVideo(id);
        endIfDone();
      }, 'video event stream could not send its snapshot');
      // An end whose event never reached this replica (team mode: a notification missed while its
      // listener reconnected) is found in the rows.
      stream.every(STATE_CHECK_MS, () =>
        inTurn(async () => {
          if (unsent.size === 0) return;
          const current = await ctx.repo.videosOfUser(user.id, [...unsent]);
          const ended = current.filter(finished);
          if (ended.length === 0) return;
          for (const row of ended) await sendVideo(row.id);
          endIfDone();
        }, 'video event stream could not read its videos again'),
      );
      try {
        await stream.finished;
      } finally {
        for (const unsubscribe of unsubscribes) unsubscribe();
        await stream.stepsDone();
      }
    },
  );

  app.get(
    '/user/video-generations/:id',
    {
      config: {
        openapi: { summary: 'One video generation with every detail of spec §3', tags: ['history'], response: { data: videoDetailSchema } },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      const [row] = await ctx.repo.videosOfUser(user.id, [id]);
      if (!row) throw new AppError(404, 'not_found');
      return ok(request, await ctx.views.videoDetail(row, locale(request)));
    },
  );

  app.post(
    '/user/video-generations/:id/retry',
    {
      config: {
        openapi: {
          summary: 'A new video generation from the original parameters of this one (replayed by Idempotency-Key)',
          tags: ['video'],
          response: { status: 201, data: videoDetailSchema },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      const key = idempotencyKeyOf(request);
      const result = await service.retry(user.id, id, locale(request), {
        key,
        fingerprint: fingerprintOf('POST', `/user/video-generations/${id}/retry`, null),
      });
      reply.code(result.status);
      if (result.replayed) void reply.header('idempotent-replayed', 'true');
      return { ...ok(request, await ctx.views.videoDetail(result.row, locale(request)), result.messageKey), code: result.status };
    },
  );

  app.post(
    '/user/video-generations/:id/cancel',
    { config: { openapi: { summary: 'Cancel a running video generation', tags: ['video'], response: { data: videoDetailSchema } } } },
    async (request) => {
      const user = currentUser(request);
      const { id } = validate(idParams, request.params);
      const row = await service.cancel(user.id, id);
      return ok(request, await ctx.views.videoDetail(row, locale(request)), 'generation_cancelled');
    },
  );
}
