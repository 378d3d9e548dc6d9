// The analyse step of an analyse request: the provider writes the analysis (streamed to watchers
// as it is written), it is checked and saved, then the six candidate rows are made and the
// candidates job is queued. A re-run after a restart skips what is already saved.
import type { JobHandler } from '../../../jobs/job-handler.js';
import { runOwner } from '../../../jobs/run-owner.js';
import { ProviderError } from '../../../providers/capabilities.js';
import { checkedAnalysis } from './analysis-check.js';
import { failureColumns, NO_FAILURE } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { laneOf } from '../engines/generation-providers.js';
import { createGenerationRepository } from '../store/generation-repository.js';
import { generationDb } from '../store/generation-tables.js';
import { mustMove, stopsWhenRowMovesOn } from '../store/row-states.js';
import { openRequest } from './open-request.js';
import { CANDIDATE_COUNT, JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { inputImage } from '../store/stored-images.js';
import { parseAnalysis, parseFabric } from '../store/stored-json.js';
import type { Language } from '../../../providers/capabilities.js';
import { failureKind } from '../../../jobs/retryable-error.js';

/** Spec §9's image call timeout. */
const ANALYSIS_TIMEOUT_MS = 600_000;

export function analysisJob(ctx: GenerationContext): JobHandler {
  return {
    kind: JOB_KINDS.analysis,
    lane: () => laneOf(ctx.providers.analyser),
    timeoutMs: ANALYSIS_TIMEOUT_MS,
    run: stopsWhenRowMovesOn(async ({ job, signal, publish }) => {
      // The request is this run's from here: a run that lost the job no longer writes it.
      const owner = runOwner(job);
      const repo = ctx.repo.ownedBy(owner);
      await repo.takeRequest(job.ref_id);
      const request = await openRequest(repo, job.ref_id, publish);
      if (!request) return;
      const topic = topics.request(request.id);
      const send = (event: GenerationEvent) => publish(topic, event);
      signal.throwIfAborted();
      const what = `request ${request.id}`;
      mustMove(await repo.moveRequest(request.id, 'generating', { started_at: request.started_at ?? repo.now(), ...NO_FAILURE }), what);
      send({ type: 'started' });

      let analysis = parseAnalysis(request.analysis_json);
      if (!analysis) {
        const slot = ctx.providers.analyser;
        if (!slot) throw new ProviderError('unavailable', 'no analyser is configured');
        const uploads = await repo.uploads([request.id]);
        const images = await Promise.all(uploads.map((u) => inputImage(ctx.files, u.file_id, u.role)));
        // This run's text starts from nothing: a client still showing an earlier run's cut text drops it.
        let offset = 0;
        send({ type: 'text_reset' });
        const raw = await slot.impl.analyse(
          {
            prompt: request.prompt,
            fabric: parseFabric(request.fabric_json),
            ...(request.description ? { description: request.description } : {}),
            modelImages: images.filter((i) => i.role === 'model'),
            patternImages: images.filter((i) => i.role === 'pattern'),
            language: request.language as Language,
            signal,
          },
          (chunk) => {
            if (signal.aborted || !chunk) return;
            send({ type: 'text', content: chunk, offset });
            offset += chunk.length;
          },
          // The adapter asks again after a cut stream: what was shown is dropped, never shown twice.
          () => {
            offset = 0;
            send({ type: 'text_reset' });
          },
        );
        signal.throwIfAborted();
        const result = checkedAnalysis(raw);
        analysis = result.data;
        const saved = await repo.moveRequest(request.id, 'generating', {
          analysis_text: result.text,
          analysis_json: JSON.stringify(result.data),
          model: result.model,
          provider: slot.provider,
        });
        mustMove(saved, what);
      }
      send({ type: 'analysed' });
      signal.throwIfAborted();

      // The candidate rows exist before their job, so a recovering client sees six places at once.
      // They are written only while the request still runs: the guard's row lock holds a cancel's
      // write until they are committed, and the cancel then fails them with the request. (A crash
      // before the job is queued re-runs this job, which finds the rows and queues it.)
      // A collection's request makes its own number of candidates and its batch queues the next
      // stage in this same transaction (stageEnds.analysed); the workflow's queues it below.
      const queuedByBatch = await ctx.baseDb.transaction().execute(async (trx) => {
        const inTrx = createGenerationRepository(generationDb(trx), ctx.now, owner);
        mustMove(await inTrx.moveRequest(request.id, 'generating'), what);
        if ((await inTrx.imagesOfRequests([request.id])).length === 0) {
          await inTrx.insertImages(
            Array.from({ length: request.candidate_count ?? CANDIDATE_COUNT }, (_, position) => ({
              user_id: request.user_id,
              request_id: request.id,
              parent_image_id: null,
              generation_id: `request-${request.id}`,
              position,
              prompt: analysis.image_prompt || request.prompt,
              status: 'pending' as const,
              file_id: null,
              thumbnail_file_id: null,
              width: null,
              height: null,
              aspect: request.aspect,
              style: analysis.style || null,
              model: null,
              provider: null,
              moments_text: analysis.moments_text || null,
              label: null,
              language: request.language,
              completed_at: null,
              ...NO_FAILURE,
            })),
          );
        }
        return (await ctx.stageEnds?.analysed(trx, request.id)) ?? null;
      });
      if (queuedByBatch) {
        queuedByBatch();
        return;
      }
      signal.throwIfAborted();
      await ctx.jobs.enqueue({ kind: JOB_KINDS.candidates, refId: request.id, userId: request.user_id });
    }),
    async fail(job, error, _reason, publish) {
      // Finished work stays finished: a cancel that lands as the work completes changes nothing.
      const failure = failureColumns(error, 'analysis_error', 'analysis_format_error');
      const moved = await ctx.baseDb.transaction().execute(async (trx) => {
        const inTrx = createGenerationRepository(generationDb(trx), ctx.now);
        if (!(await inTrx.moveRequest(job.ref_id, 'failed', failure))) return false;
        // Candidate rows made just before the cancel end with their request.
        await inTrx.failOpenImages({ requestId: job.ref_id }, failure);
        return (await ctx.stageEnds?.requestFailed(trx, job.ref_id, failure)) ?? (() => undefined);
      });
      if (!moved) return;
      moved();
      publish(topics.request(job.ref_id), { type: 'failed', error_code: failure.error_code, error_key: failure.error_key } satisfies GenerationEvent);
    },
    async retrying(job, error, delayMs, publish) {
      const code = failureKind(error);
      publish(topics.request(job.ref_id), { type: 'retrying', delay_ms: delayMs, code } satisfies GenerationEvent);
    },
  };
}
