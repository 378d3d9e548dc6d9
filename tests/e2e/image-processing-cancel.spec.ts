// Cancel reaches the server: a keyed upscale request that the designer cancels mid-flight stops
// running on the server at once (DELETE /upscale/jobs/{key}), instead of living on for the resend
// grace on the only engine slot while the next image waits. Its own server with one engine slot
// (UPSCALE_CONCURRENCY=1), so "the next image ran" means "the cancelled job let go of the engine".
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { REPLAY_GRACE_MS } from '../../server/modules/upscale/idempotent-results';
import { freePort } from './offline-helpers';
import {
  makePng,
  pngFiles,
  signIn,
  startCountingProxy,
  type CountingProxy,
} from './image-processing-helpers';
import { startServer, type RunningServer } from './server-process';

let server: RunningServer;
let proxy: CountingProxy;

test.setTimeout(120_000);

test.beforeAll(async () => {
  server = await startServer(await freePort(), {
    UPSCALE_CONCURRENCY: '1',
    // E2E_STATIC_DIR: a private build, when other suites rebuild dist/ at the same time.
    ...(process.env.E2E_STATIC_DIR ? { STATIC_DIR: process.env.E2E_STATIC_DIR } : {}),
  });
  proxy = await startCountingProxy(Number(new URL(server.url).port));
});

test.afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

/** Results the server's engine stored: one folder per finished run (a cancelled run writes none). */
const resultsOnServer = () => {
  const dir = path.join(server.dataDir, 'upscale-results');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

const card = (page: Page, name: string) => page.locator(`[data-testid="result-card"][data-name="${name}"]`);

interface CancelCall {
  url: string;
  status: number;
  body: { status?: string; stopped?: boolean };
}

async function addAndStart(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByTestId('upload-input').setInputFiles(files);
  await expect(page.getByTestId('pending-file')).toHaveCount(files.length);
  await page.getByTestId('start-upscale').click();
}

test('a cancelled image stops on the server at once and the image waiting behind it runs', async ({
  page,
}) => {
  const cancels: CancelCall[] = [];
  // The queue worker's requests are reported on the page.
  page.on('response', (response) => {
    if (response.request().method() !== 'DELETE') return;
    void response
      .json()
      .catch(() => ({}))
      .then((body: CancelCall['body']) =>
        cancels.push({ url: response.url(), status: response.status(), body }),
      );
  });

  await signIn(page, proxy.url);
  await expect(page.getByTestId('model-up2x-conservative')).toBeVisible();

  // A 1 MP image keeps the only engine busy for many seconds at 2x.
  const big = { name: 'big-fabric.png', mimeType: 'image/png', buffer: makePng(1024, 1024, 7) };
  await addAndStart(page, [big]);
  await expect(card(page, big.name)).toHaveAttribute('data-status', 'processing');
  await expect.poll(() => proxy.serverActive).toBe(1);
  const bigKey = proxy.forwardedKeys[0]!;

  // A small image queues behind it on the server.
  const [small] = pngFiles(1, 32);
  await addAndStart(page, [small!]);
  await expect.poll(() => proxy.serverActive).toBe(2);
  await expect(card(page, small!.name)).toHaveAttribute('data-status', 'processing');

  const cancelledAt = Date.now();
  await card(page, big.name).getByTestId('item-cancel').click();
  await expect(card(page, big.name)).toHaveAttribute('data-status', 'cancelled');
  await expect(card(page, big.name).getByTestId('item-error')).toHaveCount(0);

  // The small image could only run once the big one let go of the engine slot.
  await expect(card(page, small!.name)).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  const nextDoneMs = Date.now() - cancelledAt;
  console.log(`cancel → next image done: ${nextDoneMs} ms (grace ${REPLAY_GRACE_MS} ms)`);
  // Without the cancel call the server keeps the job for the grace, then the small one runs.
  expect(nextDoneMs).toBeLessThan(REPLAY_GRACE_MS);
  // And the big job was stopped, not run to its end: only the small image's result is stored.
  expect(resultsOnServer()).toBe(1);
  await expect.poll(() => cancels.length).toBe(1);
  expect(cancels[0]).toMatchObject({
    url: expect.stringContaining(`/upscale-api/upscale/jobs/${bigKey}`) as unknown,
    status: 200,
    body: { status: 'success', stopped: true },
  });

  // Retry runs afresh under a new key (it must not join the cancelled job); Cancel all stops it too.
  await card(page, big.name).getByTestId('item-retry').click();
  await expect.poll(() => proxy.serverActive).toBe(1);
  const retryKey = proxy.forwardedKeys.at(-1)!;
  expect(retryKey).not.toBe(bigKey);
  await page.getByTestId('cancel-all').click();
  await expect(card(page, big.name)).toHaveAttribute('data-status', 'cancelled');
  await expect.poll(() => cancels.length).toBe(2);
  expect(cancels[1]).toMatchObject({ status: 200, body: { stopped: true } });
  expect(cancels[1]!.url).toContain(retryKey);
  expect(proxy.replayedKeys).toEqual([]);
  expect(resultsOnServer()).toBe(1);
});
