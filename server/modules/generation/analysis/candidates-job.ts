// The six candidate images of an analyse request, from its uploads and the analysis's prompt. Each
// candidate ends on its own (candidate-images.ts): the request completes with those made, and the
// ones refused say why. A run cut by a rate limit is run again by the job runner, which asks only
// for the candidates still open; when its patience runs out, the request still completes with
// what was made, the missing ones failed with the reason.
import type { JobHandler } from '../../../jobs/job-handler.js';
import { runOwner } from '../../../jobs/run-owner.js';
import { ProviderError, type Aspect, type Language } from '../../../providers/capabilities.js';
import { fillImageRows } from './candidate-images.js';
import { failureColumns } from '../failure.js';
import type { GenerationContext } from '../generation-context.js';
import { laneOf } from '../engines/generation-providers.js';
import { JOB_KINDS, topics, type GenerationEvent } from '../job-topics.js';
import { mustMove, stopsWhenRowMovesOn } from '../store/row-states.js';
import { openRequest } from './open-request.js';
import { createGenerationRepository } from '../store/generation-repository.js';
import { generationDb } from '../store/generation-tables.js';
import { inputImage } from '../store/stored-images.js';
import { parseAnalysis } from '../store/stored-json.js';
import { failureKind } from '../../../jobs/retryable-error.js';

const CANDIDATES_TIMEOUT_MS = 600_000;

export function candidatesJob(ctx: GenerationContext): JobHandler {
  return {
    kind: JOB_KINDS.candidates,
    lane: () => laneOf(ctx.providers.imageGenerator),
    timeoutMs: CANDIDATES_TIMEOUT_MS,
    run: stopsWhenRowMovesOn(async ({ job, signal, publish }) => {
      // The request and its candidates are this run's from here: a run that lost the job no longer writes them.
      const owner = runOwner(job);
      const repo = ctx.repo.ownedBy(owner);
      await repo.takeRequest(job.ref_id);
      const request = await openRequest(repo, job.ref_id, publish);
      if (!request) return;
      const slot = ctx.providers.imageGenerator;
      if (!slot) throw new ProviderError('unavailable', 'no image generator is configured');
      const topic = topics.request(request.id);
      // Still running (not cancelled meanwhile)? The images are written only then.
      mustMove(await repo.moveRequest(request.id, 'generating'), `request ${request.id}`);
      const analysis = parseAnalysis(request.analysis_json);
      const uploads = await repo.uploads([request.id]);
      const sources = await Promise.all(uploads.map((u) => inputImage(ctx.files, u.file_id, u.role)));
      const rows = await repo.imagesOfRequests([request.id]);
      await fillImageRows({ ...ctx, repo }, {
        slot,
        rows,
        failureKey: 'image_generation_failed',
        input: {
          prompt: analysis?.image_prompt || request.prompt,
          sources,
          aspect: request.aspect as Aspect,
          language: request.language as Language,
          ...(analysis ? { analysis } : {}),
          signal,
          // A self-hosted engine tells each candidate's queue position and steps.
          onProgress: (index, detail) => publish(topic, { type: 'progress', progress: 0, detail, index } satisfies GenerationEvent),
        },
        onSaved: (row, done, total) => {
          publish(topic, { type: 'image_ready', image_id: row.id, index: done, total } satisfies GenerationEvent);
          if (request.collection_item_id !== null) ctx.stageEnds?.progress({ requestId: request.id }, Math.round((100 * done) / total));
        },
      });
      const told = await ctx.baseDb.transaction().execute(async (trx) => {
        const inTrx = createGenerationRepository(generationDb(trx), ctx.now, owner);
        mustMove(await inTrx.moveRequest(request.id, 'completed', { completed_at: inTrx.now() }), `request ${request.id}`);
        return ctx.stageEnds?.candidatesDone(trx, request.id);
      });
      told?.();
      publish(topic, { type: 'completed' } satisfies GenerationEvent);
    }),
    async fail(job, error, reason, publish) {
      // Finished work stays finished: a cancel that lands as the work completes changes nothing.
      const failure = failureColumns(error, 'image_generation_failed');
      await ctx.repo.failOpenImages({ requestId: job.ref_id }, failure);
      const made = (await ctx.repo.imagesOfRequests([job.ref_id])).filter((i) => i.status === 'completed').length;
      // Not cancelled, and some were made: the request is those, the rest say why they are missing.
      // The request's final move and its batch's next step (stageEnds) are one transaction;
      // null when the move did not apply (finished work stays finished).
      const ended = (to: 'completed' | 'failed') =>
        ctx.baseDb.transaction().execute(async (trx) => {
          const inTrx = createGenerationRepository(generationDb(trx), ctx.now);
          if (to === 'completed') {
            if (!(await inTrx.moveRequest(job.ref_id, 'completed', { completed_at: inTrx.now() }))) return null;
            return (await ctx.stageEnds?.candidatesDone(trx, job.ref_id)) ?? (() => undefined);
          }
          if (!(await inTrx.moveRequest(job.ref_id, 'failed', failure))) return null;
          return (await ctx.stageEnds?.requestFailed(trx, job.ref_id, failure)) ?? (() => undefined);
        });
      if (reason === 'error' && made > 0) {
        const told = await ended('completed');
        if (told) {
          told();
          publish(topics.request(job.ref_id), { type: 'completed' } satisfies GenerationEvent);
        }
        return;
      }
      const told = await ended('failed');
      if (!told) return;
      told();
      publish(topics.request(job.ref_id), { type: 'failed', error_code: failure.error_code, error_key: failure.error_key } satisfies GenerationEvent);
    },
    async retrying(job, error, delayMs, publish) {
      const code = failureKind(error);
      publish(topics.request(job.ref_id), { type: 'retrying', delay_ms: delayMs, code } satisfies GenerationEvent);
    },
  };
}
