// Which collection a request was made for (generation_requests.collection_item_id), so the history
// can say "from collection Spring 27, fabric F-012" and link back to its grid. Images and videos
// are linked through the request their candidates came from.
import { z } from 'zod';
import type { CollectionTables } from '../../collections/collection-tables.js';
import type { GenerationDb } from '../store/generation-tables.js';

export const collectionLinkSchema = z
  .object({
    id: z.number().int().meta({ description: "The collection's id (GET /collections/:id)." }),
    name: z.string(),
    code: z.string().meta({ description: "The fabric's code in the collection's sheet." }),
  })
  .nullable()
  .meta({ id: 'CollectionLink', description: 'The collection this was made for; null for the workflow’s own.' });
export type CollectionLink = NonNullable<z.output<typeof collectionLinkSchema>>;

/** The collection of each request made for one, by request id (requests of none are left out). */
export async function collectionLinksOfRequests(db: GenerationDb, requestIds: readonly (number | null)[]): Promise<Map<number, CollectionLink>> {
  const wanted = [...new Set(requestIds.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .withTables<CollectionTables>()
    .selectFrom('generation_requests as r')
    .innerJoin('collection_items as i', 'i.id', 'r.collection_item_id')
    .innerJoin('collections as c', 'c.id', 'i.collection_id')
    .select(['r.id as request_id', 'c.id as collection_id', 'c.name as name', 'i.code as code'])
    .where('r.id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.request_id, { id: r.collection_id, name: r.name, code: r.code }]));
}

/** The collection of each image's request, by image id. */
export async function collectionLinksOfImages(db: GenerationDb, imageIds: readonly (number | null)[]): Promise<Map<number, CollectionLink>> {
  const wanted = [...new Set(imageIds.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const images = await db.selectFrom('generated_images').select(['id', 'request_id']).where('id', 'in', wanted).execute();
  const byRequest = await collectionLinksOfRequests(db, images.map((i) => i.request_id));
  const links = new Map<number, CollectionLink>();
  for (const image of images) {
    const link = image.request_id === null ? undefined : byRequest.get(image.request_id);
    if (link) links.set(image.id, link);
  }
  return links;
}
