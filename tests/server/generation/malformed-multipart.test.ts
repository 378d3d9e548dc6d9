// Malformed multipart bodies on the image and workshop groups' upload calls: each is the client's
// mistake, so it answers 400 in the envelope, and nothing is logged as an error (no stack).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeProvider } from './helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp, type LogLine } from './helpers/generation-app.js';

const BOUNDARY = 'loom-broken-form';

const CASES: { name: string; contentType: string; body: string }[] = [
  {
    name: 'no boundary',
    contentType: 'multipart/form-data',
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\np\r\n--${BOUNDARY}--\r\n`,
  },
  { name: 'an empty boundary with body --', contentType: 'multipart/form-data; boundary=', body: '--\r\n' },
  {
    name: 'a truncated part',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nA summer dr`,
  },
  {
    name: 'a JSON body labelled as multipart',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: JSON.stringify({ prompt: 'p', user_generated_image_id: 1, image_ids: [1], type: 'text', text: 't' }),
  },
];

const MALFORMED = 'The uploaded form is malformed or incomplete';

const ROUTES = [
  '/image-api/analyze-images-json-stream',
  '/image-api/regenerate-stream',
  '/image-api/video-prompts-stream',
  '/third-api/workshop/items',
];

let t: GenerationTestApp;
let general: string;
let admin: string;
const logs: LogLine[] = [];

beforeAll(async () => {
  t = await createGenerationApp('sqlite', createFakeProvider().providers(), undefined, undefined, {
    env: { LOG_LEVEL: 'info' },
    logs,
  });
  general = (await t.user('GENERAL')).token;
  admin = await t.adminToken();
});
afterAll(() => t?.close());

describe('malformed multipart on the upload calls', () => {
  for (const route of ROUTES) {
    for (const c of CASES) {
      it(`${route}: ${c.name} → 400 in the envelope, nothing logged as an error`, async () => {
        const before = logs.length;
        const r = await t.call('POST', route, {
          token: route.startsWith('/third-api') ? admin : general,
          headers: { 'content-type': c.contentType, 'x-api-version': 'v1' },
          body: c.body,
        });
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ success: false, code: 400, message: MALFORMED, data: null });
        const logged = logs.slice(before);
        expect(logged.filter((l) => l.level >= 50)).toEqual([]);
        expect(JSON.stringify(logged)).not.toContain('"stack"');
      });
    }
  }

  // The two calls that take files: a file part cut short fails while its bytes are read.
  for (const [route, field] of [
    ['/image-api/analyze-images-json-stream', 'model_images'],
    ['/third-api/workshop/items', 'images'],
  ] as const) {
    it(`${route}: a file part cut short → 400, nothing logged as an error`, async () => {
      const before = logs.length;
      const body = Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\np\r\n`),
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="m.png"\r\nContent-Type: image/png\r\n\r\n`),
        Buffer.alloc(200_000, 7),
      ]);
      const r = await t.call('POST', route, {
        token: route.startsWith('/third-api') ? admin : general,
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-api-version': 'v1' },
        body,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, code: 400, message: MALFORMED, data: null });
      expect(logs.slice(before).filter((l) => l.level >= 50)).toEqual([]);
    });
  }
});
