// The PWA's tus client (src/lib/upload/tus-upload.ts, tus-js-client in Node) against the companion
// server's real endpoint: an attempt in chunks reports the bytes the server has and the upload's
// URL; an attempt stopped part-way is resumed from the kept URL at the server's offset and the
// stored bytes are the file's; a gone upload is created anew; refusals come back with their status,
// code and message for the queue's retry policy to judge; a connection that stops moving bytes
// ends the attempt as a network failure, and the next one resumes.
import { readFile } from 'node:fs/promises';
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

  it('refusals come back with status, code and message', async () => {
    const noToken = await runTusAttempt(attempt({ token: () => 'not-a-token' }));
    expect(noToken).toMatchObject({ kind: 'http-error', status: 401 });
    const pdf = await runTusAttempt(attempt({ fileType: 'application/pdf' }));
    expect(pdf).toMatchObject({ kind: 'http-error', status: 415, code: 415 });
    if (pdf.kind === 'http-error') expect(pdf.message).not.toBe('');
  });
});
