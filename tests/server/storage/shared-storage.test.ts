// Two replicas of the companion server on one database, one JWT secret and one S3 bucket, each
// with a data folder of its own: what one stores (generation candidates and thumbnails made by the
// built-in engine, an upscale result) the other serves through its signed link, byte ranges
// included. And STORAGE_URL's settings are checked at start.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { openDatabase, type Db } from '../../../server/db/database.js';
import { createSignedLinks } from '../../../server/storage/signed-links.js';
import { ensureAdmin } from '../../../server/modules/users/ensure-admin.js';
import { FAST_RUNNER, multipart, sseEvents } from '../generation/helpers/generation-app.js';
import { POSTGRES_URL, databaseKinds, dropSchema, uniqueSchema } from '../helpers/databases.js';
import { makeImage, multipart as upscaleForm } from '../upscale-service/upscale-helpers.js';
import { startS3Server, type S3TestServer } from './s3-server.js';
import { testServerEnv } from '../helpers/test-config.js';

const ADMIN = { account: 'storage-admin', password: 'admin-secret' };
const SECRET = 'a-secret-every-replica-shares-0123456789';

let s3: S3TestServer;
const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `loom-${label}-`));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Replica {
  app: FastifyInstance;
  dataDir: string;
}

for (const dbKind of databaseKinds) {
  describe.skipIf(dbKind.skip)(`two replicas on one S3 bucket (${dbKind.kind})`, () => {
    const schema = uniqueSchema();
    const prefix = `replicas-${dbKind.kind}-${schema}`;
    let shared: Db | undefined;
    let a: Replica;
    let b: Replica;

    const start = async (pollMs: number): Promise<Replica> => {
      const dataDir = tempDir('replica');
      const config = loadConfig({
        ...testServerEnv(dataDir, ADMIN),
        JWT_SECRET: SECRET,
        UPSCALE_THREADS: '1',
        ...(dbKind.kind === 'postgres' ? { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema } : {}),
        ...s3.env(prefix),
      });
      const app = await buildApp(config, {
        // SQLite: one database file, shared as one connection; PostgreSQL: a pool of each replica's own.
        ...(shared ? { db: shared } : {}),
        generation: {
          runner: { ...FAST_RUNNER, maxRunMs: 120_000, budgetMs: 120_000, pollMs },
          local: { textPauseMs: 0, video: { fps: 8, maxShortSide: 144, pollIntervalMs: 50 } },
        },
      });
      await ensureAdmin(config, app.services);
      await app.ready();
      return { app, dataDir };
    };

    beforeAll(async () => {
      if (dbKind.kind === 'sqlite') {
        shared = await openDatabase({ kind: 'sqlite', file: path.join(tempDir('replica-db'), 'loom.sqlite') });
      }
      a = await start(20);
      // B's runner looks at the table only as it starts: every job runs on A, whose event stream the
      // test reads (progress across processes is another part of team mode).
      b = await start(3_600_000);
    });
    afterAll(async () => {
      await a?.app.close();
      await b?.app.close();
      await shared?.close();
      if (dbKind.kind === 'postgres') await dropSchema(schema);
    });

    const login = async (app: FastifyInstance, account: string, password: string) => {
      const r = await app.inject({ method: 'POST', url: '/api/auth/login-password', payload: { account, password } });
      expect(r.statusCode).toBe(200);
      return r.json<{ data: { token: string } }>().data.token;
    };
    let users = 0;
    /** A user made through A, signed in through B (same database, same secret). */
    const user = async (level: 'GENERAL' | 'DESIGNER') => {
      users += 1;
      const account = `storage-${level.toLowerCase()}-${users}-${Date.now().toString(36)}`;
      const made = await a.app.inject({
        method: 'POST',
        url: '/api/users/',
        headers: { authorization: `Bearer ${await login(a.app, ADMIN.account, ADMIN.password)}` },
        payload: { account, password: 'pass-123456', user_level: level },
      });
      expect(made.statusCode).toBe(201);
      return login(b.app, account, 'pass-123456');
    };

    it('candidates made on A are stored in the bucket and B serves them through their signed links, with ranges', async () => {
      const token = await user('GENERAL');
      const model = await sharp({ create: { width: 80, height: 120, channels: 3, background: '#c8b8a8' } }).png().toBuffer();
      const pattern = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1f4e9c' } }).png().toBuffer();
      const form = multipart([
        { name: 'prompt', value: 'A summer shirt dress' },
        { name: 'request_id', value: `shared-${dbKind.kind}` },
        { name: 'fabric_name', value: 'Cotton poplin' },
        { name: 'language', value: 'en-US' },
        { name: 'aspect', value: 'vertical' },
        { name: 'model_images', value: model, filename: 'model.png' },
        { name: 'pattern_images', value: pattern, filename: 'pattern.png' },
      ]);
      const analysed = await a.app.inject({
        method: 'POST',
        url: '/image-api/analyze-images-json-stream',
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', ...form.headers },
        payload: form.payload,
      });
      expect(analysed.statusCode).toBe(200);
      const last = sseEvents(analysed.body).at(-1) as {
        type: string;
        data: { images: { status: string; provider: string; url: string; thumbnail_url: string }[] };
      };
      expect(last.type, JSON.stringify(last).slice(0, 400)).toBe('complete');
      const images = last.data.images;
      expect(images).toHaveLength(6);
      expect(images.every((i) => i.status === 'completed' && i.provider === 'local')).toBe(true);

      // Every byte is in the bucket: uploads, candidates and thumbnails; no replica kept files on its disk.
      const keys = await s3.keys(`${prefix}/files/`);
      const keyOf = (url: string) => {
        const id = new URL(url, 'http://x').pathname.split('/')[3]!;
        return `${prefix}/files/${id.slice(0, 2)}/${id}`;
      };
      const linked = new Set(images.flatMap((i) => [keyOf(i.url), keyOf(i.thumbnail_url)]));
      expect(keys).toEqual(expect.arrayContaining([...linked]));
      // ...and the two uploads besides.
      expect(keys).toHaveLength(linked.size + 2);
      for (const r of [a, b]) expect(readdirSync(r.dataDir)).not.toContain('files');

      for (const image of images) {
        const whole = await a.app.inject({ method: 'GET', url: image.url });
        expect(whole.statusCode).toBe(200);
        expect(whole.headers['content-type']).toMatch(/^image\/(png|jpeg|webp)$/);
        const bytes = whole.rawPayload;
        const fromB = await b.app.inject({ method: 'GET', url: image.url });
        expect(fromB.rawPayload.equals(bytes)).toBe(true);
        const ranged = await b.app.inject({ method: 'GET', url: image.url, headers: { range: 'bytes=8-99' } });
        expect(ranged.statusCode).toBe(206);
        expect(ranged.headers['content-range']).toBe(`bytes 8-99/${bytes.length}`);
        expect(ranged.rawPayload.equals(bytes.subarray(8, 100))).toBe(true);
        const suffix = await b.app.inject({ method: 'GET', url: image.url, headers: { range: 'bytes=-16' } });
        expect(suffix.statusCode).toBe(206);
        expect(suffix.rawPayload.equals(bytes.subarray(-16))).toBe(true);
        const thumb = await b.app.inject({ method: 'GET', url: image.thumbnail_url });
        expect(thumb.statusCode).toBe(200);
        expect(thumb.headers['content-type']).toBe('image/webp');
      }
      const beyond = await b.app.inject({ method: 'GET', url: images[0]!.url, headers: { range: 'bytes=99999999-' } });
      expect(beyond.statusCode).toBe(416);
      // The signature is still the check on B.
      const forged = images[0]!.url.replace(/sig=[^&]+/, 'sig=AAAA');
      expect((await b.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    });

    it('an upscale result written by A is downloaded through B, whole and by range', async () => {
      const token = await user('DESIGNER');
      const body = upscaleForm({ model_name: 'up2x-conservative' }, [
        { filename: 'swatch.png', contentType: 'image/png', data: await makeImage('png', 24, 16) },
      ]);
      const r = await a.app.inject({
        method: 'POST',
        url: '/upscale-api/upscale/single',
        headers: { ...body.headers, authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
        payload: body.payload,
      });
      expect(r.statusCode, r.body).toBe(200);
      const { url, width } = r.json<{ url: string; width: number }>();
      expect(width).toBe(48);
      const id = new URL(url, 'http://x').pathname.split('/')[3]!;
      expect(await s3.keys(`${prefix}/upscale-results/${id}/`)).toHaveLength(1);
      for (const rep of [a, b]) expect(readdirSync(rep.dataDir)).not.toContain('upscale-results');

      const whole = await b.app.inject({ method: 'GET', url });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('image/png');
      expect((await sharp(whole.rawPayload).metadata()).width).toBe(48);
      const ranged = await b.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-0' } });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 0-0/${whole.rawPayload.length}`);
      expect(ranged.rawPayload.equals(whole.rawPayload.subarray(0, 1))).toBe(true);
      expect(ranged.headers['content-length']).toBe('1');
    });
  });
}

describe('a result link on the local disk answers byte ranges too', () => {
  it('206 with Content-Range from the default store', async () => {
    const dataDir = tempDir('disk-ranges');
    const config = loadConfig({
      ...testServerEnv(dataDir, ADMIN),
      UPSCALE_THREADS: '1',
    });
    expect(config.storage).toEqual({ kind: 'disk' });
    const app = await buildApp(config);
    try {
      await ensureAdmin(config, app.services);
      await app.ready();
      const saved = await app.upscale!.store.save('cloth_up2x.png', Buffer.from('0123456789'));
      expect(app.upscale!.store.root).toBe(path.join(dataDir, 'upscale-results'));
      const link = createSignedLinks(config.jwtSecret, 'upscaleResult', '/upscale-api', 60).sign(saved.id, 'cloth_up2x.png', Date.now());
      const ranged = await app.inject({ method: 'GET', url: link, headers: { range: 'bytes=2-5' } });
      expect(ranged.statusCode).toBe(206);
      expect(ranged.headers['content-range']).toBe('bytes 2-5/10');
      expect(ranged.body).toBe('2345');
      const whole = await app.inject({ method: 'GET', url: link });
      expect([whole.statusCode, whole.body, whole.headers['accept-ranges']]).toEqual([200, '0123456789', 'bytes']);
    } finally {
      await app.close();
    }
  });
});

describe('STORAGE_URL settings', () => {
  const base = () => ({ DATA_DIR: tempDir('config') });
  const problem = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base(), ...env });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('accepted');
  };

  it('reads the bucket, the prefix and the S3 settings', () => {
    expect(loadConfig(base()).storage).toEqual({ kind: 'disk' });
    expect(loadConfig({ ...base(), STORAGE_URL: 's3://loom-files' }).storage).toEqual({
      kind: 's3',
      bucket: 'loom-files',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        ...base(),
        STORAGE_URL: 's3://loom/team-a/studio/',
        S3_ENDPOINT: 'http://127.0.0.1:9000/',
        S3_REGION: 'auto',
        S3_FORCE_PATH_STYLE: 'true',
      }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'loom',
      prefix: 'team-a/studio/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'auto',
      forcePathStyle: true,
    });
  });

  it('stops at start with a message naming a bad value', () => {
    for (const bad of ['/mnt/nfs/loom', 'file:///data', 's3://', 's3://Upper_Case', 'gs://bucket']) {
      expect(problem({ STORAGE_URL: bad })).toMatch(/STORAGE_URL: must be s3:\/\/bucket or s3:\/\/bucket\/prefix/);
    }
    expect(problem({ STORAGE_URL: 's3://loom', S3_ENDPOINT: 'minio:9000' })).toMatch(/S3_ENDPOINT: must be an http/);
    expect(problem({ STORAGE_URL: 's3://loom', S3_FORCE_PATH_STYLE: 'yes' })).toMatch(/S3_FORCE_PATH_STYLE/);
    expect(problem({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(/S3_ENDPOINT: set STORAGE_URL/);
  });
});
