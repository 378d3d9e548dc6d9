import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../server/config.js';
import { routeAccess } from '../../server/http/route-access.js';
import { LOCALES, messageKeys, rawCatalogue } from '../../server/http/messages.js';
import { databaseKinds } from './helpers/databases.js';
import { ADMIN, createTestApp, type TestApp } from './helpers/test-app.js';
import { readOutbox } from './helpers/outbox.js';

for (const db of databaseKinds) {
  describe.skipIf(db.skip)(`HTTP envelope and hardening on ${db.kind}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(db.kind, { BODY_LIMIT_BYTES: '2048', CORS_ORIGINS: 'https://fair.example' });
    });
    afterAll(() => t?.close());

    it('serves /config.json with each API group base URL', async () => {
      const r = await t.app.inject({ method: 'GET', url: '/config.json' });
      expect(r.json()).toEqual({
        api: { main: '/api', image: '/image-api', upscale: '/upscale-api', third: '/third-api' },
        uploads: { tus: '/api/uploads/' },
        version: '1.0.0',
      });
    });

    it('answers unknown routes with a 404 envelope', async () => {
      for (const url of ['/api/nothing-here', '/nothing-here']) {
        const r = await t.call('GET', url);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ success: false, code: 404, message: 'Resource not found', data: null });
      }
    });

    it('answers malformed JSON with 400, an oversized body with 413, a wrong type with 415', async () => {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login-password',
        headers: { 'content-type': 'application/json', 'accept-language': 'en' },
        payload: '{"account": ',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        success: false,
        code: 400,
        message: 'The request body is not valid JSON',
      });
      const big = await t.call('POST', '/api/auth/login-password', {
        body: { account: 'a'.repeat(5000), password: 'x' },
      });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ success: false, code: 413 });
      const xml = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login-password',
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toMatchObject({ success: false, code: 415 });
    });

    it('sends security headers: CSP without inline script, no framing, request ids', async () => {
      const r = await t.app.inject({
        method: 'GET',
        url: '/config.json',
        headers: { 'x-request-id': 'abc-123' },
      });
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-request-id']).toBe('abc-123');
    });

    it('allows cross-origin calls only from configured origins', async () => {
      const allowed = await t.app.inject({
        method: 'GET',
        url: '/config.json',
        headers: { origin: 'https://fair.example' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://fair.example');
      const other = await t.app.inject({
        method: 'GET',
        url: '/config.json',
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('answers a server failure with a 500 envelope and no stack trace', async () => {
      const token = await t.adminToken();
      // Break the database under the running server.
      await t.app.db.kysely.schema.alterTable('users').renameTo('users_gone').execute();
      try {
        const r = await t.call('GET', '/api/user/profile', { token });
        expect(r.status).toBe(500);
        expect(r.body).toEqual({ success: false, code: 500, message: 'Internal server error', data: null });
        expect(r.response.body).not.toMatch(/at .*\.ts|stack|SqliteError|does not exist|no such table/);
      } finally {
        await t.app.db.kysely.schema.alterTable('users_gone').renameTo('users').execute();
      }
    });
  });
}

describe('serving the built PWA', () => {
  let t: TestApp;
  const script = `console.log(${JSON.stringify('loom '.repeat(400))});`;
  beforeAll(async () => {
    // A build as vite-precompress leaves it: each text asset beside its .br and .gz.
    const dist = mkdtempSync(path.join(tmpdir(), 'loom-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Loom Studio</title>');
    const asset = path.join(dist, 'assets', 'index-abc123.js');
    writeFileSync(asset, script);
    writeFileSync(`${asset}.br`, brotliCompressSync(script));
    writeFileSync(`${asset}.gz`, gzipSync(script));
    t = await createTestApp('sqlite', { STATIC_DIR: dist });
  });
  afterAll(() => t?.close());

  it('sends the precompressed file the browser accepts, and the plain one otherwise', async () => {
    const br = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const plain = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    const index = await t.app.inject({ method: 'GET', url: '/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.body).toContain('Loom Studio');
  });
});

describe('configuration', () => {
  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_PASSWORD: '123' })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_PASSWORD: '123' });
    } catch (error) {
      const text = (error as Error).message;
      expect(text).toMatch(/PORT/);
      expect(text).toMatch(/DATABASE_URL: must be a postgres/);
      expect(text).toMatch(/ADMIN_PASSWORD: must be at least 6/);
    }
  });

  it('has defaults for a fresh machine', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/loom-config-test' });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      database: { kind: 'sqlite' },
      sms: { kind: 'outbox' },
    });
  });
});

describe('main API base URL (MAIN_API_URL)', () => {
  it('mounts the main group under a configured path and tells the PWA', async () => {
    const t = await createTestApp('sqlite', { MAIN_API_URL: '/v2/main/' });
    try {
      const config = await t.app.inject({ method: 'GET', url: '/config.json' });
      expect(config.json()).toMatchObject({ api: { main: '/v2/main/' } });
      const login = await t.call('POST', '/v2/main/auth/login-password', { body: ADMIN });
      expect(login.status).toBe(200);
      const profile = await t.call('GET', '/v2/main/user/profile');
      expect(profile.status).toBe(401);
      expect((await t.call('POST', '/api/auth/login-password', { body: ADMIN })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('points the PWA at another host and lets that origin through the CSP', async () => {
    const t = await createTestApp('sqlite', { MAIN_API_URL: 'https://api.fair.example/loom' });
    try {
      const r = await t.app.inject({ method: 'GET', url: '/config.json' });
      expect(r.json()).toMatchObject({ api: { main: 'https://api.fair.example/loom' } });
      expect(String(r.headers['content-security-policy'])).toMatch(
        /connect-src 'self' https:\/\/api\.fair\.example(;| )/,
      );
    } finally {
      await t.close();
    }
  });

  it('stops at start on a value that is neither a path nor a URL', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/loom-config-test', MAIN_API_URL: 'api' })).toThrow(
      /MAIN_API_URL: must be a path/,
    );
  });
});

describe('route table and messages', () => {
  it('gives every main route a line, admin routes only to ADMIN', () => {
    expect(routeAccess.main['GET /users/']).toEqual(['ADMIN']);
    expect(routeAccess.main['GET /user/profile']).toBe('signed-in');
    expect(routeAccess.main['POST /auth/login-password']).toBe('public');
  });

  it('has every server message in all five languages with the same placeholders', () => {
    for (const key of messageKeys) {
      const vars = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort().join();
      const zh = rawCatalogue[key]['zh-CN'];
      for (const locale of LOCALES) {
        expect(rawCatalogue[key][locale].trim(), `${key} ${locale}`).not.toBe('');
        expect(vars(rawCatalogue[key][locale]), `${key} ${locale}`).toBe(vars(zh));
      }
    }
  });
});

describe('SMS webhook sender', () => {
  let received: { body: unknown; auth: string | undefined }[] = [];
  let failNext = false;
  const gateway = createServer((req: IncomingMessage, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      if (failNext) {
        failNext = false;
        res.writeHead(503).end();
        return;
      }
      received.push({ body: JSON.parse(data), auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  let t: TestApp;
  beforeAll(async () => {
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const port = (gateway.address() as AddressInfo).port;
    t = await createTestApp('sqlite', {
      SMS_WEBHOOK_URL: `http://127.0.0.1:${port}/sms`,
      SMS_WEBHOOK_TOKEN: 'gw-token',
    });
  });
  afterAll(async () => {
    await t?.close();
    gateway.close();
  });

  it('posts the code to the gateway instead of the outbox', async () => {
    received = [];
    await t.createUser('DESIGNER', { phone: '13600000001', international_code: '84' });
    const r = await t.call('POST', '/api/auth/send-code', {
      body: { phone: '13600000001', international_code: '84' },
    });
    expect(r.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      auth: 'Bearer gw-token',
      body: { phone: '13600000001', international_code: '84' },
    });
    expect(readOutbox(t.dataDir)).toHaveLength(0);
  });

  it('says the code was not sent when the gateway fails, and allows an immediate retry', async () => {
    await t.createUser('DESIGNER', { phone: '13600000002' });
    failNext = true;
    const failed = await t.call('POST', '/api/auth/send-code', { body: { phone: '13600000002' } });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe('Failed to send verification code');
    const retry = await t.call('POST', '/api/auth/send-code', { body: { phone: '13600000002' } });
    expect(retry.status).toBe(200);
  });
});
