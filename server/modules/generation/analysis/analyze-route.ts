// POST /analyze-images-json-stream: the designer's uploads, prompt and fabric form become an analyse
// request row and a job; the reply streams the spec's events (progress with the spec's messages,
// streaming analysis text, progress per saved candidate image, complete with the request, or
// error). The job does not depend on the stream: a client that is cut off finds the finished
// work through POST /user/image-requests, and resending the same request_id joins the same work
// (a failed one is tried again) instead of starting another.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../http/app-error.js';
import { currentUser } from '../../../http/current-user.js';
import { ok } from '../../../http/envelope.js';
import { message, type Locale } from '../../../http/messages.js';
import { admitForm } from '../../../http/multipart-form.js';
import { isUniqueViolation } from '../../../db/unique-violation.js';
import { checkUploadedImage } from '../../../storage/upload-check.js';
import { analyzeFormBytes, readAnalyzeForm, type AnalyzeForm } from './analyze-form.js';
import { ASPECTS, FABRIC_FIELD_LIMITS, MAX_PROMPT_LENGTH } from '../form-fields.js';
import { openEventStream, STATE_CHECK_MS, type EventStream } from '../event-stream.js';
import { analyzeEventSchema, type AnalyzeEvent, type AnalyzeProgressEvent } from './analyze-events.js';
import { failureMessage } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { requireSlot } from '../engines/generation-providers.js';
import type { GeneratedImageRow, GenerationRequestRow } from '../store/generation-tables.js';
import { engineProgressMessage } from '../engines/engine-progress.js';
import { JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { parseAnalysis } from '../store/stored-json.js';
import { MAX_IMAGES_TOTAL, MAX_MODEL_IMAGES, MAX_PATTERN_IMAGES } from '../../../../shared/generation/image-limits.js';

const formDoc = z.object({
  prompt: z.string().max(MAX_PROMPT_LENGTH),
  request_id: z.string().max(128).optional(),
  model_images: z.array(z.string()).max(MAX_MODEL_IMAGES).optional().describe(`files (binary), at most ${MAX_MODEL_IMAGES}`),
  pattern_images: z
    .array(z.string())
    .max(MAX_PATTERN_IMAGES)
    .optional()
    .describe(`files (binary), at most ${MAX_PATTERN_IMAGES}; ${MAX_IMAGES_TOTAL} images in all`),
  description: z.string().max(MAX_PROMPT_LENGTH).optional(),
  language: z.enum(['zh-CN', 'en-US', 'vi-VN', 'th-TH', 'id-ID']).optional(),
  aspect: z.enum(ASPECTS as [string, ...string[]]).optional(),
  fabric_info: z.string().optional().describe('JSON of the fabric form; or each field on its own'),
  ...Object.fromEntries(Object.entries(FABRIC_FIELD_LIMITS).map(([k, max]) => [k, z.string().max(max).optional()])),
});

export function registerAnalyzeRoute(app: FastifyInstance, ctx: GenerationContext): void {
  app.post(
    '/analyze-images-json-stream',
    {
      config: {
        openapi: {
          summary: 'Analyse model and pattern images, then generate six candidates (event stream)',
          tags: ['image'],
          body: formDoc,
          bodyContentType: 'multipart/form-data',
          response: {
            description: 'One AnalyzeEvent per `data:` line; complete (data.candidates: made, refused, message) or error ends it',
            contentType: 'text/event-stream',
            schema: analyzeEventSchema,
          },
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      requireSlot(ctx.providers, 'analyser');
      requireSlot(ctx.providers, 'imageGenerator');
      // Refused with a 503 before the body is read when other uploads fill the budget; the files
      // count against it until they are on disk.
      const hold = admitForm(request, ctx.uploads, analyzeFormBytes(ctx.uploadLimits.maxBytes));
      let form: AnalyzeForm;
      let row: GenerationRequestRow | undefined;
      try {
        form = await readAnalyzeForm(request, ctx.uploadLimits.maxBytes, hold);
        const checked = await Promise.all(form.files.map((f) => checkUploadedImage(f.data, f.name, ctx.uploadLimits)));

        const clientRequestId = form.clientRequestId ?? randomUUID();
        row = await ctx.repo.requestByClientId(user.id, clientRequestId);
        if (!row) {
          await ctx.jobs.admit(user.id, JOB_KINDS.analysis);
          const stored = await Promise.all(form.files.map((f, i) => ctx.files.put(f.data, checked[i]!.mimeType, checked[i])));
          try {
            row = await ctx.repo.insertRequest({
              user_id: user.id,
              client_request_id: clientRequestId,
              prompt: form.prompt,
              description: form.description ?? null,
              fabric_json: JSON.stringify(form.fabric),
              language: form.language,
              aspect: form.aspect,
              status: 'pending',
              analysis_text: null,
              analysis_json: null,
              model: null,
              provider: null,
              started_at: null,
              completed_at: null,
              error_code: null,
              error_key: null,
              error_detail: null,
            });
            const positions = { model: 0, pattern: 0 };
            await ctx.repo.addUploads(
              row.id,
              form.files.map((f, i) => ({ fileId: stored[i]!.id, role: f.role, position: positions[f.role]++ })),
            );
          } catch (error) {
            // The same request_id sent twice at once: the second joins the first.
            if (!isUniqueViolation(error)) throw error;
            row = await ctx.repo.requestByClientId(user.id, clientRequestId);
            if (!row) throw error;
          }
        }
      } finally {
        hold.close();
      }
      await streamRequest(ctx, row, openEventStream<AnalyzeEvent>(request, reply), form.language);
    },
  );

  app.post<{ Params: { request_id: string } }>(
    '/analyze-requests/:request_id/cancel',
    { config: { openapi: { summary: 'Cancel an analyse request (its analysis or its candidates)', tags: ['image'] } } },
    async (request) => {
      const user = currentUser(request);
      const row = await ctx.repo.requestByClientId(user.id, request.params.request_id);
      if (!row) throw new AppError(404, 'not_found');
      const outcomes = [
        await ctx.jobs.cancel(JOB_KINDS.analysis, row.id),
        await ctx.jobs.cancel(JOB_KINDS.candidates, row.id),
      ];
      if (outcomes.every((o) => o === 'not_running')) throw new AppError(409, 'already_finished');
      return ok(request, { request_id: row.client_request_id, id: row.id }, 'generation_cancelled');
    },
  );
}

/** Follows one analyse request to its end, starting (or restarting) its job when none runs. */
async function streamRequest(ctx: GenerationContext, row: GenerationRequestRow, stream: EventStream<AnalyzeEvent>, language: Locale) {
  const say = (key: Parameters<typeof message>[0], vars?: Record<string, string | number>) => message(key, language, vars);
  let progress = 2;
  let streaming = false;
  /** What a progress event may carry beside its bar and words. */
  type ProgressExtra = Omit<AnalyzeProgressEvent, 'type' | 'progress' | 'message'>;
  const sendProgress = (value: number, key: Parameters<typeof message>[0], extra: ProgressExtra = {}, vars?: Record<string, string | number>) => {
    progress = Math.max(progress, value);
    stream.send({ type: 'progress', progress, message: say(key, vars), ...extra });
  };
  const finish = async () => {
    const [view] = await ctx.views.requests([(await ctx.repo.request(row.id))!], language);
    sendProgress(100, 'progress_completed');
    stream.send({ type: 'complete', data: view! });
    stream.end();
  };
  const fail = (event: { error_code: string | null; error_key: string | null }) => {
    stream.send({
      type: 'error',
      code: event.error_code ?? 'internal',
      message: failureMessage({ ...event, error_detail: null }, language) ?? say('analysis_error'),
    });
    stream.end();
  };

  // What this stream has said about the stages, so a replay and a live event never say it twice.
  let analysedSent = false;
  const imagesSent = new Set<number>();
  const sendAnalysed = async () => {
    if (analysedSent) return;
    analysedSent = true;
    const current = await ctx.repo.request(row.id);
    sendProgress(50, 'progress_generating', {
      stage: 'analysed',
      analysis: { text: current?.analysis_text ?? '', data: parseAnalysis(current?.analysis_json ?? null) ?? null },
    });
  };
  const sendImage = async (image: GeneratedImageRow, index: number, total: number) => {
    if (imagesSent.has(image.id)) return;
    imagesSent.add(image.id);
    const [view] = await ctx.views.images([image], language);
    sendProgress(50 + Math.round((45 * index) / total), 'progress_image_ready', { stage: 'image_ready', image: view }, { index, total });
  };
  /** A stream that (re)connects to running work first hears where it is: the analysis, the images saved so far. */
  const replay = async () => {
    const current = await ctx.repo.request(row.id);
    if (!current?.analysis_text) return;
    await sendAnalysed();
    const images = await ctx.repo.imagesOfRequests([row.id]);
    let done = 0;
    for (const image of images) {
      if (image.status !== 'completed') continue;
      done += 1;
      await sendImage(image, done, images.length);
    }
  };

  // Everything this stream sends goes through its queue (stream.inTurn): its opening read, each
  // job event, each state check.
  const failInternally = (what: string) => (error: unknown) => {
    ctx.log.error({ err: error }, what);
    fail({ error_code: 'internal', error_key: 'analysis_error' });
  };

  const unsubscribe = ctx.jobs.onProgress(topics.request(row.id), (raw) => {
    const event = raw as GenerationEvent;
    stream.inTurn(async () => {
      switch (event.type) {
        case 'started':
          sendProgress(10, 'progress_engine_ready');
          break;
        case 'text':
          if (!streaming) {
            streaming = true;
            sendProgress(15, 'progress_generating');
          }
          stream.send({ type: 'streaming', content: event.content, offset: event.offset });
          break;
        case 'text_reset':
          // A new attempt after this stream showed text: the reader drops it, so no sentence is read twice.
          if (streaming) stream.send({ type: 'streaming_reset' });
          break;
        case 'analysed':
          await sendAnalysed();
          break;
        case 'image_ready': {
          const image = await ctx.repo.image(event.image_id);
          if (image) await sendImage(image, event.index, event.total);
          break;
        }
        case 'retrying':
          stream.send({ type: 'progress', progress, message: say('progress_generating'), retry_in_ms: event.delay_ms, reason: event.code });
          break;
        case 'progress': {
          // A candidate's queue position or steps on a self-hosted engine: the bar stays, the words say where it is.
          const told = engineProgressMessage(event.detail, language);
          if (told) stream.send({ type: 'progress', progress, message: told, ...(event.index !== undefined ? { index: event.index } : {}) });
          break;
        }
        case 'completed':
          await finish();
          break;
        case 'failed': {
          // The end only while the request is still failed: a failure the opening step below found
          // and started again (or another resend did) is over, and this stream follows the new run.
          const current = await ctx.repo.request(row.id);
          if (!current) fail(event);
          else if (current.status === 'failed') fail(current);
          break;
        }
        default:
          break;
      }
    }, failInternally('analyse stream could not send an event'));
  });

  // The opening step is the queue's first (queued with no await after subscribing): it reads the
  // request after its events are watched, so nothing that ends from here on is missed, and the
  // events that arrive meanwhile come after what it says, judged against what it did.
  stream.inTurn(async () => {
    sendProgress(2, 'progress_connecting', { request_id: row.client_request_id, id: row.id });
    const current = (await ctx.repo.request(row.id)) ?? row;
    if (current.status === 'completed') {
      await finish();
      return;
    }
    const running =
      (await ctx.jobs.isActive(JOB_KINDS.analysis, row.id)) || (await ctx.jobs.isActive(JOB_KINDS.candidates, row.id));
    if (!running) {
      if (current.status === 'failed') await ctx.repo.reopenRequest(row.id);
      await ctx.jobs.enqueue({ kind: JOB_KINDS.analysis, refId: row.id, userId: row.user_id });
    } else if (current.status === 'generating') {
      sendProgress(10, 'progress_engine_ready');
      // Not being able to say the work so far ends nothing: the live events and the state check carry on.
      await replay().catch((error: unknown) => ctx.log.warn({ err: error }, 'analyse stream could not replay the work so far'));
    }
  }, failInternally('analyse stream failed'));

  // An end (or a stage) whose event never reached this replica (team mode: a notification missed
  // while its listener reconnected) is found in the rows.
  stream.every(STATE_CHECK_MS, () =>
    stream.inTurn(
      async () => {
        const current = await ctx.repo.request(row.id);
        if (!current || current.status === 'pending') return;
        await replay();
        if (current.status === 'completed') await finish();
        else if (current.status === 'failed') fail(current);
      },
      (error: unknown) => ctx.log.warn({ err: error }, 'analyse stream could not read its request again'),
    ),
  );
  try {
    await stream.finished;
  } finally {
    unsubscribe();
    await stream.stepsDone();
  }
}
