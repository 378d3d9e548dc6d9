// POST /collections: a season's fabrics become one collection. The server checks again what the
// import page checked (codes present and unique, each fabric's image counts, the collection's
// bounds), resolves each finished upload of the caller (purpose "collection") into the generation
// file store one at a time, then writes in ONE transaction the collection, its items, each item's
// analyse request with its images, and the feeder's first items with their analysis jobs. A resend
// with the same client_collection_id answers the collection the first call made.
import type { FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import { z } from 'zod';
import {
  MAX_COLLECTION_IMAGES,
  MAX_COLLECTION_ITEMS,
  type CollectionRef,
  type CreateCollection,
} from '../../../shared/collections/collection-types.js';
import { CHOICE_FIELD_NAMES, LONG_MAX, LONG_TEXT_FIELDS, SHORT_MAX, SHORT_TEXT_FIELDS } from '../../../shared/fabric/fabric-fields.js';
import { MAX_IMAGES_TOTAL, MAX_MODEL_IMAGES, MAX_PATTERN_IMAGES } from '../../../shared/generation/image-limits.js';
import { SUPPORTED_LANGUAGES } from '../../../shared/i18n/languages.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import { QueueFullError } from '../../jobs/fair-share.js';
import { checkUploadedImage } from '../../storage/upload-check.js';
import { requireSlot } from '../generation/engines/generation-providers.js';
import { MAX_PROMPT_LENGTH, REQUEST_ID } from '../generation/form-fields.js';
import { NO_FAILURE } from '../generation/failure.js';
import {
  generationDb,
  type GenerationRequestImagesTable,
  type GenerationRequestsTable,
} from '../generation/store/generation-tables.js';
import { collectionSettingsSchema, itemOverridesSchema, mergedSettings } from './collection-settings.js';
import type { CollectionRow } from './collection-tables.js';
import { inStep, type CollectionsContext, type Step } from './collections-context.js';
import { feed } from './feeder.js';

/** A user's items still to run, over all their collections: past it the create call is refused. */
export const COLLECTION_MAX_OPEN_ITEMS_PER_USER = 500;
/** When a refused create may try again: a collection's items take minutes each. */
const QUEUE_FULL_RETRY_SECONDS = 300;
/** 500 fabrics with every form field full, their prompts and upload ids: well under this. */
export const CREATE_COLLECTION_BODY_LIMIT = 16 * 1024 * 1024;

const fabricSchema = z
  .object(
    Object.fromEntries([
      ...[...SHORT_TEXT_FIELDS, ...CHOICE_FIELD_NAMES].map((f) => [f, z.string().max(SHORT_MAX, `${f} must be at most ${SHORT_MAX} characters`).optional()]),
      ...LONG_TEXT_FIELDS.map((f) => [f, z.string().max(LONG_MAX, `${f} must be at most ${LONG_MAX} characters`).optional()]),
    ]) as Record<string, z.ZodOptional<z.ZodString>>,
  )
  .strict()
  // The fields the sheet filled, as the fabric form's JSON keeps them.
  .transform((fabric) => Object.fromEntries(Object.entries(fabric).filter((e): e is [string, string] => e[1] !== undefined)));

const uploadIds = z.array(z.string().min(1).max(128)).max(MAX_IMAGES_TOTAL);

export const createCollectionSchema = z
  .object({
    client_collection_id: z.string().regex(REQUEST_ID, 'client_collection_id: 1 to 128 letters, digits or _.:-'),
    name: z.string().trim().min(1).max(200),
    language: z.enum(SUPPORTED_LANGUAGES),
    settings: collectionSettingsSchema,
    items: z
      .array(
        z
          .object({
            code: z.string().trim().max(SHORT_MAX),
            name: z.string().trim().max(SHORT_MAX).optional(),
            fabric: fabricSchema,
            description: z.string().max(MAX_PROMPT_LENGTH).optional(),
            overrides: itemOverridesSchema.optional(),
            model_upload_ids: uploadIds,
            pattern_upload_ids: uploadIds,
          })
          .strict(),
      )
      .min(1)
      .max(MAX_COLLECTION_ITEMS),
  })
  .strict()
  .meta({ id: 'CreateCollection' });

// What the schema answers is what the page sends.
const bodyMatches: z.output<typeof createCollectionSchema> extends CreateCollection ? true : false = true;
void bodyMatches;

export const collectionRefSchema = z
  .object({
    id: z.number().int(),
    client_collection_id: z.string(),
    status: z.enum(['running', 'paused', 'cancelled', 'completed']),
  })
  .meta({ id: 'CollectionRef' });

export const refOf = (row: CollectionRow): CollectionRef => ({ id: row.id, client_collection_id: row.client_collection_id, status: row.status });

/** The checks the page made, made again: a body that passed zod may still break the collection's rules. */
function checkRules(body: CreateCollection): void {
  const seen = new Set<string>();
  let images = 0;
  body.items.forEach((item, index) => {
    if (!item.code) throw new AppError(400, 'collection_code_required', { vars: { row: index + 1 } });
    // Codes compare as the import page compares them (its codeKey): "A 1", "a_1" and "a-1" are one fabric.
    const key = item.code.normalize('NFKC').toLowerCase().trim().replace(/[\s_-]+/g, '-');
    if (seen.has(key)) throw new AppError(400, 'collection_duplicate_code', { vars: { code: item.code } });
    seen.add(key);
    const count = item.model_upload_ids.length + item.pattern_upload_ids.length;
    if (count === 0 || count > MAX_IMAGES_TOTAL || item.model_upload_ids.length > MAX_MODEL_IMAGES || item.pattern_upload_ids.length > MAX_PATTERN_IMAGES) {
      throw new AppError(400, 'collection_item_images', {
        vars: { code: item.code, total: MAX_IMAGES_TOTAL, model: MAX_MODEL_IMAGES, pattern: MAX_PATTERN_IMAGES },
      });
    }
    images += count;
  });
  if (images > MAX_COLLECTION_IMAGES) throw new AppError(400, 'collection_too_many_images', { vars: { max: MAX_COLLECTION_IMAGES, count: images } });
}

/** Rows per INSERT: well under either database's limit on a statement's parameters. */
const INSERT_CHUNK = 100;

async function insertRequests(step: Step, values: Omit<Insertable<GenerationRequestsTable>, 'created_at' | 'updated_at'>[]) {
  const db = generationDb(step.trx);
  const t = step.repo.now();
  const rows: { id: number; collection_item_id: number | null }[] = [];
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    const chunk = values.slice(i, i + INSERT_CHUNK).map((v) => ({ ...v, created_at: t, updated_at: t }));
    rows.push(...(await db.insertInto('generation_requests').values(chunk).returning(['id', 'collection_item_id']).execute()));
  }
  return rows;
}

async function insertRequestImages(step: Step, values: Insertable<GenerationRequestImagesTable>[]) {
  const db = generationDb(step.trx);
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    await db.insertInto('generation_request_images').values(values.slice(i, i + INSERT_CHUNK)).execute();
  }
}

export interface CreatedCollection {
  ref: CollectionRef;
  replayed: boolean;
}

export function createCollectionCall(c: CollectionsContext) {
  const { gen } = c;

  /** Each upload named once into the file store, one at a time (a collection's images never sit in memory together). */
  const storeUploads = async (request: FastifyRequest, userId: number, body: CreateCollection): Promise<Map<string, string>> => {
    const references = request.server.uploadReferences;
    if (!references) throw new AppError(503, 'collection_uploads_unavailable');
    const stored = new Map<string, string>();
    for (const item of body.items) {
      for (const id of [...item.model_upload_ids, ...item.pattern_upload_ids]) {
        if (stored.has(id)) continue;
        const found = await references.find(id, userId);
        if (found.purpose !== 'collection') throw new AppError(400, 'collection_upload_purpose', { vars: { id } });
        const data = await references.read(id);
        const checked = await checkUploadedImage(data, found.name, gen.uploadLimits);
        stored.set(id, (await gen.files.put(data, checked.mimeType, checked)).id);
      }
    }
    return stored;
  };

  return async function createCollection(request: FastifyRequest, userId: number, body: CreateCollection): Promise<CreatedCollection> {
    checkRules(body);
    const existing = await c.repo.collectionByClientId(userId, body.client_collection_id);
    if (existing) return { ref: refOf(existing), replayed: true };
    for (const slot of ['analyser', 'imageGenerator', 'promptWriter', 'videoGenerator'] as const) requireSlot(gen.providers, slot);
    const open = await c.repo.countOpenOfUser(userId);
    if (open + body.items.length > COLLECTION_MAX_OPEN_ITEMS_PER_USER) {
      throw new QueueFullError(COLLECTION_MAX_OPEN_ITEMS_PER_USER, QUEUE_FULL_RETRY_SECONDS);
    }
    const files = await storeUploads(request, userId, body);
    try {
      const created = await inStep(c, async (step) => {
        const collection = await step.repo.insertCollection({
          user_id: userId,
          client_collection_id: body.client_collection_id,
          name: body.name,
          language: body.language,
          status: 'running',
          settings_json: JSON.stringify(body.settings),
          completed_at: null,
        });
        const made = await step.repo.insertItems(
          body.items.map((input, position) => ({
            collection_id: collection.id,
            user_id: userId,
            position,
            code: input.code,
            name: input.name || null,
            fabric_json: JSON.stringify(input.fabric),
            description: input.description || null,
            overrides_json: input.overrides && Object.keys(input.overrides).length > 0 ? JSON.stringify(input.overrides) : null,
            request_id: null,
            status: 'queued' as const,
            stage: 'analysis' as const,
            picked_image_id: null,
            pick_by: null,
            pick_json: null,
            video_prompt_id: null,
            video_id: null,
            started_at: null,
            completed_at: null,
            stage_started_at: null,
            ...NO_FAILURE,
          })),
        );
        const itemAt = new Map(made.map((item) => [Number(item.position), item]));
        const requests = await insertRequests(
          step,
          body.items.map((input, position) => {
            const item = itemAt.get(position)!;
            const settings = mergedSettings(body.settings, input.overrides);
            return {
              user_id: userId,
              client_request_id: `collection-item-${item.id}`,
              prompt: settings.image_prompt,
              description: input.description || null,
              fabric_json: JSON.stringify(input.fabric),
              language: body.language,
              // The candidates are framed as the video will be.
              aspect: settings.video.aspect,
              status: 'pending' as const,
              analysis_text: null,
              analysis_json: null,
              model: null,
              provider: null,
              started_at: null,
              completed_at: null,
              candidate_count: settings.candidates,
              collection_item_id: item.id,
              ...NO_FAILURE,
            };
          }),
        );
        const requestOf = new Map(requests.map((r) => [Number(r.collection_item_id), Number(r.id)]));
        await insertRequestImages(
          step,
          body.items.flatMap((input, position) => {
            const requestId = requestOf.get(itemAt.get(position)!.id)!;
            return [
              ...input.model_upload_ids.map((id, i) => ({ request_id: requestId, file_id: files.get(id)!, role: 'model' as const, position: i })),
              ...input.pattern_upload_ids.map((id, i) => ({ request_id: requestId, file_id: files.get(id)!, role: 'pattern' as const, position: i })),
            ];
          }),
        );
        if ((await step.repo.linkRequests(collection.id)) !== made.length) {
          throw new Error(`collection ${collection.id}: an item moved before it was linked to its request`);
        }
        step.tell(collection.id, { type: 'status', status: 'running' });
        await feed(c, step, collection.id);
        return (await step.repo.collection(collection.id))!;
      });
      return { ref: refOf(created), replayed: false };
    } catch (error) {
      // The same collection sent twice at once: the second answers the first.
      if (!isUniqueViolation(error)) throw error;
      const first = await c.repo.collectionByClientId(userId, body.client_collection_id);
      if (!first) throw error;
      return { ref: refOf(first), replayed: true };
    }
  };
}
