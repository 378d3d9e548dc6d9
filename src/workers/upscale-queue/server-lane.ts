// One item's request to the upscale service and what its end means: a result (downloaded to the
// device when the platform can), a cancel, a wait for a token or for a full service, a failure,
// or a request cut on the way — which waits its retry delay under the product's retry policy
// (lib/retry) and stops for the person only after the policy's time budget. Where the server
// speaks tus, the file goes up first as a resumable upload whose URL is kept with the item, so a
// cut, a reload or a sleeping tablet resumes from the server's offset; the upscale call then
// names the finished upload instead of carrying the file.
import { backoffDelay, easeAfterSuccess, planRetry } from '../../lib/retry/retry-policy';
import { uploadIdOf } from '../../lib/upload/tus-upload';
import { serverResult, serverVerdict, tusRefusal } from './attempt-outcome';
import { acceptedPercent, raisedProgress } from './item-transitions';
import type { QueueItem } from './protocol';
import type { QueueState } from './queue-state';
import { RETRY_BUDGET_SPENT } from './retry-budget';
import type { SendOutcome } from './send-types';
import type { ServiceWatch } from './service-watch';

export class ServerLane {
  constructor(
    private readonly state: QueueState,
    private readonly watch: ServiceWatch,
    private readonly pump: () => void,
  ) {}

  async start(item: QueueItem): Promise<void> {
    const { state } = this;
    const auth = state.auth;
    if (!auth) return;
    const controller = new AbortController();
    state.inFlight.set(item.id, controller);
    const startedAt = state.now();
    const resumable = !!auth.tusUrl && !!state.deps.upload;
    const offsetBefore = item.upload?.offset ?? 0;
    await state.update(item, {
      status: 'processing',
      // Progress counts the bytes the server has: a resumed upload starts where it stopped.
      progress: resumable ? acceptedPercent(item) : 0,
      attempts: item.attempts + 1,
      startedAt,
      keySent: true,
      runningLocally: undefined,
    });
    let outcome: SendOutcome;
    try {
      const blob = state.blobs.get(item.id) ?? (await state.deps.store.getSourceBlob(item.fileId));
      if (!blob) {
        outcome = { kind: 'http-error', status: 0, code: 'source-missing', message: 'source-missing' };
      } else {
        state.blobs.set(item.id, blob);
        const uploaded = resumable ? await this.uploadSource(item, blob, controller) : undefined;
        if (uploaded && 'kind' in uploaded) {
          outcome = uploaded;
        } else {
          outcome = await state.deps.send(
            {
              baseUrl: auth.baseUrl,
              token: state.auth?.token ?? auth.token,
              idempotencyKey: item.idempotencyKey,
              blob,
              fileName: item.fileName,
              params: item.params,
              uploadId: uploaded?.id,
            },
            {
              onProgress: (p) => {
                if (item.status !== 'processing' || state.inFlight.get(item.id) !== controller) return;
                item.progress = raisedProgress(item.progress, p);
                state.emit();
              },
              onBytesSent: () => {
                if (item.bytesSent || state.inFlight.get(item.id) !== controller) return;
                void state.update(item, { bytesSent: true });
              },
            },
            controller.signal,
          );
        }
      }
    } catch (e) {
      outcome = {
        kind: 'http-error',
        status: 0,
        code: -1,
        message: e instanceof Error ? e.message : String(e),
      };
    }
    // A newer owner or a removal replaced this request: its outcome no longer matters.
    if (state.inFlight.get(item.id) !== controller) return;
    state.inFlight.delete(item.id);
    await this.settle(item, outcome, startedAt, (item.upload?.offset ?? 0) > offsetBefore);
    this.pump();
    state.emit();
  }

  /**
   * The source file's resumable upload (tus), resumed from the URL kept with the item: the
   * finished upload's id, or how this attempt ended. A cut here never leaves a job on the server,
   * so it ends as "nothing reached the server" and simply waits its retry delay.
   */
  private async uploadSource(
    item: QueueItem,
    blob: Blob,
    controller: AbortController,
  ): Promise<{ id: string } | SendOutcome> {
    const { state } = this;
    const auth = state.auth;
    const upload = state.deps.upload;
    if (!auth?.tusUrl || !upload) return { kind: 'aborted' };
    if (item.upload?.complete) return { id: item.upload.id };
    const current = () => item.status === 'processing' && state.inFlight.get(item.id) === controller;
    const outcome = await upload({
      endpoint: auth.tusUrl,
      uploadUrl: item.upload?.url,
      file: blob,
      size: blob.size,
      fileName: item.fileName,
      fileType: item.fileType || blob.type,
      purpose: 'upscale',
      token: () => state.auth?.token ?? null,
      signal: controller.signal,
      onUrl: (url) => {
        if (!current() || item.upload?.url === url) return;
        void state.update(item, { upload: { url, id: uploadIdOf(url), offset: 0 } });
      },
      onAccepted: (bytes, total) => {
        if (!current() || !item.upload) return;
        item.upload = { ...item.upload, offset: bytes };
        item.progress = raisedProgress(item.progress, total > 0 ? (bytes / total) * 100 : 0);
        void state.update(item, {});
      },
    });
    switch (outcome.kind) {
      case 'done':
        if (current()) {
          // The same upload resumed keeps what the calls said of it.
          const doubted = item.upload?.url === outcome.url && item.upload.doubted === true;
          await state.update(item, {
            upload: { url: outcome.url, id: outcome.id, offset: blob.size, complete: true, ...(doubted ? { doubted } : {}) },
          });
        }
        return { id: outcome.id };
      case 'network':
        return { kind: 'network', reachedServer: false };
      case 'aborted':
        return { kind: 'aborted' };
      case 'http-error':
        switch (tusRefusal(outcome.status)) {
          case 'start-anew':
            if (current()) await state.update(item, { upload: undefined });
            return { kind: 'network', reachedServer: false };
          case 'resume':
            return { kind: 'network', reachedServer: false };
          case 'as-is':
            return outcome;
        }
    }
  }

  private async settle(item: QueueItem, outcome: SendOutcome, startedAt: number, uploadAdvanced: boolean): Promise<void> {
    const { state } = this;
    if (item.status !== 'processing' || !state.items.has(item.id)) return; // cancelled or removed meanwhile
    const verdict = serverVerdict(outcome, item.bytesSent);
    switch (verdict.kind) {
      case 'completed': {
        const result = serverResult(verdict.outcome, startedAt, state.now());
        await state.update(item, { status: 'completed', progress: 100, result, error: undefined, retry: undefined });
        await this.easeRetries();
        void this.keepResult(item);
        return;
      }
      case 'cancelled':
        await state.update(item, { status: 'cancelled', progress: 0 });
        return;
      case 'in-transit':
        // An upload that moved on before the cut is not a failing streak: the next wait is the shortest.
        if (uploadAdvanced) await state.update(item, { retry: undefined });
        await this.failedInTransit(item, verdict.mayHaveReachedServer, verdict.retryAfterMs);
        return;
      case 'upload-again': {
        // No job was made: upload again (anew, or from the server's offset), then call again. An
        // upload the server called whole yet calls incomplete a second time starts anew: resuming it
        // would only be told "whole" by the server's offset again.
        const upload = item.upload;
        const anew = verdict.restart || !upload || upload.doubted === true;
        await state.update(item, { upload: anew ? undefined : { ...upload, complete: undefined, doubted: true } });
        await this.failedInTransit(item, false);
        return;
      }
      case 'needs-token':
        await state.update(item, { status: 'waiting', progress: 0, bytesSent: false });
        this.watch.pause('auth');
        return;
      case 'service-busy':
        await state.update(item, { status: 'waiting', progress: 0, bytesSent: false });
        this.watch.pause('busy', backoffDelay(1, { retryAfterMs: verdict.retryAfterMs, random: state.random }));
        return;
      case 'failed':
        await state.update(item, { status: 'failed', progress: 0, error: verdict.error });
        return;
    }
  }

  /**
   * The request failed on the way (a reset, a dropped connection, a gateway's timeout). Nothing
   * left the device: it simply waits. Otherwise it is interrupted, and goes back to the window once
   * the service says a resend with its key is safe. Either way it waits its retry delay first; after
   * the policy's budget it stops and says why.
   */
  private async failedInTransit(item: QueueItem, mayHaveReachedServer: boolean, retryAfterMs?: number): Promise<void> {
    const { state } = this;
    const decision = planRetry(item.retry, state.now(), { retryAfterMs, random: state.random });
    if (decision.kind === 'give-up') {
      await state.update(item, {
        status: 'failed',
        progress: 0,
        retry: undefined,
        error: { code: RETRY_BUDGET_SPENT, status: 0, message: '' },
      });
      return;
    }
    await state.update(item, {
      status: mayHaveReachedServer ? 'interrupted' : 'waiting',
      progress: 0,
      bytesSent: item.bytesSent || mayHaveReachedServer,
      retry: decision.streak,
    });
    void this.watch.checkReachable();
  }

  /** Another upload went through: items waiting out a long delay try again soon, from the shortest wait. */
  private async easeRetries(): Promise<void> {
    const { state } = this;
    const now = state.now();
    for (const other of state.sorted()) {
      if (!other.retry || (other.status !== 'waiting' && other.status !== 'interrupted')) continue;
      await state.update(other, { retry: easeAfterSuccess(other.retry, now, { random: state.random }) });
    }
  }

  private async keepResult(item: QueueItem): Promise<void> {
    const { state } = this;
    const auth = state.auth;
    if (!state.deps.fetchResult || !item.result || !auth) return;
    try {
      const { blob, width, height } = await state.deps.fetchResult(item.result.url, auth);
      if (!state.items.has(item.id)) return;
      await state.deps.store.putResult(item.id, item.userKey, blob);
      await state.update(item, {
        resultStored: true,
        result: {
          ...item.result,
          outputSize: blob.size,
          outputType: blob.type,
          width: width ?? item.result.width,
          height: height ?? item.result.height,
        },
      });
    } catch {
      // The signed link still works online; the device copy is a convenience.
    }
  }
}
