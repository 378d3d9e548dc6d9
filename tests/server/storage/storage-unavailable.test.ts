// Shared storage (S3) that does not answer is named as the storage, not the database: a request
// that meets it answers 503 storage_unavailable with Retry-After, and the database check does
// not take the storage's network errors for its own.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../../server/db/database-unavailable.js';
import { StorageUnavailableError } from '../../../server/storage/storage-unavailable.js';
import { solidPng } from '../generation/helpers/fake-providers.js';
import { createGenerationApp, type GenerationTestApp } from '../generation/helpers/generation-app.js';

/** A loopback port nobody listens on: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an unreachable S3 bucket', () => {
  let t: GenerationTestApp;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
    process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
    const env = { STORAGE_URL: 's3://loom/unreachable', S3_ENDPOINT: `http://127.0.0.1:${await closedPort()}`, S3_FORCE_PATH_STYLE: 'true' };
    t = await createGenerationApp('sqlite', undefined, undefined, undefined, { env });
  });
  afterAll(async () => {
    await t?.close();
    for (const [name, value] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('answers 503 storage_unavailable with Retry-After when an upload cannot be stored', async () => {
    const r = await t.call('POST', '/third-api/workshop/items', {
      token: await t.adminToken(),
      headers: { 'x-api-version': 'v1' },
      form: [
        { name: 'type', value: 'image' },
        { name: 'images', value: await solidPng(64, 64, '#336699'), filename: 'swatch.png' },
      ],
    });
    expect(r.status).toBe(503);
    expect(r.body.message).toMatch(/^The file storage is briefly unavailable; please try again in \d+ s$/);
    expect(r.response.headers['retry-after']).toBeDefined();
  });

  it('the database check leaves a storage error to the storage', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(new StorageUnavailableError(refused))).toBe(false);
  });
});
