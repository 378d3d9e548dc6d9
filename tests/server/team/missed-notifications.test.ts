// Team mode: an API replica's event streams hear a job's progress over LISTEN/NOTIFY, and a
// notification sent while the replica's listener reconnects (PostgreSQL restarted) is never
// heard. A stream must still end when its work has ended: here the rows move on in the database
// with no notification at all, as when a worker finished a job during such a gap. API replica
// only (no worker runs anything). PostgreSQL only.
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGenerationRepository, type GenerationRepository } from '../../../server/modules/generation/store/generation-repository.js';
import { generationDb } from '../../../server/modules/generation/store/generation-tables.js';
import { databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { createGenerationApp, multipart, type GenerationTestApp } from '../generation/helpers/generation-app.js';
import { videoRow } from '../generation/helpers/video-row.js';

const postgres = databaseKinds.find((d) => d.kind === 'postgres')!;

/** Reads an event stream over HTTP as it comes; `next()` answers the next event (or null at its end). */
async function openStream(url: string, init: RequestInit) {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  return {
    async next(): Promise<Record<string, unknown> | null> {
      for (;;) {
        const end = buffered.indexOf('\n\n');
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (data) return JSON.parse(data) as Record<string, unknown>;
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return null;
        buffered += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

describe.skipIf(postgres.skip)('event streams of an API replica that missed a notification', () => {
  const bossSchema = `${uniqueSchema()}_jobs`;
  let gen: GenerationTestApp;
  let repo: GenerationRepository;
  let base: string;

  beforeAll(async () => {
    if (postgres.skip) return;
    gen = await createGenerationApp('postgres', undefined, undefined, undefined, {
      env: { TEAM_MODE: 'true', ROLE: 'api', PGBOSS_SCHEMA: bossSchema },
    });
    repo = createGenerationRepository(generationDb(gen.app.db.kysely), () => new Date());
    await gen.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(gen.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await gen?.close();
    if (!postgres.skip) await dropSchema(bossSchema);
  });

  it('a video stream ends with the video that was completed without a word to this replica', async () => {
    const user = await gen.user('GENERAL');
    const now = new Date().toISOString();
    const row = await repo.insertVideo(
      videoRow({
        user_id: user.id,
        status: 'generating',
        resolution: '512P',
        progress: 40,
        requested_at: now,
        started_at: now,
      }),
    );
    const stream = await openStream(`${base}/api/user/video-generations/events?ids=${row.id}`, {
      headers: { authorization: `Bearer ${user.token}`, 'accept-language': 'en-US' },
    });
    try {
      expect(await stream.next()).toMatchObject({ type: 'video', video: { id: row.id, status: 'generating' } });
      // A worker finished it while this replica's listener was away: the row moved, no event came.
      expect(await repo.moveVideo(row.id, 'completed', { progress: 100, completed_at: new Date().toISOString() })).toBe(true);
      expect(await stream.next()).toMatchObject({ type: 'video', video: { id: row.id, status: 'completed' } });
      expect(await stream.next()).toMatchObject({ type: 'complete' });
      expect(await stream.next()).toBeNull();
    } finally {
      await stream.cancel();
    }
  }, 40_000);

  it('an analysis stream ends with the request that was completed without a word to this replica', async () => {
    const user = await gen.user('GENERAL');
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#1f4e9c' } }).png().toBuffer();
    const form = multipart([
      { name: 'prompt', value: 'A summer shirt dress' },
      { name: 'request_id', value: 'missed-notification' },
      { name: 'language', value: 'en-US' },
      { name: 'pattern_images', value: png, filename: 'pattern.png' },
    ]);
    const stream = await openStream(`${base}/image-api/analyze-images-json-stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'accept-language': 'en-US', ...form.headers },
      body: new Uint8Array(form.payload),
    });
    try {
      const first = await stream.next();
      expect(first).toMatchObject({ type: 'progress', progress: 2 });
      // Its job waits (no worker here); it "ran elsewhere" and the row moved on in silence.
      const id = Number(first!.id);
      expect(await repo.moveRequest(id, 'generating', { analysis_text: 'Measured.', started_at: new Date().toISOString() })).toBe(true);
      expect(await repo.moveRequest(id, 'completed', { completed_at: new Date().toISOString() })).toBe(true);
      let event = await stream.next();
      const seen: Record<string, unknown>[] = [];
      while (event && event.type !== 'complete' && event.type !== 'error') {
        seen.push(event);
        event = await stream.next();
      }
      expect(event).toMatchObject({ type: 'complete', data: { id, status: 'completed' } });
      expect(seen.some((e) => e.stage === 'analysed')).toBe(true);
      expect(await stream.next()).toBeNull();
    } finally {
      await stream.cancel();
    }
  }, 40_000);
});
