// Start after a crash between enqueue and "mark queued": the queue store already holds items for
// some pending files, and those must not be enqueued a second time.
import { describe, expect, it } from 'vitest';
import { idbFileStore } from '../../../src/features/image-processing/model/file-store';
import {
  loadQueuedFileIds,
  splitByQueued,
} from '../../../src/features/image-processing/model/queued-file-ids';
import { createIdbQueueStore } from '../../../src/workers/upscale-queue/idb-queue-store';
import { AUTH, PARAMS, createHarness } from './queue-harness';

const file = (id: string, owner = AUTH.owner) => ({
  id,
  userKey: owner,
  name: `${id}.png`,
  type: 'image/png',
  size: 3,
  blob: new Blob(['png']),
  addedAt: 1,
});

describe('files the queue already holds', () => {
  it('splits pending files into fresh ones and ones whose item exists', () => {
    const files = [file('a'), file('b'), file('c')];
    const { fresh, alreadyQueued } = splitByQueued(files, new Set(['b', 'zz']));
    expect(fresh.map((f) => f.id)).toEqual(['a', 'c']);
    expect(alreadyQueued.map((f) => f.id)).toEqual(['b']);
  });

  it('reads the persisted items of this user: a file enqueued before a crash is not sent again', async () => {
    for (const id of ['a', 'b', 'c']) await idbFileStore.put(file(id));
    const harness = createHarness(createIdbQueueStore());
    await harness.engine.configure(AUTH);
    await harness.engine.enqueue(
      [file('a'), file('b')].map((f) => ({
        fileId: f.id,
        name: f.name,
        type: f.type,
        size: f.size,
        blob: f.blob,
      })),
      PARAMS,
    );
    // The page died here: the files were never marked queued.
    const pending = (await idbFileStore.list(AUTH.owner)).filter((f) => !f.queued);
    expect(pending.map((f) => f.id)).toEqual(['a', 'b', 'c']);

    const queued = await loadQueuedFileIds(AUTH.owner);
    expect(splitByQueued(pending, queued).fresh.map((f) => f.id)).toEqual(['c']);
    expect((await loadQueuedFileIds('someone-else')).size).toBe(0);
  });

  it('keeps the noise estimate on the file record across a reload and later patches', async () => {
    const noise = {
      blockiness: 1.7,
      noiseSigma: 2.5,
      level: 'denoise3x' as const,
      reason: 'heavyJpeg' as const,
    };
    await idbFileStore.put({ ...file('n'), noise });
    await idbFileStore.patchMany(['n'], { queued: true });
    const [stored] = (await idbFileStore.list(AUTH.owner)).filter((f) => f.id === 'n');
    expect(stored?.noise).toEqual(noise);
    expect(stored?.queued).toBe(true);
  });
});
