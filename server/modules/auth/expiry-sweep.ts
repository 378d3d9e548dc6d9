// When the sign-in tables are swept of rows nobody can use any more (expired refresh tokens and
// verification codes, lapsed throttle windows): once as the server starts, then periodically.
import type { FastifyInstance } from 'fastify';

export const EXPIRY_SWEEP_INTERVAL_MS = 10 * 60_000;

export interface SweepCounts {
  refreshTokens: number;
  verificationCodes: number;
  throttleCounters: number;
}

export function scheduleExpirySweep(
  app: FastifyInstance,
  sweep: () => Promise<SweepCounts>,
  everyMs: number = EXPIRY_SWEEP_INTERVAL_MS,
): void {
  let running: Promise<void> | undefined;
  const run = () => {
    // A slow sweep is not started again on top of itself.
    running ??= sweep()
      .then((counts) => app.log.debug({ counts }, 'expired sign-in rows deleted'))
      .catch((error: unknown) => app.log.warn({ err: error }, 'expiry sweep failed; the next one retries'))
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await run();
    // unref: the timer alone never keeps the process alive.
    timer = setInterval(() => void run(), everyMs).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    // Let a sweep in progress finish before the database closes under it.
    await running;
  });
}
