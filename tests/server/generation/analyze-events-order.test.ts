// The order of the analyse event stream, step by step: the route over a request and a job bus the
// test holds, so the job can move on (fail, save its analysis and images, complete) while the
// stream's opening read of its request is still out. The stream's rule (helpers/analyze-stream-order.ts):
// no word older than one sent before it, no stage twice, one final event, last, which is what the
// request is in the end; and the stream never both reports a failure and starts the request again.
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UploadBudget } from '../../../server/http/upload-budget.js';
import { registerAnalyzeRoute } from '../../../server/modules/generation/analysis/analyze-route.js';
import type { GenerationContext } from '../../../server/modules/generation/generation-context.js';
import type { GeneratedImageRow, GenerationRequestRow } from '../../../server/modules/generation/store/generation-tables.js';
import type { UserRow } from '../../../server/modules/users/user-view.js';
import { solidPng } from './helpers/fake-providers.js';
import { multipart as multipartBody, sseEvents } from './helpers/generation-app.js';
import { orderProblems } from './helpers/analyze-stream-order.js';

const USER = 7;
const REQUEST = 40;
const CLIENT_ID = 'order-1';

interface Request {
  status: 'pending' | 'generating' | 'completed' | 'failed';
  analysis_text: string | null;
  error_code: string | null;
  error_key: string | null;
}
interface Image {
  id: number;
  status: 'pending' | 'completed' | 'failed';
}

type Listener = (event: Record<string, unknown>) => void;

let png: Buffer;
beforeAll(async () => {
  png = await solidPng(8, 8, '#336699');
});

/**
 * The analyse route over one request, its six candidates and a job bus of the test's. The stream's
 * first read of the request is held until `letGo`; like every read it answers the row as it is when
 * it returns (it waited for the database, which answers what was written meanwhile).
 */
async function harness(start: Request['status'], o: { running: boolean }) {
  const request: Request = { status: start, analysis_text: null, error_code: null, error_key: null };
  const images: Image[] = Array.from({ length: 6 }, (_, i) => ({ id: 100 + i, status: 'pending' }));
  const job = { running: o.running, enqueued: 0, reopened: 0 };
  const listeners = new Set<Listener>();
  let letGo: () => void = () => {};
  let firstReadBegan: () => void = () => {};
  const firstRead = new Promise<void>((resolve) => (firstReadBegan = resolve));
  let reads = 0;
  const rowOf = () =>
    ({ ...request, id: REQUEST, user_id: USER, client_request_id: CLIENT_ID, analysis_json: null }) as unknown as GenerationRequestRow;
  const imageOf = (i: Image) => ({ ...i, request_id: REQUEST }) as unknown as GeneratedImageRow;
  const ctx = {
    providers: { analyser: {}, imageGenerator: {} },
    uploads: new UploadBudget(64 * 1024 * 1024, () => new Error('busy')),
    uploadLimits: { maxBytes: 1024 * 1024, maxPixels: 1_000_000 },
    repo: {
      requestByClientId: () => Promise.resolve(rowOf()),
      request: () => {
        if (reads++ > 0) return Promise.resolve(rowOf());
        firstReadBegan();
        return new Promise<GenerationRequestRow>((resolve) => (letGo = () => resolve(rowOf())));
      },
      image: (id: number) => Promise.resolve(images.filter((i) => i.id === id).map(imageOf)[0]),
      imagesOfRequests: () => Promise.resolve(images.map(imageOf)),
      reopenRequest: () => {
        job.reopened += 1;
        request.status = 'pending';
        return Promise.resolve(true);
      },
    },
    views: {
      requests: (rows: GenerationRequestRow[]) => Promise.resolve(rows.map((r) => ({ id: r.id, status: r.status }))),
      images: (rows: GeneratedImageRow[]) => Promise.resolve(rows.map((r) => ({ id: r.id, status: r.status }))),
    },
    jobs: {
      onProgress(_topic: string, listener: Listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      isActive: () => Promise.resolve(job.running),
      enqueue: () => {
        job.enqueued += 1;
        job.running = true;
        return Promise.resolve();
      },
    },
    log: { warn: () => undefined, error: () => undefined },
  } as unknown as GenerationContext;
  const app = Fastify();
  await app.register(multipart);
  app.addHook('onRequest', async (req) => {
    req.user = { id: USER } as UserRow;
  });
  registerAnalyzeRoute(app, ctx);
  await app.ready();
  const form = multipartBody([
    { name: 'prompt', value: 'A summer dress' },
    { name: 'request_id', value: CLIENT_ID },
    { name: 'language', value: 'en-US' },
    { name: 'model_images', value: png, filename: 'model.png', contentType: 'image/png' },
  ]);
  return {
    app,
    request,
    images,
    job,
    firstRead,
    letGo: () => letGo(),
    publish: (event: Record<string, unknown>) => {
      for (const listener of [...listeners]) listener(event);
    },
    /** The resend of the request (same request_id), which joins its work. */
    watch: () => app.inject({ method: 'POST', url: '/analyze-images-json-stream', headers: form.headers, payload: form.payload }),
  };
}

/** Lets every step already due run (the doubles answer at once, so the stream's steps are all microtasks). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('the analyse event stream keeps its order', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('does not report a failure it then starts again: the failure its opening read found is followed to the new end', async () => {
    // The resend joins running work; the work is cancelled while the stream's opening read is out.
    const h = await harness('generating', { running: true });
    app = h.app;
    const watching = h.watch();
    await h.firstRead;
    Object.assign(h.request, { status: 'failed', error_code: 'cancelled', error_key: 'generation_cancelled' });
    h.job.running = false;
    h.publish({ type: 'failed', error_code: 'cancelled', error_key: 'generation_cancelled' });
    await settled();
    h.letGo();
    await settled();
    // The opening read found the request failed with no job: a resend of a failed request starts it again.
    expect(h.job).toMatchObject({ reopened: 1, enqueued: 1 });
    // The new run ends.
    h.request.status = 'generating';
    h.publish({ type: 'started' });
    h.request.status = 'completed';
    h.publish({ type: 'completed' });
    const events = sseEvents((await watching).body);
    expect(orderProblems(events, h.request.status)).toEqual([]);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });

  it('still ends with the error of a failure after its opening read', async () => {
    const h = await harness('generating', { running: true });
    app = h.app;
    const watching = h.watch();
    await h.firstRead;
    h.letGo();
    await settled();
    Object.assign(h.request, { status: 'failed', error_code: 'cancelled', error_key: 'generation_cancelled' });
    h.job.running = false;
    h.publish({ type: 'failed', error_code: 'cancelled', error_key: 'generation_cancelled' });
    const events = sseEvents((await watching).body);
    expect(orderProblems(events, h.request.status)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'cancelled' });
    expect(h.job).toMatchObject({ reopened: 0, enqueued: 0 });
  });

  it('says where the work was before what the job says meanwhile: no older word after a newer one, no stage twice', async () => {
    const h = await harness('generating', { running: true });
    app = h.app;
    const watching = h.watch();
    // While the opening read is out, the analysis is saved and the first candidate with it.
    await h.firstRead;
    h.request.analysis_text = 'The analysis';
    h.publish({ type: 'analysed' });
    h.images[0]!.status = 'completed';
    h.publish({ type: 'image_ready', image_id: h.images[0]!.id, index: 1, total: 6 });
    await settled();
    h.letGo();
    await settled();
    for (const image of h.images.slice(1)) image.status = 'completed';
    h.request.status = 'completed';
    h.publish({ type: 'completed' });
    const events = sseEvents((await watching).body);
    expect(orderProblems(events, h.request.status)).toEqual([]);
    expect(events.map((e) => (e.type === 'progress' ? ((e.stage as string | undefined) ?? e.message) : e.type))).toEqual([
      'Connecting to the AI service…',
      'AI engine ready',
      'analysed',
      'image_ready',
      'Completed',
      'complete',
    ]);
  });

  it('ends once, with the completed request, when the work completes while the opening read is out', async () => {
    const h = await harness('generating', { running: true });
    app = h.app;
    const watching = h.watch();
    await h.firstRead;
    for (const image of h.images) image.status = 'completed';
    h.request.status = 'completed';
    h.publish({ type: 'completed' });
    await settled();
    h.letGo();
    const events = sseEvents((await watching).body);
    expect(orderProblems(events, h.request.status)).toEqual([]);
    expect(events.filter((e) => e.type === 'complete')).toEqual([{ type: 'complete', data: { id: REQUEST, status: 'completed' } }]);
    expect(h.job).toMatchObject({ reopened: 0, enqueued: 0 });
  });
});
