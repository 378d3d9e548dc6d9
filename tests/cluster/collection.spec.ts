// A collection in team mode on real parts: one ROLE=api replica behind nginx, two ROLE=worker
// processes, the suite's own PostgreSQL (pg-boss) and a shared data folder, built-in engine.
// A designer's 8-fabric collection runs to videos; one worker is killed with kill -9 while the
// collection is in the middle of its stages. Its jobs run on the other worker once its heartbeat is
// WORKER_STALE_SECONDS old, and the collection finishes with no call from anyone. Then every fabric
// is checked to have been made once: one request, its candidates, one pick, one set of video
// prompts and one video, each stored once; and pg-boss's jobs of every stage of every fabric are
// counted (one finished job each; a job the dead worker held is run again, never finished twice).
import { expect, test } from '@playwright/test';
import pg from 'pg';
import sharp from 'sharp';
import type { CollectionRef, CreateCollection } from '../../shared/collections/collection-types.js';
import { apiCall, signInApi } from '../e2e/offline-helpers.js';
import { clusterProblem, startCluster, type Cluster, type Companion } from './index.js';

const problem = clusterProblem({ needsBuild: true });
if (problem) console.log(`cluster collection suite skipped: ${problem}`);

test.describe.configure({ mode: 'serial' });
test.beforeAll(() => {
  if (problem !== null) throw new Error(`the cluster suite cannot run here: ${problem}`);
});

const FABRICS = 8;
const CANDIDATES = 2;
const STALE_SECONDS = 3;
const PGBOSS = 'pgboss';
const DESIGNER = { account: 'season-designer', password: 'season-designer-pass' };

let cluster: Cluster;
let workers: Companion[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startCluster({
    replicas: 1,
    env: {
      TEAM_MODE: 'true',
      ROLE: 'api',
      PGBOSS_SCHEMA: PGBOSS,
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      WORKER_STALE_SECONDS: String(STALE_SECONDS),
    },
  });
  workers = await Promise.all(
    [1, 2].map((n) => cluster.addCompanion({ name: `worker-${n}`, readyPath: null, env: { ROLE: 'worker' } })),
  );
  const { token } = await signInApi(cluster.url, cluster.admin.account, cluster.admin.password);
  const made = await apiCall(cluster.url, 'POST', '/users/', token, { ...DESIGNER, user_level: 'GENERAL' });
  expect(made.status, made.message).toBeLessThan(300);
});

test.afterAll(async () => {
  await cluster?.teardown();
});

async function query<R extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A striped swatch of its own colours per fabric. */
function swatch(seed: number): Promise<Buffer> {
  const a = `hsl(${(seed * 47) % 360},70%,45%)`;
  const b = `hsl(${(seed * 47 + 180) % 360},60%,80%)`;
  const stripes = Array.from({ length: 8 }, (_, i) => `<rect x="${i * 16}" y="0" width="16" height="128" fill="${i % 2 ? a : b}"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128">${stripes}</svg>`)).png().toBuffer();
}

/** One image through the tus endpoint (created, then appended whole), through nginx; answers its id. */
async function tusUpload(token: string, data: Buffer, name: string): Promise<string> {
  const meta = (v: string) => Buffer.from(v).toString('base64');
  const created = await fetch(`${cluster.url}/api/uploads/`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `filename ${meta(name)},filetype ${meta('image/png')},purpose ${meta('collection')}`,
    },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const location = created.headers.get('location')!;
  const appended = await fetch(new URL(location, cluster.url), {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(data),
  });
  expect(appended.status).toBe(204);
  return location.split('/').pop()!;
}

interface ItemRow extends Record<string, unknown> {
  id: number;
  status: string;
  stage: string;
  request_id: number | null;
  picked_image_id: number | null;
  video_id: number | null;
}

const itemsOf = (collectionId: number) =>
  query<ItemRow>('SELECT id, status, stage, request_id, picked_image_id, video_id FROM loom.collection_items WHERE collection_id = $1 ORDER BY position', [
    collectionId,
  ]);

/** pg-boss's jobs of one row's stage: how many there were, how often the engine ran them again, how many finished the work. */
async function runsOf(keys: string[]): Promise<Map<string, { jobs: number; retries: number; done: number }>> {
  const rows = await query<{ key: string; jobs: string; retries: string; done: string }>(
    `SELECT singleton_key AS key, count(*) AS jobs, sum(retry_count) AS retries,
            count(*) FILTER (WHERE state = 'completed' AND output->>'outcome' = 'completed') AS done
       FROM ${PGBOSS}.job WHERE name LIKE 'loom-lane-%' AND singleton_key = ANY($1)
      GROUP BY singleton_key`,
    [keys],
  );
  return new Map(rows.map((r) => [r.key, { jobs: Number(r.jobs), retries: Number(r.retries), done: Number(r.done) }]));
}

test('a worker killed with kill -9 in the middle of a collection: the other finishes it, and every fabric is made once', async () => {
  test.setTimeout(240_000);
  const { token } = await signInApi(cluster.url, DESIGNER.account, DESIGNER.password);
  const items: CreateCollection['items'] = [];
  for (let i = 1; i <= FABRICS; i++) {
    items.push({
      code: `SS27-${i}`,
      name: `Poplin ${i}`,
      fabric: { fabric_name: `Poplin ${i}`, composition: '100% cotton' },
      model_upload_ids: [],
      pattern_upload_ids: [await tusUpload(token, await swatch(i), `SS27-${i}_pattern.png`)],
    });
  }
  const body: CreateCollection = {
    client_collection_id: 'season-ss27',
    name: 'SS27',
    language: 'en-US',
    settings: {
      image_prompt: 'A summer dress in this fabric',
      candidates: CANDIDATES,
      pick_rule: 'score',
      stop_for_review: false,
      video: { kind: 'standard', aspect: 'square', camera: [], duration: 6, resolution: '512P' },
    },
    items,
  };
  const started = Date.now();
  const created = await apiCall<CollectionRef>(cluster.url, 'POST', '/collections', token, body);
  expect(created.status, created.message).toBe(201);
  const collectionId = created.data.id;

  // The middle: some fabric done, others still in their stages.
  await expect
    .poll(async () => (await itemsOf(collectionId)).filter((i) => i.status === 'done').length, { timeout: 120_000, intervals: [200] })
    .toBeGreaterThanOrEqual(1);
  const atKill = await itemsOf(collectionId);
  const killedAt = Date.now();
  await workers[0]!.kill('SIGKILL');

  await expect
    .poll(async () => (await query<{ status: string }>('SELECT status FROM loom.collections WHERE id = $1', [collectionId]))[0]?.status, {
      timeout: 180_000,
      intervals: [500],
    })
    .toBe('completed');
  const finishedMs = Date.now() - started;
  const afterKillMs = Date.now() - killedAt;

  const rows = await itemsOf(collectionId);
  expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'done'));
  // One request per fabric (the one its item names), its candidates each stored once.
  const requests = await query<{ collection_item_id: number; id: number }>(
    'SELECT collection_item_id, id FROM loom.generation_requests WHERE collection_item_id = ANY($1)',
    [rows.map((r) => r.id)],
  );
  expect(requests.length).toBe(FABRICS);
  const images = await query<{ request_id: number; status: string; file_id: string | null }>(
    'SELECT request_id, status, file_id FROM loom.generated_images WHERE request_id = ANY($1)',
    [requests.map((r) => r.id)],
  );
  expect(images.length).toBe(FABRICS * CANDIDATES);
  expect(images.every((i) => i.status === 'completed')).toBe(true);
  expect(new Set(images.map((i) => i.file_id)).size).toBe(images.length);
  // One set of video prompts per pick, one video per fabric, each stored once.
  const picks = rows.map((r) => r.picked_image_id!);
  const prompts = await query<{ image_id: number; n: string }>(
    'SELECT image_id, count(*) AS n FROM loom.video_prompts WHERE image_id = ANY($1) GROUP BY image_id',
    [picks],
  );
  expect(prompts.length).toBe(FABRICS);
  const videos = await query<{ id: number; status: string; result_file_id: string | null; source_image_id: number }>(
    'SELECT id, status, result_file_id, source_image_id FROM loom.video_generations WHERE source_image_id = ANY($1)',
    [picks],
  );
  expect(videos.length).toBe(FABRICS);
  expect(videos.every((v) => v.status === 'completed')).toBe(true);
  expect(new Set(videos.map((v) => v.result_file_id)).size).toBe(FABRICS);

  // pg-boss: each stage of each fabric finished by one job.
  const keysOf = (r: ItemRow) => {
    const request = requests.find((q) => q.collection_item_id === r.id)!.id;
    return [`analysis:${request}`, `candidates:${request}`, `collection-pick:${r.id}`, `video-prompts:${r.picked_image_id}`, `video:${r.video_id}`];
  };
  const runs = await runsOf(rows.flatMap(keysOf));
  const perItem: string[] = [];
  for (const r of rows) {
    let total = 0;
    for (const key of keysOf(r)) {
      const run = runs.get(key);
      expect(run?.done, `finished jobs of ${key}`).toBe(1);
      total += run!.jobs + run!.retries;
    }
    perItem.push(String(total));
  }
  expect(workers[1]!.running()).toBe(true);
  const stages = atKill.map((i) => `${i.status === 'running' ? i.stage : i.status}`).join(', ');
  console.log(
    `collection cluster: ${FABRICS} fabrics to videos in ${(finishedMs / 1000).toFixed(1)} s; worker-1 killed with the fabrics at [${stages}], ` +
      `the rest done ${(afterKillMs / 1000).toFixed(1)} s later; job runs per fabric (5 stages): ${perItem.join(', ')}`,
  );
});
