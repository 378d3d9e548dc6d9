// Upscale work on this process's own engines (the embedded default, and a separate upscale host).
// A single image runs through IdempotentResults, so a resend with the same key joins or replays the
// first run (from memory, or from the database after a restart or at another replica). A batch's
// images run in turn: the batch holds one queue place at a time, so it cannot crowd out other users.
import type { DurableReplays } from './durable-replays.js';
import { IdempotentResults, REPLAY_GRACE_MS, type CancelOutcome, type IdempotentAnswer } from './idempotent-results.js';
import type { ModelView } from './model-catalogue.js';
import { fileTooLarge } from './upscale-http-error.js';
import type { UpscaleService } from './upscale-service.js';
import type { BatchUpscale, SingleUpscale, UpscaleWork } from './upscale-work.js';

export class InProcessUpscales implements UpscaleWork {
  private readonly idempotent: IdempotentResults;

  constructor(
    private readonly o: { service: UpscaleService; replays: DurableReplays; resultTtlSeconds: number; now: () => Date },
  ) {
    this.idempotent = new IdempotentResults(o.resultTtlSeconds, o.now, REPLAY_GRACE_MS, o.replays);
  }

  listModels(): Promise<ModelView[]> {
    return this.o.service.listModels();
  }

  assertModel(name: string): Promise<void> {
    return this.o.service.assertModel(name);
  }

  async assertCapacity(): Promise<void> {
    this.o.service.queue.assertCapacity();
  }

  async joinsJob(key: string | undefined, userId: number): Promise<boolean> {
    return this.idempotent.has(key, userId);
  }

  single({ file, params, userId, key, signal }: SingleUpscale): Promise<IdempotentAnswer> {
    // The image stays in memory while it waits and runs.
    return this.idempotent.run(key, userId, IdempotentResults.fingerprint(userId, params, file.data), signal, (workSignal, record) =>
      this.o.service.upscale(file, params, { signal: workSignal, beforePublish: record }),
    );
  }

  cancelKey(key: string, userId: number): Promise<CancelOutcome> {
    return this.idempotent.cancel(key, userId);
  }

  async runBatch({ files, params, ctx, events, onItemDone }: BatchUpscale): Promise<void> {
    const { signal } = events;
    for (const [index, file] of files.entries()) {
      if (signal.aborted) break;
      try {
        if (file.tooLarge) throw fileTooLarge(ctx);
        const r = await this.o.service.upscale(file, params, {
          signal,
          onStart: () => events.progress(index, 0),
          onProgress: (fraction) => events.progress(index, fraction),
        });
        events.succeeded(index, r);
      } catch (error) {
        if (signal.aborted) break;
        events.failed(index, error);
      } finally {
        // A done item's image is not kept for the rest of the batch.
        files[index] = { ...file, data: Buffer.alloc(0) };
        onItemDone(file.data.length);
      }
    }
  }
}
