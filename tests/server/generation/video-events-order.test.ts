// The order of the videos' event stream, step by step: the route over a table and a job bus the
// test holds, so an event can be made to arrive while the stream's snapshot is still reading.
// The stream's rule: `complete` comes last, after every video of the call has had its final view
// (completed or failed), and nothing of a video follows its final view.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { GenerationContext } from '../../../server/modules/generation/generation-context.js';
import type { VideoGenerationRow } from '../../../server/modules/generation/store/generation-tables.js';
import { registerVideoRoutes } from '../../../server/modules/generation/videos/video-routes.js';
import type { UserRow } from '../../../server/modules/users/user-view.js';
import { sseEvents } from './helpers/generation-app.js';
import { orderProblems } from './helpers/video-stream-order.js';

const USER = 7;

interface Row {
  id: number;
  status: 'pending' | 'generating' | 'completed' | 'failed';
}

type Listener = (event: Record<string, unknown>) => void;

/** The videos route over rows and a job bus of the test's. The stream's first read of one video is held until `letGo`. */
async function harness(rows: Row[]) {
  const table = new Map(rows.map((r) => [r.id, { ...r }]));
  const listeners = new Map<string, Set<Listener>>();
  let letGo: () => void = () => {};
  let firstReadBegan: () => void = () => {};
  const firstRead = new Promise<void>((resolve) => (firstReadBegan = resolve));
  let reads = 0;
  // A read answers the row as it was when the read began, as the database does.
  const rowOf = (id: number) => ({ ...table.get(id)!, user_id: USER }) as unknown as VideoGenerationRow;
  const ctx = {
    repo: {
      videosOfUser: (_userId: number, ids: number[]) => Promise.resolve(ids.filter((id) => table.has(id)).map(rowOf)),
      video: (id: number) => {
        const row = rowOf(id);
        if (reads++ > 0) return Promise.resolve(row);
        firstReadBegan();
        return new Promise<VideoGenerationRow>((resolve) => (letGo = () => resolve(row)));
      },
    },
    views: { videos: (list: VideoGenerationRow[]) => Promise.resolve(list.map((r) => ({ id: r.id, status: r.status }))) },
    jobs: {
      onProgress(topic: string, listener: Listener) {
        const set = listeners.get(topic) ?? new Set<Listener>();
        listeners.set(topic, set.add(listener));
        return () => set.delete(listener);
      },
    },
    log: { warn: () => undefined },
  } as unknown as GenerationContext;
  const app = Fastify();
  app.addHook('onRequest', async (request) => {
    request.user = { id: USER } as UserRow;
  });
  registerVideoRoutes(app, ctx);
  await app.ready();
  return {
    app,
    table,
    firstRead,
    letGo: () => letGo(),
    publish: (id: number, event: Record<string, unknown>) => {
      for (const listener of [...(listeners.get(`video:${id}`) ?? [])]) listener(event);
    },
    watch: (ids: number[]) => app.inject({ method: 'GET', url: `/user/video-generations/events?ids=${ids.join(',')}` }),
  };
}

/** Lets every step already due run (the doubles answer at once, so the stream's steps are all microtasks). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the videos event stream keeps its order', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('does not say complete before a video that had ended before the stream opened is sent', async () => {
    // Video 2 was cancelled before the stream read its rows; video 1 is cancelled while the snapshot reads it.
    const h = await harness([
      { id: 1, status: 'generating' },
      { id: 2, status: 'failed' },
    ]);
    app = h.app;
    const watching = h.watch([1, 2]);
    await h.firstRead;
    h.table.get(1)!.status = 'failed';
    h.publish(1, { type: 'failed', error_code: 'cancelled', error_key: 'generation_cancelled' });
    await settled();
    h.letGo();
    const events = sseEvents((await watching).body);
    expect(orderProblems(events, [1, 2])).toEqual([]);
  });

  it('sends nothing of a video after its final view: no older snapshot, no late progress', async () => {
    const h = await harness([
      { id: 1, status: 'generating' },
      { id: 2, status: 'generating' },
    ]);
    app = h.app;
    const watching = h.watch([1, 2]);
    // The snapshot has read video 1 as generating; its cancel lands, then a progress its job wrote just before.
    await h.firstRead;
    h.table.get(1)!.status = 'failed';
    h.publish(1, { type: 'failed', error_code: 'cancelled', error_key: 'generation_cancelled' });
    h.publish(1, { type: 'progress', progress: 40 });
    await settled();
    h.letGo();
    await settled();
    h.table.get(2)!.status = 'completed';
    h.publish(2, { type: 'completed' });
    const events = sseEvents((await watching).body);
    expect(orderProblems(events, [1, 2])).toEqual([]);
    expect(events.filter((e) => e.type === 'video').map((e) => e.video)).toEqual([
      { id: 1, status: 'generating' },
      { id: 2, status: 'generating' },
      { id: 1, status: 'failed' },
      { id: 2, status: 'completed' },
    ]);
  });
});
