// Table shapes as Kysely sees them. Timestamps are ISO-8601 text and flags are 0/1 integers so the
// same queries run unchanged on SQLite and PostgreSQL.
import type { Generated } from 'kysely';

export type UserLevel = 'ADMIN' | 'DESIGNER' | 'GENERAL';
export const USER_LEVELS: readonly UserLevel[] = ['ADMIN', 'DESIGNER', 'GENERAL'];

export interface UsersTable {
  id: Generated<number>;
  account: string;
  wechat_account: string | null;
  phone: string | null;
  international_code: string;
  display_name: string;
  user_level: UserLevel;
  password_hash: string | null;
  disabled: number;
  /** Carried in access tokens; raising it revokes every access token issued before. */
  token_version: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: string;
  revoked_at: string | null;
  replaced_at: string | null;
  created_at: string;
  /** Successors given to this token after its rotation, within its grace period. */
  grace_uses: Generated<number>;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  phone_key: string;
  code_hash: string;
  expires_at: string;
  attempts: number;
  consumed_at: string | null;
  created_at: string;
}

/** One fixed window of one attempt limiter: the key names the limiter and what it counts. */
export interface ThrottleCountersTable {
  key: string;
  count: number;
  window_ends_at: string;
}

export interface Database {
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  verification_codes: VerificationCodesTable;
  throttle_counters: ThrottleCountersTable;
}
