// Uploads lapse UPLOAD_EXPIRY_HOURS after their creation, finished or not, and are swept from the
// store (disk or bucket) and the table alike: at start and every 10 minutes, on every replica (a
// second sweep of the same upload finds nothing to do). What no row names any more (a replica
// that died between the store's write and the row's) goes once it is an hour past any expiry.
import type { FastifyBaseLogger } from 'fastify';
import type { UploadRepository } from './upload-repository.js';
import type { UploadStore } from './upload-store.js';

const SWEEP_EVERY_MS = 10 * 60 * 1000;
const BATCH = 100;
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface UploadSweep {
  /** One sweep now: the lapsed uploads removed, and what was left without a row. */
  run(): Promise<{ expired: number; orphans: number }>;
  start(): void;
  /** No more sweeps; waits for one that runs. */
  stop(): Promise<void>;
}

export function createUploadSweep(o: {
  repo: UploadRepository;
  store: UploadStore;
  expiryMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}): UploadSweep {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;

  const run = async () => {
    let expired = 0;
    for (;;) {
      const ids = await o.repo.expired(BATCH);
      for (const id of ids) {
        await o.store.remove(id);
        await o.repo.remove(id);
      }
      expired += ids.length;
      if (ids.length < BATCH) break;
    }
    const orphans = await o.store.removeOrphans(o.now().getTime() - o.expiryMs - ORPHAN_GRACE_MS);
    if (expired + orphans > 0) o.log.info({ expired, orphans }, 'swept lapsed uploads');
    return { expired, orphans };
  };

  const tick = () => {
    running ??= run()
      .catch((error: unknown) => o.log.warn({ err: error }, 'upload sweep failed; it runs again later'))
      .finally(() => (running = undefined));
  };

  return {
    run,
    start() {
      tick();
      timer = setInterval(tick, SWEEP_EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
