// The jobs table: every piece of long AI work as a row, so a restart or another replica picks it up.
import type { Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobClass } from './fair-share.js';

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** The row the job works on (a generation request, image, video generation or workshop item). */
  ref_id: number;
  user_id: number | null;
  /** What the run needs beyond its row, as JSON. */
  params_json: string | null;
  /** The class its caller chose (migration 0013); null: its kind's. */
  job_class: JobClass | null;
  status: JobStatus;
  attempts: number;
  next_run_at: string;
  deadline_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  cancel_requested: number;
  last_error: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
}

export type JobTables = { jobs: JobsTable };
export type JobDb = Kysely<Database & JobTables>;
export type JobRow = Selectable<JobsTable>;
