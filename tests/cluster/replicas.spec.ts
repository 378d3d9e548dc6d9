// Two companion servers (ROLE=all) on the suite's own PostgreSQL behind nginx. A person signs in
// through the real PWA in Chromium via nginx; one replica is killed with kill -9 and they keep
// working through the other; then PostgreSQL is restarted and their next change is saved (after
// the PWA's own retry if the first try met the restart). Timings are printed.
import { expect, test, type Page } from '@playwright/test';
import { apiCall, signInApi } from '../e2e/offline-helpers.js';
import { clusterProblem, startCluster, type Cluster } from './index.js';

const problem = clusterProblem({ needsBuild: true });
// Printed, so a machine without initdb or nginx never skips the suite silently.
if (problem) console.log(`cluster suite skipped: ${problem}`);

test.describe.configure({ mode: 'serial' });
// .ci/run installs nginx and PostgreSQL's server binaries: a missing one is a broken setup, told
// as a failure rather than a silent skip.
test.beforeAll(() => {
  if (problem !== null) throw new Error(`the cluster suite cannot run here: ${problem}`);
});

let cluster: Cluster;
const timings: Record<string, number> = {};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const started = Date.now();
  cluster = await startCluster({ replicas: 2 });
  timings.clusterStartMs = Date.now() - started;
});

test.afterAll(async () => {
  const started = Date.now();
  await cluster?.teardown();
  timings.teardownMs = Date.now() - started;
  console.log(`cluster timings: ${JSON.stringify(timings)}`);
});

async function editPrompt(page: Page, type: string, content: string): Promise<void> {
  const card = page.getByTestId(`prompt-card-${type}`);
  await card.getByRole('button', { name: 'Edit' }).click();
  await card.getByRole('textbox').fill(content);
  await card.getByRole('button', { name: 'Save' }).click();
}

/** The prompt as the database has it, read through nginx. */
async function storedPrompt(type: string): Promise<string | undefined> {
  const { token } = await signInApi(cluster.url, cluster.admin.account, cluster.admin.password);
  const r = await apiCall<{ content: string } | null>(cluster.url, 'GET', `/prompts/${type}/`, token);
  return r.status === 200 ? r.data?.content : undefined;
}

const portOf = (upstream: string) => upstream.split(', ').at(-1)?.split(':').at(-1);

test('a replica killed with kill -9 and a PostgreSQL restart: the person keeps working through nginx', async ({
  page,
}) => {
  const [first, second] = cluster.replicas() as [Cluster['companions'][number], Cluster['companions'][number]];
  const admin = await signInApi(cluster.url, cluster.admin.account, cluster.admin.password);
  await apiCall(cluster.url, 'DELETE', '/prompts/image/', admin.token);
  await apiCall(cluster.url, 'POST', '/prompts/', admin.token, {
    type: 'image',
    content: 'Linen on a sunlit terrace, served by any replica',
  });

  // Signs in with the form, in English, through nginx.
  await page.goto(`${cluster.url}/#/login`);
  await page.evaluate(() => localStorage.setItem('language', 'en-US'));
  await page.reload();
  await page.getByTestId('login-username').fill(cluster.admin.account);
  await page.getByTestId('login-password').fill(cluster.admin.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/#\/$/);
  await page.goto(`${cluster.url}/#/prompt-management`);
  await expect(page.getByTestId('prompt-content-image')).toHaveText('Linen on a sunlit terrace, served by any replica');
  // Round-robin: both replicas have answered by now.
  const served = new Set(cluster.lb.accessLog().map((e) => portOf(e.upstream)));
  expect(served).toContain(String(first.port));
  expect(served).toContain(String(second.port));

  // A crash of one replica: nothing is said to anyone, the next requests go to the other.
  const logBefore = cluster.lb.accessLog().length;
  let t = Date.now();
  await first.kill('SIGKILL');
  timings.killMs = Date.now() - t;
  t = Date.now();
  await page.reload();
  await expect(page.getByTestId('prompt-content-image')).toHaveText('Linen on a sunlit terrace, served by any replica');
  await editPrompt(page, 'image', 'Saved through the surviving replica');
  await expect(page.getByTestId('prompt-pending-image')).toHaveCount(0, { timeout: 20_000 });
  await expect.poll(() => storedPrompt('image')).toBe('Saved through the surviving replica');
  timings.workAfterKillMs = Date.now() - t;
  const afterKill = cluster.lb.accessLog().slice(logBefore);
  // The page's own calls after the kill were answered, by the replica that is left.
  const pageCalls = afterKill.filter((e) => e.path.startsWith('/api/prompts'));
  expect(pageCalls.length).toBeGreaterThan(0);
  for (const call of pageCalls) {
    expect(call.status).toBeLessThan(400);
    expect(portOf(call.upstream)).toBe(String(second.port));
  }
  expect(first.running()).toBe(false);

  // PostgreSQL restarts under the running replica; the person saves a change right after.
  t = Date.now();
  await cluster.postgres.restart('fast');
  timings.postgresRestartMs = Date.now() - t;
  t = Date.now();
  await editPrompt(page, 'image', 'Saved after the database came back');
  await expect(page.getByTestId('prompt-pending-image')).toHaveCount(0, { timeout: 30_000 });
  await expect.poll(() => storedPrompt('image')).toBe('Saved after the database came back');
  timings.saveAfterPostgresRestartMs = Date.now() - t;
  expect(second.running()).toBe(true);
  await page.reload();
  await expect(page.getByTestId('prompt-content-image')).toHaveText('Saved after the database came back');

  // The killed replica comes back and takes its share again.
  t = Date.now();
  await first.start();
  timings.replicaRestartMs = Date.now() - t;
  const logBack = cluster.lb.accessLog().length;
  await expect
    .poll(
      async () => {
        await fetch(`${cluster.url}/config.json`);
        return cluster.lb
          .accessLog()
          .slice(logBack)
          .some((e) => e.status === 200 && portOf(e.upstream) === String(first.port));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
});
