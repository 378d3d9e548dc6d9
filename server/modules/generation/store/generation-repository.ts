// Queries of the generation tables. Every read that serves a user is scoped to that user's rows;
// the job handlers read by id. Every write to a row after its insert is a guarded move
// (row-states.ts): it applies only from the states its table allows, and says whether it did. A
// job's run works through ownedBy(its run owner): it takes its rows as it starts, and each of its
// moves applies only while the row is still its own, so a run that lost its job to another
// worker cannot write the row after the new run took it.
import type { Insertable, Updateable } from 'kysely';
import { IMAGE_MOVES, movableFrom, REQUEST_MOVES, VIDEO_MOVES } from './row-states.js';
import type {
  GeneratedImageRow,
  GeneratedImagesTable,
  GenerationDb,
  GenerationRequestRow,
  GenerationRequestsTable,
  GenerationStatus,
  UploadRole,
  VideoGenerationRow,
  VideoGenerationsTable,
  VideoPromptRow,
} from './generation-tables.js';

export interface PageQuery {
  /** Rows with a smaller id than this (the last id of the previous page). */
  cursor?: number;
  limit: number;
  status?: GenerationStatus;
}

export function createGenerationRepository(db: GenerationDb, now: () => Date, owner?: string) {
  const stamp = () => now().toISOString();
  const mine = () => {
    if (owner === undefined) throw new Error('only a run that owns rows takes them');
    return { run_owner: owner, updated_at: stamp() };
  };
  return {
    now: stamp,

    /** The same queries for one job run (server/jobs/run-owner.ts): its moves apply only to rows it owns. */
    ownedBy(runOwner: string) {
      return createGenerationRepository(db, now, runOwner);
    },
    /** This run takes a request and its candidate images (the run it replaced writes them no more). */
    async takeRequest(id: number): Promise<void> {
      const values = mine();
      await db.updateTable('generation_requests').set(values).where('id', '=', id).execute();
      await db.updateTable('generated_images').set(values).where('request_id', '=', id).where('parent_image_id', 'is', null).execute();
    },
    /** This run takes the images of a regenerate run. */
    async takeGeneration(generationId: string): Promise<void> {
      await db.updateTable('generated_images').set(mine()).where('generation_id', '=', generationId).execute();
    },
    /** This run takes a video generation. */
    async takeVideo(id: number): Promise<void> {
      await db.updateTable('video_generations').set(mine()).where('id', '=', id).execute();
    },

    async insertRequest(values: Omit<Insertable<GenerationRequestsTable>, 'created_at' | 'updated_at'>) {
      const t = stamp();
      return db
        .insertInto('generation_requests')
        .values({ ...values, created_at: t, updated_at: t })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    async addUploads(requestId: number, uploads: { fileId: string; role: UploadRole; position: number }[]) {
      if (uploads.length === 0) return;
      await db
        .insertInto('generation_request_images')
        .values(uploads.map((u) => ({ request_id: requestId, file_id: u.fileId, role: u.role, position: u.position })))
        .execute();
    },
    request(id: number): Promise<GenerationRequestRow | undefined> {
      return db.selectFrom('generation_requests').selectAll().where('id', '=', id).executeTakeFirst();
    },
    requestByClientId(userId: number, clientRequestId: string): Promise<GenerationRequestRow | undefined> {
      return db
        .selectFrom('generation_requests')
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_request_id', '=', clientRequestId)
        .executeTakeFirst();
    },
    /** A user's requests by their client ids, or the latest `limit` when none are given; newest first. */
    requestsOfUser(userId: number, clientRequestIds: string[] | undefined, limit: number): Promise<GenerationRequestRow[]> {
      if (clientRequestIds?.length === 0) return Promise.resolve([]);
      let q = db.selectFrom('generation_requests').selectAll().where('user_id', '=', userId);
      if (clientRequestIds) q = q.where('client_request_id', 'in', clientRequestIds);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    /** Moves a request to `to` (with `values`) if REQUEST_MOVES allows it from its state now; true when it did. */
    async moveRequest(id: number, to: GenerationStatus, values: Omit<Updateable<GenerationRequestsTable>, 'status'> = {}): Promise<boolean> {
      const from = movableFrom(REQUEST_MOVES, to);
      // No state may move there (an empty IN () is not SQL on PostgreSQL).
      if (from.length === 0) return false;
      let q = db
        .updateTable('generation_requests')
        .set({ ...values, status: to, updated_at: stamp() })
        .where('id', '=', id)
        .where('status', 'in', from);
      if (owner !== undefined) q = q.where('run_owner', '=', owner);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** A resend of a failed request starts it over: the request and its failed candidates back to pending. */
    async reopenRequest(id: number): Promise<boolean> {
      // Inside a caller's transaction (a collection's retry) it is part of that one.
      const atomically = <T>(fn: (trx: GenerationDb) => Promise<T>): Promise<T> =>
        db.isTransaction ? fn(db) : db.transaction().execute(fn);
      return atomically(async (trx) => {
        const t = stamp();
        const r = await trx
          .updateTable('generation_requests')
          .set({ status: 'pending', updated_at: t })
          .where('id', '=', id)
          .where('status', 'in', movableFrom(REQUEST_MOVES, 'pending'))
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        // Their old tasks ended without an image: the next run starts new ones.
        await trx
          .updateTable('generated_images')
          .set({ status: 'pending', task_id: null, updated_at: t })
          .where('request_id', '=', id)
          .where('parent_image_id', 'is', null)
          .where('status', 'in', movableFrom(IMAGE_MOVES, 'pending'))
          .execute();
        return true;
      });
    },
    uploads(requestIds: number[]) {
      if (requestIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('generation_request_images')
        .selectAll()
        .where('request_id', 'in', requestIds)
        .orderBy('role')
        .orderBy('position')
        .execute();
    },

    async insertImages(values: Omit<Insertable<GeneratedImagesTable>, 'created_at' | 'updated_at'>[]) {
      if (values.length === 0) return [];
      const t = stamp();
      return db
        .insertInto('generated_images')
        .values(values.map((v) => ({ ...v, created_at: t, updated_at: t })))
        .returningAll()
        .execute();
    },
    image(id: number): Promise<GeneratedImageRow | undefined> {
      return db.selectFrom('generated_images').selectAll().where('id', '=', id).executeTakeFirst();
    },
    imagesOfUser(userId: number, ids: number[]): Promise<GeneratedImageRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('generated_images')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .execute();
    },
    imagesOfRequests(requestIds: number[]): Promise<GeneratedImageRow[]> {
      if (requestIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('generated_images')
        .selectAll()
        .where('request_id', 'in', requestIds)
        .where('parent_image_id', 'is', null)
        .orderBy('request_id', 'desc')
        .orderBy('position')
        .execute();
    },
    imagesOfGeneration(generationId: string): Promise<GeneratedImageRow[]> {
      return db
        .selectFrom('generated_images')
        .selectAll()
        .where('generation_id', '=', generationId)
        .orderBy('position')
        .execute();
    },
    pageOfImages(userId: number, page: PageQuery): Promise<GeneratedImageRow[]> {
      let q = db.selectFrom('generated_images').selectAll().where('user_id', '=', userId);
      if (page.cursor !== undefined) q = q.where('id', '<', page.cursor);
      if (page.status) q = q.where('status', '=', page.status);
      return q.orderBy('id', 'desc').limit(page.limit + 1).execute();
    },
    /** Moves an image to `to` (with `values`) if IMAGE_MOVES allows it from its state now; true when it did. */
    async moveImage(id: number, to: GenerationStatus, values: Omit<Updateable<GeneratedImagesTable>, 'status'> = {}): Promise<boolean> {
      const from = movableFrom(IMAGE_MOVES, to);
      // No state may move there (an empty IN () is not SQL on PostgreSQL).
      if (from.length === 0) return false;
      let q = db
        .updateTable('generated_images')
        .set({ ...values, status: to, updated_at: stamp() })
        .where('id', '=', id)
        .where('status', 'in', from);
      if (owner !== undefined) q = q.where('run_owner', '=', owner);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Marks every unfinished image of a request or a regenerate run as failed. */
    async failOpenImages(where: { requestId: number } | { generationId: string }, values: Omit<Updateable<GeneratedImagesTable>, 'status'>) {
      let q = db
        .updateTable('generated_images')
        .set({ ...values, status: 'failed', updated_at: stamp() })
        .where('status', 'in', movableFrom(IMAGE_MOVES, 'failed'));
      q =
        'requestId' in where
          ? q.where('request_id', '=', where.requestId).where('parent_image_id', 'is', null)
          : q.where('generation_id', '=', where.generationId);
      await q.execute();
    },

    videoPrompts(imageIds: number[]): Promise<VideoPromptRow[]> {
      if (imageIds.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('video_prompts')
        .selectAll()
        .where('image_id', 'in', imageIds)
        .orderBy('image_id')
        .orderBy('position')
        .execute();
    },
    videoPrompt(id: number): Promise<VideoPromptRow | undefined> {
      return db.selectFrom('video_prompts').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The image's prompts are replaced as a whole: a second run writes three fresh ones. */
    async replaceVideoPrompts(
      userId: number,
      imageId: number,
      prompts: { prompt: string; camera: string[]; scene: string; mood: string; model: string }[],
    ): Promise<VideoPromptRow[]> {
      const t = stamp();
      // Inside a caller's transaction (a job's final move with its stage hook) it is part of that one.
      const atomically = <T>(fn: (trx: GenerationDb) => Promise<T>): Promise<T> =>
        db.isTransaction ? fn(db) : db.transaction().execute(fn);
      return atomically(async (trx) => {
        await trx.deleteFrom('video_prompts').where('image_id', '=', imageId).execute();
        return trx
          .insertInto('video_prompts')
          .values(
            prompts.map((p, position) => ({
              user_id: userId,
              image_id: imageId,
              position,
              prompt: p.prompt,
              camera_json: JSON.stringify(p.camera),
              scene: p.scene,
              mood: p.mood,
              model: p.model,
              edited: 0,
              created_at: t,
              updated_at: t,
            })),
          )
          .returningAll()
          .execute();
      });
    },
    /**
     * The moments text of one of the user's finished images. Guarded: only the owner's row, and only
     * once it is completed (a run still writing it, or one that failed, is not changed). Undefined
     * when no row matched the guard.
     */
    async saveMomentsText(userId: number, id: number, text: string | null) {
      return db
        .updateTable('generated_images')
        .set({ moments_text: text, updated_at: stamp() })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('status', '=', 'completed')
        .returningAll()
        .executeTakeFirst();
    },
    async editVideoPrompt(id: number, values: { prompt?: string; camera?: string[] }) {
      return db
        .updateTable('video_prompts')
        .set({
          ...(values.prompt !== undefined ? { prompt: values.prompt } : {}),
          ...(values.camera !== undefined ? { camera_json: JSON.stringify(values.camera) } : {}),
          edited: 1,
          updated_at: stamp(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    async insertVideo(values: Omit<Insertable<VideoGenerationsTable>, 'created_at' | 'updated_at'>) {
      const t = stamp();
      return db
        .insertInto('video_generations')
        .values({ ...values, created_at: t, updated_at: t })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    video(id: number): Promise<VideoGenerationRow | undefined> {
      return db.selectFrom('video_generations').selectAll().where('id', '=', id).executeTakeFirst();
    },
    videosOfUser(userId: number, ids: number[]): Promise<VideoGenerationRow[]> {
      if (ids.length === 0) return Promise.resolve([]);
      return db
        .selectFrom('video_generations')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', 'in', ids)
        .execute();
    },
    pageOfVideos(userId: number, page: PageQuery): Promise<VideoGenerationRow[]> {
      let q = db.selectFrom('video_generations').selectAll().where('user_id', '=', userId);
      if (page.cursor !== undefined) q = q.where('id', '<', page.cursor);
      if (page.status) q = q.where('status', '=', page.status);
      return q.orderBy('id', 'desc').limit(page.limit + 1).execute();
    },
    /** Moves a video to `to` (with `values`) if VIDEO_MOVES allows it from its state now; true when it did. */
    async moveVideo(id: number, to: GenerationStatus, values: Omit<Updateable<VideoGenerationsTable>, 'status'> = {}): Promise<boolean> {
      const from = movableFrom(VIDEO_MOVES, to);
      // No state may move there (an empty IN () is not SQL on PostgreSQL).
      if (from.length === 0) return false;
      let q = db
        .updateTable('video_generations')
        .set({ ...values, status: to, updated_at: stamp() })
        .where('id', '=', id)
        .where('status', 'in', from);
      if (owner !== undefined) q = q.where('run_owner', '=', owner);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async fileMimeTypes(ids: (string | null)[]): Promise<Map<string, string>> {
      const wanted = [...new Set(ids.filter((id): id is string => !!id))];
      if (wanted.length === 0) return new Map();
      const rows = await db.selectFrom('stored_files').select(['id', 'mime_type']).where('id', 'in', wanted).execute();
      return new Map(rows.map((r) => [r.id, r.mime_type]));
    },
  };
}

export type GenerationRepository = ReturnType<typeof createGenerationRepository>;
