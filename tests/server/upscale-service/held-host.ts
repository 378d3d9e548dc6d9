// The standalone upscale host on a real socket, with a HeldEngine, one engine slot and one queue
// place: the setup the queue and cancel suites share, so a client can really hang up and a job
// stays running until the test lets it go.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildUpscaleApp } from '../../../server/modules/upscale/upscale-app.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { HeldEngine } from './held-engine.js';
import { makeImage } from './upscale-helpers.js';

export interface HeldHost {
  t: TestApp;
  app: FastifyInstance;
  engine: HeldEngine;
  port: number;
  /** a designer's access token */
  designer: string;
  /** a small PNG to upload */
  image: Buffer;
  close: () => Promise<void>;
}

export async function startHeldHost(
  config: Partial<Omit<TestApp['config'], 'upscale'>> & {
    upscale?: Partial<TestApp['config']['upscale']>;
  } = {},
): Promise<HeldHost> {
  const t = await createTestApp('sqlite');
  const designer = (await t.createUser('DESIGNER')).token;
  const image = await makeImage('png', 8, 8);
  const engine = new HeldEngine();
  const app = await buildUpscaleApp(
    {
      ...t.config,
      ...config,
      upscale: { ...t.config.upscale, concurrency: 1, maxQueue: 1, ...config.upscale },
    },
    { db: t.app.db, engines: () => engine },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    t,
    app,
    engine,
    port,
    designer,
    image,
    close: async () => {
      await app.close();
      await t.close();
    },
  };
}
