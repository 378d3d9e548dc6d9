// What a probe of the served stack looks at beyond the API envelope: HTTPS-only headers that must
// not break plain-HTTP LAN use, the server's own TLS, private data files, and no source maps.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { openDatabase } from '../../server/db/database.js';
import { inlineScriptHashes } from '../../server/http/inline-scripts.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';

const mode = (file: string) => statSync(file).mode & 0o777;

describe('HTTPS-only headers', () => {
  let plain: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    plain = await createTestApp('sqlite');
    proxied = await createTestApp('sqlite', { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await plain?.close();
    await proxied?.close();
  });

  it('sends neither HSTS nor upgrade-insecure-requests over plain HTTP', async () => {
    for (const url of ['/config.json', '/nothing-here']) {
      const r = await plain.app.inject({ method: 'GET', url });
      expect(String(r.headers['content-security-policy'])).toMatch(/default-src 'self'/);
      expect(String(r.headers['content-security-policy'])).not.toMatch(/upgrade-insecure-requests/);
      expect(r.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const r = await plain.app.inject({
      method: 'GET',
      url: '/config.json',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(String(r.headers['content-security-policy'])).not.toMatch(/upgrade-insecure-requests/);
    expect(r.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends both when a trusted proxy says the request came over HTTPS', async () => {
    for (const url of ['/config.json', '/nothing-here']) {
      const r = await proxied.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toMatch(/(^|;)\s*upgrade-insecure-requests(;|$)/);
      expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
      expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    const http = await proxied.app.inject({
      method: 'GET',
      url: '/config.json',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(String(http.headers['content-security-policy'])).not.toMatch(/upgrade-insecure-requests/);
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});

const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** A throw-away self-signed certificate for 127.0.0.1, as the README's recipe makes one. */
function selfSignedCert(dir: string): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=loom-test',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}

describe.skipIf(!openssl)(
  'TLS on the server itself (TLS_CERT_FILE / TLS_KEY_FILE; needs the openssl CLI)',
  () => {
    let dir: string;
    let files: { certFile: string; keyFile: string };
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'loom-tls-'));
      files = selfSignedCert(dir);
    });

    it('answers over HTTPS with the certificate and sends the HTTPS-only headers', async () => {
      const t = await createTestApp('sqlite', { TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile });
      try {
        const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
        expect(address).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        // Trust exactly this certificate, as a tablet does once it is installed there.
        const ca = t.config.tls?.cert;
        const r = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
          (resolve, reject) => {
            const req = httpsRequest(`${address}/config.json`, { ca }, (res) => {
              let body = '';
              res.on('data', (c: Buffer) => (body += c.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
            });
            req.on('error', reject);
            req.end();
          },
        );
        expect(r.status).toBe(200);
        expect(JSON.parse(r.body)).toMatchObject({ api: { main: '/api' } });
        expect(String(r.headers['content-security-policy'])).toMatch(/upgrade-insecure-requests/);
        expect(r.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      } finally {
        await t.close();
      }
    });

    it('stops at start when a TLS setting is incomplete, unreadable or not a matching pair', () => {
      const base = { DATA_DIR: path.join(dir, 'data') };
      expect(() => loadConfig({ ...base, TLS_CERT_FILE: files.certFile })).toThrow(/TLS_KEY_FILE: required/);
      expect(() => loadConfig({ ...base, TLS_KEY_FILE: files.keyFile })).toThrow(/TLS_CERT_FILE: required/);
      expect(() =>
        loadConfig({ ...base, TLS_CERT_FILE: path.join(dir, 'nope.pem'), TLS_KEY_FILE: files.keyFile }),
      ).toThrow(/TLS_CERT_FILE: cannot read/);
      const other = mkdtempSync(path.join(tmpdir(), 'loom-tls-'));
      const { keyFile: otherKey } = selfSignedCert(other);
      expect(() => loadConfig({ ...base, TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: otherKey })).toThrow(
        ConfigError,
      );
      expect(() =>
        loadConfig({ ...base, TLS_CERT_FILE: files.keyFile, TLS_KEY_FILE: files.keyFile }),
      ).toThrow(/TLS_CERT_FILE, TLS_KEY_FILE: not a usable/);
    });
  },
);

describe('data files are private to the server user', () => {
  it('creates DATA_DIR 0700, the database, its WAL files and the secret 0600', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'loom-perm-')), 'nested', 'data');
    const t = await createTestApp('sqlite', { DATA_DIR: dataDir });
    try {
      // A write, so the -wal and -shm files exist while the database is open.
      await t.createUser('DESIGNER');
      const db = path.join(dataDir, 'loom.sqlite');
      expect(mode(dataDir).toString(8)).toBe('700');
      for (const file of [db, `${db}-wal`, `${db}-shm`, path.join(dataDir, 'jwt-secret')]) {
        expect(mode(file).toString(8), file).toBe('600');
      }
    } finally {
      await t.close();
    }
  });

  it('tightens a database and a secret left readable by others', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'loom-perm-'));
    const file = path.join(dataDir, 'loom.sqlite');
    const old = new SQLite(file);
    old.exec('CREATE TABLE t (x INTEGER)');
    old.close();
    chmodSync(file, 0o644);
    writeFileSync(path.join(dataDir, 'jwt-secret'), 'x'.repeat(48), { mode: 0o644 });
    chmodSync(path.join(dataDir, 'jwt-secret'), 0o644);

    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(mode(path.join(dataDir, 'jwt-secret')).toString(8)).toBe('600');
    const db = await openDatabase(config.database);
    try {
      expect(mode(file).toString(8)).toBe('600');
    } finally {
      await db.close();
    }
  });
});

describe('source maps are never served', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A build that (wrongly) still holds maps, precompressed ones too.
    const dist = mkdtempSync(path.join(tmpdir(), 'loom-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Loom Studio</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1);\n');
    const map = JSON.stringify({
      version: 3,
      sources: ['src/secret.ts'],
      sourcesContent: ['const key = 1;'],
    });
    const mapFile = path.join(dist, 'assets', 'index-abc123.js.map');
    writeFileSync(mapFile, map);
    writeFileSync(`${mapFile}.br`, brotliCompressSync(map));
    writeFileSync(`${mapFile}.gz`, gzipSync(map));
    writeFileSync(path.join(dist, 'sw.js.map'), map);
    t = await createTestApp('sqlite', { STATIC_DIR: dist });
  });
  afterAll(() => t?.close());

  it('answers 404 for a .map file that is present, in any spelling or encoding', async () => {
    for (const url of [
      '/assets/index-abc123.js.map',
      '/assets/index-abc123.js%2Emap',
      '/sw.js.map',
      '/assets/../sw.js.map',
    ]) {
      for (const encoding of ['identity', 'gzip, br']) {
        const r = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
        expect(r.statusCode, `${url} ${encoding}`).toBe(404);
        expect(r.body).not.toContain('sourcesContent');
      }
    }
    const script = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(script.statusCode).toBe(200);
  });
});

describe('the inline boot script of the built PWA', () => {
  let t: TestApp;
  const boot = "document.documentElement.setAttribute('data-theme', 'dark');";
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'loom-dist-'));
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><title>Loom Studio</title><script>${boot}</script><script type="module" src="/assets/index.js"></script>`,
    );
    t = await createTestApp('sqlite', { STATIC_DIR: dist });
  });
  afterAll(() => t?.close());

  it('is allowed by its hash, and no other inline script is', async () => {
    const hash = createHash('sha256').update(boot).digest('base64');
    expect(
      inlineScriptHashes(`<script>${boot}</script><script src="/a.js"></script><script>\n</script>`),
    ).toEqual([`'sha256-${hash}'`]);
    const r = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toMatch(
      new RegExp(`script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'(;|$)`),
    );
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });
});
