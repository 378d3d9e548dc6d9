import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// The generation service: stored files (by content hash), analyse requests with their uploads,
// generated images, video prompts, video generations, workshop items, and the persisted jobs that
// carry all of them through restarts. Statuses are text, parameters and analyses JSON text, times
// ISO-8601 text, so the same queries run on SQLite and PostgreSQL.
export function generationMigration(dialect: Dialect) {
  const id = dialect === 'postgres' ? 'serial' : 'integer';
  const real = dialect === 'postgres' ? 'double precision' : 'real';
  type Table = ReturnType<Kysely<unknown>['schema']['createTable']>;
  const withId = (t: Table) =>
    t.addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()));
  const userRef = (t: Table) =>
    t.addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'));
  const times = (t: Table) =>
    t.addColumn('created_at', 'text', (c) => c.notNull()).addColumn('updated_at', 'text', (c) => c.notNull());
  // A failure keeps its message key (localised when read), the provider's error kind and its text.
  const failure = (t: Table) =>
    t
      .addColumn('error_code', 'text')
      .addColumn('error_key', 'text')
      .addColumn('error_detail', 'text');

  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('stored_files')
        // sha256 of the bytes, hex: the same upload twice is stored once.
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await failure(
        times(
          userRef(withId(db.schema.createTable('generation_requests')))
            // The client's own id, so a resent or recovered request finds its row.
            .addColumn('client_request_id', 'text', (c) => c.notNull())
            .addColumn('prompt', 'text', (c) => c.notNull())
            .addColumn('description', 'text')
            .addColumn('fabric_json', 'text', (c) => c.notNull())
            .addColumn('language', 'text', (c) => c.notNull())
            .addColumn('aspect', 'text', (c) => c.notNull())
            .addColumn('status', 'text', (c) => c.notNull())
            .addColumn('analysis_text', 'text')
            .addColumn('analysis_json', 'text')
            .addColumn('model', 'text')
            .addColumn('provider', 'text')
            .addColumn('started_at', 'text')
            .addColumn('completed_at', 'text'),
        ),
      ).execute();
      await db.schema
        .createIndex('generation_requests_client_id')
        .on('generation_requests')
        .columns(['user_id', 'client_request_id'])
        .unique()
        .execute();

      await withId(db.schema.createTable('generation_request_images'))
        .addColumn('request_id', 'integer', (c) =>
          c.notNull().references('generation_requests.id').onDelete('cascade'),
        )
        .addColumn('file_id', 'text', (c) => c.notNull().references('stored_files.id'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('generation_request_images_request')
        .on('generation_request_images')
        .column('request_id')
        .execute();

      await failure(
        times(
          userRef(withId(db.schema.createTable('generated_images')))
            .addColumn('request_id', 'integer', (c) => c.references('generation_requests.id').onDelete('set null'))
            .addColumn('parent_image_id', 'integer', (c) => c.references('generated_images.id').onDelete('set null'))
            // One analyse run's candidates or one regenerate run's images share it.
            .addColumn('generation_id', 'text', (c) => c.notNull())
            .addColumn('position', 'integer', (c) => c.notNull())
            .addColumn('prompt', 'text', (c) => c.notNull())
            .addColumn('status', 'text', (c) => c.notNull())
            .addColumn('file_id', 'text', (c) => c.references('stored_files.id'))
            .addColumn('thumbnail_file_id', 'text', (c) => c.references('stored_files.id'))
            .addColumn('width', 'integer')
            .addColumn('height', 'integer')
            .addColumn('aspect', 'text', (c) => c.notNull())
            .addColumn('style', 'text')
            .addColumn('model', 'text')
            .addColumn('provider', 'text')
            .addColumn('moments_text', 'text')
            .addColumn('label', 'text')
            .addColumn('language', 'text', (c) => c.notNull())
            .addColumn('completed_at', 'text'),
        ),
      ).execute();
      await db.schema
        .createIndex('generated_images_user')
        .on('generated_images')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema.createIndex('generated_images_request').on('generated_images').column('request_id').execute();
      await db.schema
        .createIndex('generated_images_generation')
        .on('generated_images')
        .column('generation_id')
        .execute();

      await times(
        userRef(withId(db.schema.createTable('video_prompts')))
          .addColumn('image_id', 'integer', (c) => c.notNull().references('generated_images.id').onDelete('cascade'))
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('prompt', 'text', (c) => c.notNull())
          .addColumn('camera_json', 'text', (c) => c.notNull())
          .addColumn('scene', 'text')
          .addColumn('mood', 'text')
          .addColumn('model', 'text')
          .addColumn('edited', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute();
      await db.schema.createIndex('video_prompts_image').on('video_prompts').column('image_id').execute();

      await failure(
        times(
          userRef(withId(db.schema.createTable('video_generations')))
            .addColumn('source_image_id', 'integer', (c) => c.references('generated_images.id').onDelete('set null'))
            .addColumn('last_image_id', 'integer', (c) => c.references('generated_images.id').onDelete('set null'))
            .addColumn('video_prompt_id', 'integer', (c) => c.references('video_prompts.id').onDelete('set null'))
            .addColumn('retry_of_id', 'integer')
            .addColumn('kind', 'text', (c) => c.notNull())
            .addColumn('status', 'text', (c) => c.notNull())
            .addColumn('user_prompt', 'text')
            .addColumn('video_prompt', 'text', (c) => c.notNull())
            .addColumn('style', 'text')
            .addColumn('camera_json', 'text', (c) => c.notNull())
            .addColumn('aspect', 'text', (c) => c.notNull())
            .addColumn('duration_seconds', 'integer', (c) => c.notNull())
            .addColumn('resolution', 'text', (c) => c.notNull())
            .addColumn('prompt_optimizer', 'integer', (c) => c.notNull())
            .addColumn('watermark', 'integer', (c) => c.notNull())
            .addColumn('language', 'text', (c) => c.notNull())
            .addColumn('first_frame_file_id', 'text', (c) => c.references('stored_files.id'))
            .addColumn('last_frame_file_id', 'text', (c) => c.references('stored_files.id'))
            .addColumn('provider', 'text')
            .addColumn('model', 'text')
            .addColumn('task_id', 'text')
            .addColumn('provider_file_id', 'text')
            .addColumn('result_file_id', 'text', (c) => c.references('stored_files.id'))
            .addColumn('thumbnail_file_id', 'text', (c) => c.references('stored_files.id'))
            .addColumn('width', 'integer')
            .addColumn('height', 'integer')
            // What the creating call asked for, so a retry can ask again; null when unknown.
            .addColumn('params_json', 'text')
            .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
            .addColumn('requested_at', 'text', (c) => c.notNull())
            .addColumn('started_at', 'text')
            .addColumn('completed_at', 'text')
            .addColumn('processing_ms', 'integer'),
        ),
      ).execute();
      await db.schema
        .createIndex('video_generations_user')
        .on('video_generations')
        .columns(['user_id', 'id'])
        .execute();

      await failure(
        times(
          userRef(withId(db.schema.createTable('workshop_items')))
            .addColumn('type', 'text', (c) => c.notNull())
            .addColumn('status', 'text', (c) => c.notNull())
            .addColumn('input_text', 'text')
            .addColumn('input_file_ids', 'text', (c) => c.notNull())
            .addColumn('config_json', 'text', (c) => c.notNull())
            .addColumn('language', 'text', (c) => c.notNull())
            .addColumn('result_text', 'text')
            .addColumn('result_file_ids', 'text')
            .addColumn('confidence', real)
            .addColumn('model', 'text')
            .addColumn('provider', 'text')
            .addColumn('started_at', 'text')
            .addColumn('completed_at', 'text')
            .addColumn('processing_ms', 'integer'),
        ),
      ).execute();
      await db.schema.createIndex('workshop_items_user').on('workshop_items').columns(['user_id', 'id']).execute();

      await times(
        withId(db.schema.createTable('jobs'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('ref_id', 'integer', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
          // What the run needs beyond its row (a stream's context), as JSON.
          .addColumn('params_json', 'text')
          // queued | running | completed | failed | cancelled
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_run_at', 'text', (c) => c.notNull())
          // Retries stop once this passes.
          .addColumn('deadline_at', 'text', (c) => c.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('lease_expires_at', 'text')
          .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('last_error', 'text')
          .addColumn('finished_at', 'text'),
      ).execute();
      await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'next_run_at']).execute();
      await db.schema.createIndex('jobs_ref').on('jobs').columns(['kind', 'ref_id']).execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of [
        'jobs',
        'workshop_items',
        'video_generations',
        'video_prompts',
        'generated_images',
        'generation_request_images',
        'generation_requests',
        'stored_files',
      ]) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}
