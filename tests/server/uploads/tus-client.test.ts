// The PWA's tus client (src/lib/upload/tus-upload.ts, tus-js-client in Node) against the companion
// server's real endpoint: an attempt in chunks reports the bytes the server has and the upload's
// URL; an attempt stopped part-way is resumed from the kept URL at the server's offset and the
// stored bytes are the file's; a gone upload is created anew; refusals come back with their status,
// code and message for the queue's retry policy to judge; a connection that stops moving bytes
// ends the attempt as a network failure, and the next one resumes; an attempt cut mid-chunk, or
// refused for its offset after a resend, reports what the server kept, and one whose bytes never
// reached the server reports nothing new.
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTusAttempt, uploadIdOf, type TusAttempt } from '../../../src/lib/upload/tus-upload.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { sha256 } from './tus-wire.js';

describe('the PWA tus client against the server', () => {
  let t: TestApp;
  let endpoint = '';
  let token = '';
  let file: Buffer;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const config = (await (await fetch(`${base}/config.json`)).json()) as { uploads: { tus: string } };
    endpoint = new URL(config.uploads.tus, base).href;
    token = (await t.createUser('DESIGNER')).token;
    file = await sharp({
      create: { width: 128, height: 128, channels: 3, background: '#446688', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
  });
  afterAll(() => t?.close());

  const attempt = (over: Partial<TusAttempt> = {}): TusAttempt => ({
    endpoint,
    file,
    size: file.length,
    fileName: 'swatch.png',
    fileType: 'image/png',
    purpose: 'upscale',
    token: () => token,
    chunkSize: 8 * 1024,
    signal: new AbortController().signal,
    ...over,
  });

  const stored = (id: string) => readFile(path.join(t.dataDir, 'uploads', id));

  it('uploads in chunks, reporting the URL and the bytes the server has', async () => {
    const urls: string[] = [];
    const accepted: number[] = [];
    const outcome = await runTusAttempt(attempt({ onUrl: (u) => urls.push(u), onAccepted: (b) => accepted.push(b) }));
    expect(outcome.kind).toBe('done');
    if (outcome.kind !== 'done') return;
    expect(urls).toEqual([outcome.url]);
    expect(outcome.id).toBe(uploadIdOf(outcome.url));
    expect(accepted.length).toBeGreaterThan(3);
    expect(accepted).toEqual([...accepted].sort((a, b) => a - b));
    expect(accepted.at(-1)).toBe(file.length);
    expect(sha256(await stored(outcome.id))).toBe(sha256(file));
  });

  it('an attempt stopped part-way resumes from the kept URL at the server offset', async () => {
    const stop = new AbortController();
    let url = '';
    const first = await runTusAttempt(
      attempt({
        signal: stop.signal,
        onUrl: (u) => (url = u),
        onAccepted: (bytes) => {
          if (bytes >= 16 * 1024) stop.abort();
        },
      }),
    );
    expect(first.kind).toBe('aborted');
    expect(url).not.toBe('');
    const accepted: number[] = [];
    const second = await runTusAttempt(attempt({ uploadUrl: url, onAccepted: (b) => accepted.push(b) }));
    expect(second).toMatchObject({ kind: 'done', url });
    // The first figure is the server's offset on resume: what the stopped attempt left there.
    expect(accepted[0]).toBeGreaterThanOrEqual(16 * 1024);
    expect(sha256(await stored(uploadIdOf(url)))).toBe(sha256(file));
  });

  it('a kept URL the server no longer knows starts a new upload', async () => {
    const urls: string[] = [];
    const gone = `${endpoint.replace(/\/+$/, '')}/00000000000000000000000000000000`;
    const outcome = await runTusAttempt(attempt({ uploadUrl: gone, onUrl: (u) => urls.push(u) }));
    expect(outcome.kind).toBe('done');
    expect(urls).toHaveLength(1);
    expect(urls[0]).not.toBe(gone);
  });

  it('a connection that stops answering ends the attempt as a network failure, and the next attempt resumes', async () => {
    // In front of the server, a link that passes everything but the third PATCH, whose bytes it
    // takes and never answers: the socket a roaming tablet leaves behind, with no reset.
    let patches = 0;
    const held: http.ServerResponse[] = [];
    const target = new URL(endpoint);
    const link = http.createServer((req, res) => {
      if (req.method === 'PATCH' && ++patches === 3) {
        req.resume();
        held.push(res);
        return;
      }
      const forward = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => link.listen(0, '127.0.0.1', resolve));
    try {
      const through = `http://127.0.0.1:${(link.address() as AddressInfo).port}${target.pathname}`;
      let url = '';
      const started = Date.now();
      const first = await runTusAttempt(attempt({ endpoint: through, stallMs: 400, onUrl: (u) => (url = u) }));
      expect(first).toMatchObject({ kind: 'network' });
      if (first.kind === 'network') expect(first.message).toMatch(/stalled/);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(held).toHaveLength(1);
      // The next attempt, on a link that works, resumes the kept URL and stores the file whole.
      const accepted: number[] = [];
      const second = await runTusAttempt(attempt({ uploadUrl: url, onAccepted: (b) => accepted.push(b) }));
      expect(second).toMatchObject({ kind: 'done' });
      expect(accepted[0]).toBeGreaterThanOrEqual(2 * 8 * 1024);
      if (second.kind === 'done') expect(sha256(await stored(second.id))).toBe(sha256(file));
    } finally {
      for (const res of held) res.destroy();
      await new Promise((resolve) => link.close(resolve));
    }
  });

  /**
   * A file of two chunks and a part, so a cut can fall in the second; in chunks large enough that
   * Node's HTTP stack reports the bytes it sends.
   */
  const chunk = 64 * 1024;
  const threeFiles = () => Buffer.concat([file, file, file]);
  const longAttempt = (over: Partial<TusAttempt> = {}) => {
    const big = threeFiles();
    return attempt({ file: big, size: big.length, chunkSize: chunk, ...over });
  };

  const CUT_AFTER = 20 * 1024;

  /** Resolves once the server's copy of an upload holds `bytes` (or after 10 s). */
  async function keptBy(id: string, bytes: number): Promise<void> {
    for (let waited = 0; waited < 10_000; waited += 20) {
      const size = await stat(path.join(t.dataDir, 'uploads', id)).then((s) => s.size, () => 0);
      if (size >= bytes) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * In front of the server, a link that passes everything but the second PATCH: `cut` forwards its
   * first 20 KB and then drops both sides, as a fair's network drops mid-chunk; `outage` takes all
   * of it and forwards nothing, as a middlebox that refuses large bodies; `resend` forwards its
   * first 20 KB, drops that connection, and sends the PATCH again whole, as a browser resends a
   * request whose reused connection was reset, and hands back the server's answer. It counts the
   * HEADs.
   */
  async function cuttingLink(mode: 'cut' | 'outage' | 'resend') {
    let patches = 0;
    let heads = 0;
    const target = new URL(endpoint);
    const link = http.createServer((req, res) => {
      if (req.method === 'HEAD') heads += 1;
      const { hostname: host, port } = target;
      const to = { host, port, path: req.url, method: req.method, headers: req.headers };
      /** The request to the server, whose answer goes back to the device. */
      const upstream = () =>
        http.request(to, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
      if (req.method !== 'PATCH' || ++patches !== 2) {
        return void req.pipe(upstream().on('error', () => req.socket.destroy()));
      }
      if (mode === 'outage') return void req.resume().once('end', () => req.socket.destroy());
      // The first 20 KB reach the server on a request that is then dropped, once the server wrote them.
      const dropped = http.request(to).on('error', () => {});
      const dropOnceKept = () =>
        keptBy(uploadIdOf(req.url ?? ''), chunk + CUT_AFTER).then(() => dropped.destroy());
      if (mode === 'resend') {
        const body: Buffer[] = [];
        req.on('data', (piece: Buffer) => body.push(piece));
        return void req.once('end', () => {
          const whole = Buffer.concat(body);
          dropped.write(whole.subarray(0, CUT_AFTER));
          void dropOnceKept().then(() => upstream().end(whole));
        });
      }
      let passed = 0;
      req.on('data', (piece: Buffer) => {
        if (passed >= CUT_AFTER) return;
        const part = piece.subarray(0, CUT_AFTER - passed);
        passed += part.length;
        dropped.write(part);
        if (passed === CUT_AFTER) void dropOnceKept().then(() => req.socket.destroy());
      });
    });
    await new Promise<void>((resolve) => link.listen(0, '127.0.0.1', resolve));
    const through = `http://127.0.0.1:${(link.address() as AddressInfo).port}${target.pathname}`;
    return { through, heads: () => heads, close: () => new Promise((resolve) => link.close(resolve)) };
  }

  it('a cut mid-chunk asks the server what it kept, so the caller sees the upload moved on', async () => {
    const link = await cuttingLink('cut');
    try {
      const accepted: number[] = [];
      let url = '';
      const cut = await runTusAttempt(
        longAttempt({ endpoint: link.through, onUrl: (u) => (url = u), onAccepted: (b) => accepted.push(b) }),
      );
      expect(cut).toMatchObject({ kind: 'network' });
      expect(link.heads()).toBe(1);
      // Past the first chunk: the 20 KB of the cut chunk that reached the server, as the server says.
      expect(accepted.at(-1)).toBe(chunk + CUT_AFTER);
      const held = (await stored(uploadIdOf(url))).length;
      expect(accepted.at(-1)).toBe(held);
      const resumed: number[] = [];
      const done = await runTusAttempt(longAttempt({ uploadUrl: url, onAccepted: (b) => resumed.push(b) }));
      expect(done).toMatchObject({ kind: 'done', url });
      expect(resumed[0]).toBe(held);
      expect(sha256(await stored(uploadIdOf(url)))).toBe(sha256(threeFiles()));
    } finally {
      await link.close();
    }
  });

  it.each([
    [
      'a cut that got nothing through reports no progress, though the server was asked',
      'outage' as const,
      { kind: 'network' },
      [chunk],
    ],
    [
      'a PATCH resent after a cut and refused for its offset (409) asks the server what it kept',
      'resend' as const,
      { kind: 'http-error', status: 409 },
      [chunk, chunk + CUT_AFTER],
    ],
  ])('%s', async (_what, mode, ends, reported) => {
    const link = await cuttingLink(mode);
    try {
      const accepted: number[] = [];
      const outcome = await runTusAttempt(
        longAttempt({ endpoint: link.through, onAccepted: (b) => accepted.push(b) }),
      );
      expect(outcome).toMatchObject(ends);
      expect(link.heads()).toBe(1);
      expect(accepted).toEqual(reported);
    } finally {
      await link.close();
    }
  });

  it('refusals come back with status, code and message', async () => {
    const noToken = await runTusAttempt(attempt({ token: () => 'not-a-token' }));
    expect(noToken).toMatchObject({ kind: 'http-error', status: 401 });
    const pdf = await runTusAttempt(attempt({ fileType: 'application/pdf' }));
    expect(pdf).toMatchObject({ kind: 'http-error', status: 415, code: 415 });
    if (pdf.kind === 'http-error') expect(pdf.message).not.toBe('');
  });
});
