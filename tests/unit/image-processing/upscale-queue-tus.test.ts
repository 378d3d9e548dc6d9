// The upscale queue where the server speaks tus: the file goes up as a resumable upload whose URL
// is kept with the item, a cut resumes from the server's offset under the product's retry policy,
// and the upscale call names the finished upload instead of carrying the file.
import { describe, expect, it } from 'vitest';
import { RETRY_POLICY } from '../../../src/lib/retry/retry-policy';
import type { TusAttempt, TusOutcome } from '../../../src/lib/upload/tus-upload';
import { createMemoryQueueStore } from '../../../src/workers/upscale-queue/queue-store';
import type { QueueAuth } from '../../../src/workers/upscale-queue/protocol';
import { AUTH, PARAMS, createHarness, entries, flush, ok } from './queue-harness';

const TUS_AUTH: QueueAuth = { ...AUTH, tusUrl: 'http://x/upload-api/tus' };
const SIZE = 10;

/** Files of SIZE bytes. */
const files = (n: number) => entries(n).map((e) => ({ ...e, size: SIZE, blob: new Blob(['0123456789'], { type: 'image/png' }) }));

interface PendingUpload {
  attempt: TusAttempt;
  resolve(outcome: TusOutcome): void;
}

/** A hand-driven tus client: each attempt waits until the test ends it. */
function fakeUploads() {
  const pending: PendingUpload[] = [];
  const attempts: TusAttempt[] = [];
  let made = 0;
  const upload = (attempt: TusAttempt) =>
    new Promise<TusOutcome>((resolve) => {
      attempts.push(attempt);
      const p: PendingUpload = {
        attempt,
        resolve: (o) => {
          pending.splice(pending.indexOf(p), 1);
          resolve(o);
        },
      };
      pending.push(p);
      attempt.signal.addEventListener('abort', () => p.resolve({ kind: 'aborted' }));
    });
  return {
    upload,
    pending,
    attempts,
    /** The server created (or resumed) the upload and took `bytes` of it. */
    accept(p: PendingUpload, bytes: number) {
      const url = p.attempt.uploadUrl ?? `http://x/upload-api/tus/up-${++made}`;
      p.attempt.onUrl?.(url);
      p.attempt.onAccepted?.(bytes, p.attempt.size);
      return url;
    },
  };
}

/** A queue (in memory) whose uploads go through the hand-driven client, `count` files enqueued and their first attempts begun. */
async function queueOverTus(o: { count?: number; probe?: boolean } = {}) {
  const tus = fakeUploads();
  const h = createHarness(createMemoryQueueStore(), { upload: tus.upload });
  if (o.probe ?? true) h.setProbe(true);
  await h.engine.configure(TUS_AUTH);
  const ids = await h.engine.enqueue(files(o.count ?? 1), PARAMS);
  await flush();
  return { tus, h, ids };
}

/**
 * After the call named up-1 twice: the item's next attempt starts a new upload (no URL kept),
 * which goes through as up-2, and the call made with it completes the item.
 */
async function startsAnewAndCompletes(
  { tus, h }: Pick<Awaited<ReturnType<typeof queueOverTus>>, 'tus' | 'h'>,
  id: string,
): Promise<void> {
  await h.advance(10 * RETRY_POLICY.firstDelayMs);
  expect(tus.pending[0]!.attempt.uploadUrl).toBeUndefined();
  const fresh = tus.accept(tus.pending[0]!, SIZE);
  tus.pending[0]!.resolve({ kind: 'done', url: fresh, id: 'up-2' });
  await flush();
  h.pending[0]!.resolve(ok());
  await flush();
  expect(h.statusOf(id)).toBe('completed');
  expect(h.sent.map((r) => r.uploadId)).toEqual(['up-1', 'up-1', 'up-2']);
}

describe('upscale queue over tus', () => {
  it('uploads first, keeps the upload URL with the item, then calls with image_upload_id only', async () => {
    const store = createMemoryQueueStore();
    const tus = fakeUploads();
    const h = createHarness(store, { upload: tus.upload });
    await h.engine.configure(TUS_AUTH);
    const [id] = await h.engine.enqueue(files(1), PARAMS);
    await flush();
    expect(h.sent).toHaveLength(0);
    const p = tus.pending[0]!;
    expect(p.attempt).toMatchObject({ endpoint: TUS_AUTH.tusUrl, purpose: 'upscale', fileName: 'img-0.png', fileType: 'image/png' });
    expect(p.attempt.uploadUrl).toBeUndefined();
    expect(p.attempt.token()).toBe('t1');
    const url = tus.accept(p, 4);
    await flush();
    // Progress counts what the server has; the URL is in the store, for a reload.
    expect(h.snapshot.items[0]).toMatchObject({ status: 'processing', progress: 40 });
    expect(store.items.get(id!)?.upload).toEqual({ url, id: 'up-1', offset: 4 });
    p.resolve({ kind: 'done', url, id: 'up-1' });
    await flush();
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]).toMatchObject({ uploadId: 'up-1', fileName: 'img-0.png' });
    h.pending[0]!.resolve(ok());
    await flush();
    expect(h.statusOf(id!)).toBe('completed');
    expect(tus.attempts).toHaveLength(1);
  });

  it('a cut resumes the same upload after the policy first delay, and a resend of the call does not upload again', async () => {
    const { tus, h, ids: [id] } = await queueOverTus();
    // Several cuts in a row, each after the server took more: every wait is the shortest one.
    let url = '';
    for (let cut = 1; cut <= 3; cut++) {
      const p = tus.pending[0]!;
      url = tus.accept(p, cut * 3);
      p.resolve({ kind: 'network', message: 'reset' });
      await flush();
      const item = h.snapshot.items[0]!;
      expect(item.status).toBe('waiting');
      expect(item.retry?.nextAttemptAt).toBe(h.now + RETRY_POLICY.firstDelayMs);
      await h.advance(RETRY_POLICY.firstDelayMs);
      expect(tus.pending[0]!.attempt.uploadUrl).toBe(url);
      // A resumed attempt shows at once what the server already has.
      expect(h.snapshot.items[0]).toMatchObject({ status: 'processing', progress: cut * 30 });
    }
    // A cut that took nothing is a failing streak: the wait grows.
    tus.pending[0]!.resolve({ kind: 'network', message: 'reset' });
    await flush();
    await h.advance(RETRY_POLICY.firstDelayMs);
    expect(tus.pending).toHaveLength(0);
    await h.advance(RETRY_POLICY.firstDelayMs);
    tus.pending[0]!.resolve({ kind: 'done', url, id: 'up-1' });
    await flush();
    // The call is cut after it left: the server may hold the job; the resend keeps the key and the upload.
    h.pending[0]!.resolve({ kind: 'network', reachedServer: true });
    await flush();
    await h.completeAll();
    expect(h.statusOf(id!)).toBe('completed');
    expect(h.sent.map((r) => r.uploadId)).toEqual(['up-1', 'up-1']);
    expect(h.sent[0]!.idempotencyKey).toBe(h.sent[1]!.idempotencyKey);
    expect(tus.attempts).toHaveLength(5);
  });

  it('a reload resumes the kept upload URL from the store', async () => {
    const store = createMemoryQueueStore(new Map([['f0', new Blob(['0123456789'], { type: 'image/png' })]]));
    const tus = fakeUploads();
    const first = createHarness(store, { upload: tus.upload });
    await first.engine.configure(TUS_AUTH);
    await first.engine.enqueue(files(1), PARAMS);
    await flush();
    const url = tus.accept(tus.pending[0]!, 7);
    await flush();
    // The page closes mid-upload: nothing left the device that could make a job.
    const tus2 = fakeUploads();
    const second = createHarness(store, { upload: tus2.upload });
    await second.engine.configure(TUS_AUTH);
    await flush();
    expect(tus2.pending[0]!.attempt.uploadUrl).toBe(url);
    expect(second.snapshot.items[0]).toMatchObject({ status: 'processing', progress: 70 });
  });

  it('upload_incomplete resumes the upload, upload_not_found starts a new one, then the call is made again', async () => {
    const { tus, h, ids: [id] } = await queueOverTus();
    const url = tus.accept(tus.pending[0]!, SIZE);
    tus.pending[0]!.resolve({ kind: 'done', url, id: 'up-1' });
    await flush();
    h.pending[0]!.resolve({ kind: 'http-error', status: 409, code: 'upload_incomplete', message: '' });
    await flush();
    await h.advance(RETRY_POLICY.firstDelayMs);
    expect(tus.pending[0]!.attempt.uploadUrl).toBe(url);
    tus.pending[0]!.resolve({ kind: 'done', url, id: 'up-1' });
    await flush();
    h.pending[0]!.resolve({ kind: 'http-error', status: 404, code: 'upload_not_found', message: '' });
    await flush();
    await startsAnewAndCompletes({ tus, h }, id!);
  });

  it('an upload the server took whole but calls incomplete twice starts anew instead of resuming for ever', async () => {
    const { tus, h, ids: [id] } = await queueOverTus();
    const url = tus.accept(tus.pending[0]!, SIZE);
    tus.pending[0]!.resolve({ kind: 'done', url, id: 'up-1' });
    await flush();
    const incomplete = { kind: 'http-error', status: 409, code: 'upload_incomplete', message: '' } as const;
    h.pending[0]!.resolve(incomplete);
    await flush();
    await h.advance(RETRY_POLICY.firstDelayMs);
    // Resumed once: the server's offset says every byte is there.
    expect(tus.pending[0]!.attempt.uploadUrl).toBe(url);
    tus.pending[0]!.resolve({ kind: 'done', url, id: 'up-1' });
    await flush();
    h.pending[0]!.resolve(incomplete);
    await flush();
    // Told so again: a new upload.
    await startsAnewAndCompletes({ tus, h }, id!);
  });

  it('a refused image (422) fails at once with the server message; 429 waits as a busy service', async () => {
    const { tus, h, ids: [a, b] } = await queueOverTus({ count: 2, probe: false });
    tus.pending[0]!.resolve({ kind: 'http-error', status: 422, code: 'image_too_large', message: 'Too many pixels' });
    await flush();
    expect(h.snapshot.items.find((i) => i.id === a)).toMatchObject({
      status: 'failed',
      error: { status: 422, code: 'image_too_large', message: 'Too many pixels' },
    });
    tus.pending[0]!.resolve({ kind: 'http-error', status: 429, code: 429, message: '', retryAfterMs: 5000 });
    await flush();
    expect(h.statusOf(b!)).toBe('waiting');
    expect(h.snapshot.paused).toBe('busy');
  });

  it('a locked or out-of-step upload resumes after the retry delay; a gone one starts anew', async () => {
    const { tus, h, ids: [id] } = await queueOverTus();
    const url = tus.accept(tus.pending[0]!, 5);
    tus.pending[0]!.resolve({ kind: 'http-error', status: 423, code: 423, message: '' });
    await flush();
    expect(h.statusOf(id!)).toBe('waiting');
    await h.advance(RETRY_POLICY.firstDelayMs);
    expect(tus.pending[0]!.attempt.uploadUrl).toBe(url);
    tus.pending[0]!.resolve({ kind: 'http-error', status: 409, code: 409, message: '' });
    await flush();
    await h.advance(10 * RETRY_POLICY.firstDelayMs);
    expect(tus.pending[0]!.attempt.uploadUrl).toBe(url);
    tus.pending[0]!.resolve({ kind: 'http-error', status: 410, code: 410, message: '' });
    await flush();
    await h.advance(10 * RETRY_POLICY.firstDelayMs);
    expect(tus.pending[0]!.attempt.uploadUrl).toBeUndefined();
    expect(h.statusOf(id!)).toBe('processing');
  });

  it('after an outage, an attempt that moved the upload waits the first delay, even on a 409', async () => {
    const { tus, h } = await queueOverTus();
    const url = tus.accept(tus.pending[0]!, 2);
    // The outage: the first cut follows bytes the server took (the first wait); the three after it
    // took nothing, and each wait is longer than the last.
    for (let failure = 1; failure <= 4; failure++) {
      tus.pending[0]!.resolve({ kind: 'network', message: 'reset' });
      await flush();
      const wait = h.snapshot.items[0]!.retry!.nextAttemptAt - h.now;
      expect(wait).toBeGreaterThan(RETRY_POLICY.firstDelayMs * 2 ** (failure - 1) * 0.7);
      await h.advance(wait);
    }
    // Then a cut after the server kept more; the browser's resend of the PATCH is refused for its
    // offset, and the attempt, having asked the server, reports what it kept.
    tus.pending[0]!.attempt.onAccepted?.(6, SIZE);
    tus.pending[0]!.resolve({ kind: 'http-error', status: 409, code: 409, message: '' });
    await flush();
    expect(h.snapshot.items[0]!.retry!.nextAttemptAt - h.now).toBe(RETRY_POLICY.firstDelayMs);
    await h.advance(RETRY_POLICY.firstDelayMs);
    expect(tus.pending[0]!.attempt.uploadUrl).toBe(url);
  });

  it('without a tus endpoint the file goes in the multipart call, as before', async () => {
    const tus = fakeUploads();
    const h = createHarness(createMemoryQueueStore(), { upload: tus.upload });
    await h.engine.configure(AUTH);
    await h.engine.enqueue(files(1), PARAMS);
    await flush();
    expect(tus.attempts).toHaveLength(0);
    expect(h.sent[0]!.uploadId).toBeUndefined();
  });
});
