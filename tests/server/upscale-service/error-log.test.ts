// What the upscale group's error handler writes to the log: a full queue is expected load
// shedding (info, no stack); a real failure stays an error with its stack.
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { EngineSlotQueue } from '../../../server/modules/upscale/engine-slot-queue.js';
import { installUpscaleErrorHandlers } from '../../../server/modules/upscale/upscale-error-handlers.js';

interface LogLine {
  level: number;
  msg?: string;
  err?: { stack?: string };
  [key: string]: unknown;
}

async function logOf(url: string): Promise<{ status: number; lines: LogLine[] }> {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const app = Fastify({ logger: { level: 'trace', stream } });
  installUpscaleErrorHandlers(app, { maxPixels: 100, uploadLimitBytes: 100 });
  const full = new EngineSlotQueue(1, 0);
  void full.run(() => new Promise(() => {}), new AbortController().signal);
  app.get('/full', async () => {
    full.assertCapacity();
  });
  app.get('/broken', async () => {
    throw new Error('engine exploded');
  });
  const r = await app.inject({ method: 'GET', url });
  await app.close();
  return { status: r.statusCode, lines };
}

describe('upscale error log', () => {
  it('logs a 503 queue_full at info, without a stack', async () => {
    const { status, lines } = await logOf('/full');
    expect(status).toBe(503);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain('stack');
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'upscale queue full', code: 'queue_full', retryAfter: 5 }),
    );
  });

  it('still logs an unexpected failure as an error with its stack', async () => {
    const { status, lines } = await logOf('/broken');
    expect(status).toBe(500);
    const errors = lines.filter((l) => l.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.err?.stack).toContain('engine exploded');
  });
});
