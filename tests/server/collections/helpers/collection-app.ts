// A companion server for the collection suites: the generation test app (real database, the
// built-in engine with its fast settings unless a double is given), finished tus uploads made
// over the app's own endpoint, a create call's body, and reads of the collection rows.
import sharp from 'sharp';
import type { CollectionSettings, CreateCollection, CreateCollectionItem } from '../../../../shared/collections/collection-types.js';
import type { GenerationProviders } from '../../../../server/modules/generation/engines/generation-providers.js';
import { collectionsDb } from '../../../../server/modules/collections/collection-tables.js';
import { createGenerationApp, FAST_RUNNER, until, type GenerationTestApp } from '../../generation/helpers/generation-app.js';
import type { DatabaseKind } from '../../helpers/databases.js';

/** What the helpers need of a test app: the app (team mode's API replica too). */
export type AppOf = Pick<GenerationTestApp, 'app'>;

export const FAST_LOCAL = { textPauseMs: 0, video: { fps: 8, maxShortSide: 96, pollIntervalMs: 30 } };
export const CHAIN_RUNNER = { ...FAST_RUNNER, maxRunMs: 60_000, budgetMs: 60_000 };

export function collectionApp(kind: DatabaseKind, providers?: GenerationProviders, env?: Record<string, string>): Promise<GenerationTestApp> {
  return createGenerationApp(kind, providers, CHAIN_RUNNER, FAST_LOCAL, env ? { env } : {});
}

/** A small striped swatch whose colours differ by `seed`, so every fabric's images are their own. */
export function swatch(seed: number, size = 64): Promise<Buffer> {
  const a = `hsl(${(seed * 47) % 360},70%,45%)`;
  const b = `hsl(${(seed * 47 + 180) % 360},60%,80%)`;
  const stripes = Array.from({ length: 8 }, (_, i) => `<rect x="${(i * size) / 8}" y="0" width="${size / 8}" height="${size}" fill="${i % 2 ? a : b}"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">${stripes}</svg>`)).png().toBuffer();
}

/** A finished tus upload of `data` by the token's user; answers its id. */
export async function upload(t: AppOf, token: string, data: Buffer, purpose = 'collection'): Promise<string> {
  const meta = (v: string) => Buffer.from(v).toString('base64');
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/uploads/',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': `filename ${meta('swatch.png')},filetype ${meta('image/png')},purpose ${meta(purpose)}`,
    },
  });
  if (created.statusCode !== 201) throw new Error(`upload creation answered ${created.statusCode}: ${created.body}`);
  const id = created.headers.location!.split('/').pop()!;
  const patched = await t.app.inject({
    method: 'PATCH',
    url: `/api/uploads/${id}`,
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    payload: data,
  });
  if (patched.statusCode !== 204) throw new Error(`upload append answered ${patched.statusCode}: ${patched.body}`);
  return id;
}

export const SETTINGS: CollectionSettings = {
  image_prompt: 'A summer dress in this fabric',
  candidates: 2,
  pick_rule: 'score',
  stop_for_review: false,
  video: { kind: 'standard', aspect: 'square', camera: ['Push in'], duration: 6, resolution: '512P' },
};

/** `count` fabrics, each with one pattern upload of its own. */
export async function collectionBody(
  t: AppOf,
  token: string,
  count: number,
  o: { id?: string; settings?: Partial<CollectionSettings>; items?: (i: number) => Partial<CreateCollectionItem> } = {},
): Promise<CreateCollection> {
  const items: CreateCollectionItem[] = [];
  for (let i = 0; i < count; i += 1) {
    items.push({
      code: `F-${i + 1}`,
      name: `Fabric ${i + 1}`,
      fabric: { fabric_name: `Poplin ${i + 1}`, composition: '100% cotton' },
      model_upload_ids: [],
      pattern_upload_ids: [await upload(t, token, await swatch(i + 1))],
      ...o.items?.(i),
    });
  }
  return {
    client_collection_id: o.id ?? `season-${Math.random().toString(36).slice(2)}`,
    name: 'Spring season',
    language: 'en-US',
    settings: { ...SETTINGS, ...o.settings },
    items,
  };
}

export interface Ref {
  id: number;
  client_collection_id: string;
  status: string;
}

export function tables(t: AppOf) {
  return collectionsDb(t.app.db.kysely);
}

export async function items(t: AppOf, collectionId: number) {
  return tables(t).selectFrom('collection_items').selectAll().where('collection_id', '=', collectionId).orderBy('position').execute();
}

export async function collection(t: AppOf, id: number) {
  return tables(t).selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Waits until every item of the collection satisfies `done` (the chain's jobs run meanwhile). */
export function untilItems(
  t: AppOf,
  collectionId: number,
  done: (rows: Awaited<ReturnType<typeof items>>) => boolean,
  ms = 30_000,
) {
  return until(() => items(t, collectionId), done, ms);
}

/** Job rows of the given kind for the given rows (each stage's job made once). */
export async function jobsOf(t: GenerationTestApp, kind: string, refIds: number[]) {
  if (refIds.length === 0) return [];
  return tables(t).selectFrom('jobs').selectAll().where('kind', '=', kind).where('ref_id', 'in', refIds).execute();
}
